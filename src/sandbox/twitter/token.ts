// X's OAuth as the emulator answers it (docs.x.com › Authentication › OAuth 2.0 › User access token;
// Authorization Code Flow with PKCE): the shape of its token and identity answers, its ids and token
// lifetimes (`twitterShape`, stated here from X's pages, apart from the adapter), the user (GET
// /2/users/me) and RFC 7009 revocation (POST /2/oauth2/revoke). Consent and the token endpoint are the
// sandbox's generic ones, in this shape.
import { timingSafeEqualText } from "../../lib/crypto";
import { digits } from "../../platforms/sandbox/ids";
import { isGrant, REFRESH_PURPOSE, spaceOf, unseal } from "../../platforms/sandbox/seal";
import { checkToken } from "../access";
import type { Emulated } from "../emulator";
import { oauthError } from "../oauth-error";
import type { IssuedTokens, SandboxShape } from "../shapes";

/**
 * The scopes the emulated app is granted (docs.x.com › OAuth 2.0 › Scopes): reading and writing posts,
 * reading users, uploading media, hiding replies (tweet.moderate.write) and a refresh token (offline.access).
 */
export const GRANTED_SCOPES = [
  "tweet.read",
  "tweet.write",
  "users.read",
  "media.write",
  "tweet.moderate.write",
  "offline.access",
];

const DAY = 86_400;

export const twitterShape: SandboxShape = {
  // The consent and token endpoints as X › OAuth 2.0 Authorization Code Flow with PKCE names them.
  label: "X (Twitter)",
  paths: { authorize: "/i/oauth2/authorize", token: "/2/oauth2/token", identity: "/2/users/me" },
  clientIdParam: "client_id",
  pkce: true,
  denial: "access_denied",
  // X's user ids: decimal (up to 19 digits).
  platformId: (digest) => digits(digest, 18),
  // "By default, the access token you create through the Authorization Code Flow with PKCE will only stay
  // valid for two hours unless you've used the offline.access scope."
  accessTtl: 7200,
  // X's refresh tokens are single use: each refresh answers the next one.
  refresh: { ttl: 180 * DAY, rotates: true },
  tokenResponse: (tokens: IssuedTokens) => ({
    token_type: "bearer",
    expires_in: tokens.expiresIn,
    access_token: tokens.accessToken,
    scope: (tokens.scopes ?? GRANTED_SCOPES).join(" "),
    ...(tokens.refreshToken === null ? {} : { refresh_token: tokens.refreshToken }),
  }),
  identityResponse: (id, handle) => ({ data: { id, name: handle, username: handle } }),
};

/** The user's fields X answers with (`id`, `name`, `username` always; the others when asked for). */
export async function me(emulated: Emulated, query: URLSearchParams) {
  const caller = await emulated.caller();
  const fields = new Set((query.get("user.fields") ?? "").split(",").filter(Boolean));
  const user: Record<string, unknown> = {
    id: caller.platformId,
    name: caller.handle,
    username: caller.handle,
  };
  if (fields.has("profile_image_url"))
    user.profile_image_url = "https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png";
  if (fields.has("verified")) user.verified = false;
  if (fields.has("protected")) user.protected = false;
  if (fields.has("description")) user.description = "";
  if (fields.has("created_at")) user.created_at = new Date(caller.issuedAt).toISOString();
  return Response.json({ data: user });
}

/**
 * RFC 7009 revocation (POST /2/oauth2/revoke): a confidential client authenticates with HTTP Basic; the
 * token's grant ends (its access and refresh tokens); an unknown token is answered the same (RFC 7009).
 */
export async function revoke(emulated: Emulated, authorization: string | undefined) {
  const form = await emulated.form();
  const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? "");
  let decoded = "";
  try {
    decoded = basic ? atob(basic[1]!) : `${form.get("client_id") ?? ""}:`;
  } catch {
    return oauthError(401, "invalid_client", "Client authentication failed.");
  }
  const [id, ...rest] = decoded.split(":");
  const secret = rest.join(":");
  const client = emulated.client;
  if (id !== client.clientId || !timingSafeEqualText(secret, client.clientSecret))
    return oauthError(401, "invalid_client", "Client authentication failed.");
  const token = form.get("token");
  if (!token) return oauthError(400, "invalid_request", "Missing required parameter [token].");
  const access = await checkToken(emulated.env, "twitter", token);
  let handle = access.kind === "ok" ? access.handle : null;
  let space = access.kind === "ok" ? access.space : null;
  if (handle === null) {
    const refresh = await unseal<unknown>(emulated.env, REFRESH_PURPOSE, token);
    if (isGrant(refresh) && refresh.p === "twitter") {
      handle = refresh.h;
      space = spaceOf(refresh);
    }
  }
  if (handle !== null) await emulated.storeOf(space).revoke(handle);
  return Response.json({ revoked: true });
}
