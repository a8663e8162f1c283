// X's OAuth 2.0 specifics (docs.x.com › Authentication › OAuth 2.0 › User access token): Authorization
// Code Flow with PKCE (required), a confidential client (HTTP Basic on the token endpoint), scopes joined
// by spaces, identity from GET /2/users/me, and RFC 7009 revocation of both tokens on disconnect.
import { accessToken, bearerGet, child, flatIdentity, text } from "../adapter";
import type { AccountAuth, Identity, PlatformToken } from "../types";
import { LABEL, type XApi } from "./api";

/** A delegation (identity only): the user's id, handle, name and avatar. */
export const SCOPES = ["tweet.read", "users.read"];

/**
 * A connect publishes posts and threads with media (tweet.write, media.write), reads them back for
 * `find`, metrics and replies (tweet.read, users.read), hides replies in its conversations from the
 * comment inbox (tweet.moderate.write), and keeps a refresh token (offline.access: without it the access
 * token dies after two hours).
 */
export const CONNECT_SCOPES = [
  "tweet.read",
  "tweet.write",
  "users.read",
  "media.write",
  "tweet.moderate.write",
  "offline.access",
];

/** The token answer: `{token_type, expires_in, access_token, scope, refresh_token?}`. */
export const parseToken = (body: unknown) => accessToken(body);

/** GET /2/users/me with the avatar and the verified badge. */
export const identityRequest = bearerGet(
  `?${new URLSearchParams({ "user.fields": "profile_image_url,verified" })}`,
);

/** `{data: {id, name, username, profile_image_url?, verified?}}`. */
export function parseIdentity(body: unknown, token: PlatformToken): Identity | null {
  const user = child(body, "data");
  const identity = flatIdentity("id", "username")(user, token);
  if (!identity) return null;
  const name = text(user, "name");
  if (name) identity.name = name;
  const avatar = text(user, "profile_image_url");
  if (avatar) identity.avatar = avatar;
  const verified = child(user, "verified");
  if (typeof verified === "boolean") identity.verified = verified;
  return identity;
}

/**
 * RFC 7009 revocation (POST /2/oauth2/revoke) of both tokens, each with its token_type_hint: X ends the
 * access token alone when only it is revoked, leaving the refresh token (offline.access) able to mint new
 * ones. Both are tried; the first refusal is thrown.
 */
export async function revokeTokens(api: XApi, account: AccountAuth): Promise<void> {
  const tokens = [
    ...(account.refreshToken ? [{ token: account.refreshToken, hint: "refresh_token" }] : []),
    ...(account.accessToken ? [{ token: account.accessToken, hint: "access_token" }] : []),
  ];
  const results = await Promise.allSettled(
    tokens.map(({ token, hint }) =>
      api.postForm(
        `${LABEL} token revocation (${hint})`,
        api.url("/oauth2/revoke"),
        new URLSearchParams({ token, token_type_hint: hint }),
      ),
    ),
  );
  const refused = results.find((result) => result.status === "rejected");
  if (refused) throw refused.reason;
}
