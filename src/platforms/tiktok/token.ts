// TikTok Login Kit for Web (OAuth v2): scopes, the token answer, the identity, the token lifetimes the
// keep-alive follows, and revocation. PKCE is only for the mobile and desktop kits, so the web flow
// sends none. `username` needs user.info.profile. A connect also asks for video.publish (Content Posting
// API, Direct Post) and video.list (Display API: find and insights).
// developers.tiktok.com › Login Kit for Web; Manage OAuth Access Tokens; Refresh a User Access Token;
// Get User Info; Revoke a User Access Token.
import { accessToken, bearerGet, child, text } from "../adapter";
import { callPlatform } from "../call";
import { platformClient } from "../client";
import type { KeepAlive } from "../define";
import type { AccountAuth, Identity, PlatformToken, PublishingContext } from "../types";
import { HOSTS, tiktokFailure, tokenOf } from "./api";

export const SCOPES = ["user.info.basic", "user.info.profile"];
export const CONNECT_SCOPES = [...SCOPES, "video.publish", "video.list"];

/**
 * Manage OAuth Access Tokens › Token lifetimes (updated November 2026): an access token lives 2 hours
 * (`expires_in`); the engine refreshes it on demand, from the answer's own `expires_in`.
 */
export const ACCESS_TOKEN_SECONDS = 2 * 3600;
/** A refresh token lives 180 days (`refresh_expires_in`), and each refresh replaces it (rotation). */
export const REFRESH_TOKEN_SECONDS = 180 * 86_400;
/**
 * Refreshed monthly whatever the access token's expiry: an idle account's refresh token, replaced by
 * each refresh, is at most 30 of its 180 days old.
 */
export const KEEP_ALIVE: KeepAlive = { every: 30 * 86_400 };

export const parseToken = (body: unknown): PlatformToken | null => accessToken(body, "open_id");

export const identityRequest = bearerGet("?fields=open_id,username,display_name");

export function parseIdentity(body: unknown, token: PlatformToken): Identity | null {
  // TikTok answers 200 with `error.code` other than "ok" when something went wrong.
  const code = text(child(body, "error"), "code");
  if (code && code !== "ok") return null;
  const user = child(child(body, "data"), "user");
  const id = text(user, "open_id") ?? token.userId;
  return id ? { platform_id: id, handle: text(user, "username") ?? text(user, "display_name") ?? "" } : null;
}

/** POST /v2/oauth/revoke/: the app's client credentials and the user's token, as a form. */
export async function revokeToken(context: PublishingContext, account: AccountAuth): Promise<void> {
  const what = "TikTok token revocation";
  const body = new URLSearchParams({
    client_key: context.credentials.clientId,
    client_secret: context.credentials.clientSecret,
    token: tokenOf(account),
  });
  await callPlatform(
    context.fetch,
    what,
    platformClient(context, HOSTS).url("api", "/v2/oauth/revoke/"),
    {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body,
    },
    // An OAuth endpoint's text can echo what it was sent: never quoted.
    { quoteErrors: false, classify: tiktokFailure(what, false) },
  );
}
