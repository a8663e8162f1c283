// YouTube's OAuth specifics: Google OAuth 2.0 for web server apps with PKCE (S256). A delegation asks for
// youtube.readonly and no refresh token; a connect asks for upload, read and comment scopes with offline
// access (a refresh token; prompt=consent so Google sends one again on a reconnect). Identity is the
// user's channel (channels.list mine=true): the channel id and its @handle (customUrl), else its title,
// and its thumbnail. A disconnect revokes the grant (Google revokes the refresh token with the access
// token).
// developers.google.com › Using OAuth 2.0 for Web Server Applications (Revoking a token); YouTube Data
// API › Channels: list.
import { accessToken, bearerGet, child, text } from "../adapter";
import { callPlatform } from "../call";
import { type AccountAuth, type Identity, PlatformError } from "../types";
import type { YouTubeApi } from "./api";

export const SCOPES = ["https://www.googleapis.com/auth/youtube.readonly"];
export const CONNECT_SCOPES = [
  "https://www.googleapis.com/auth/youtube.upload",
  "https://www.googleapis.com/auth/youtube.readonly",
  // Comments (commentThreads.insert) need it.
  "https://www.googleapis.com/auth/youtube.force-ssl",
];

export const parseToken = (body: unknown) => accessToken(body);
export const identityRequest = bearerGet("?part=snippet&mine=true");

export function parseIdentity(body: unknown): Identity | null {
  const items = child(body, "items");
  const channel = Array.isArray(items) ? items[0] : undefined;
  const id = text(channel, "id");
  if (!id) return null;
  const snippet = child(channel, "snippet");
  const handle = text(snippet, "customUrl")?.replace(/^@/, "") ?? text(snippet, "title") ?? "";
  const identity: Identity = { platform_id: id, handle };
  const thumbnails = child(snippet, "thumbnails");
  const avatar =
    text(child(thumbnails, "medium"), "url") ??
    text(child(thumbnails, "default"), "url") ??
    text(child(thumbnails, "high"), "url");
  if (avatar) identity.avatar = avatar;
  return identity;
}

export async function revokeGrant(api: YouTubeApi, account: AccountAuth): Promise<void> {
  // Revoking the refresh token ends the whole grant, also when the access token has already expired.
  const token = account.refreshToken ?? account.accessToken;
  if (!token) return;
  const what = "YouTube token revocation";
  try {
    await callPlatform(
      api.context.fetch,
      what,
      api.url("oauth", "/revoke"),
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ token }),
      },
      // Google's messages here can echo the request; only the status is kept.
      { quoteErrors: false },
    );
  } catch (error) {
    // `invalid_token`: the token is already expired or revoked, which is what was asked for.
    if (error instanceof PlatformError && error.code === "invalid_token") return;
    throw error;
  }
}
