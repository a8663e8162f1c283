// The emulator's OAuth facts and routes (developers.tiktok.com › Login Kit: Manage OAuth Access Tokens,
// Get User Info, Revoke a User Access Token): the shape of its token and identity answers for the
// sandbox's generic token endpoint, and TikTok's own user info and revocation routes.
import { timingSafeEqualText } from "../../lib/crypto";
import { toHex } from "../../lib/encoding";
import { checkToken } from "../access";
import { isProblem, readForm } from "../body";
import type { Emulated } from "../emulator";
import { oauthError } from "../oauth-error";
import type { SandboxShape } from "../shapes";
import { ok } from "./errors";
import { fieldsOf, pick } from "./read";

const DAY = 86_400;
/** The scopes this emulator grants a connect: the user's profile, Direct Post and the Display API. */
export const GRANTED_SCOPES = ["user.info.basic", "user.info.profile", "video.publish", "video.list"];

export const tiktokShape: SandboxShape = {
  // The consent and token endpoints as TikTok › Login Kit for Web names them.
  label: "TikTok",
  paths: { authorize: "/v2/auth/authorize/", token: "/v2/oauth/token/", identity: "/v2/user/info/" },
  clientIdParam: "client_key",
  pkce: false,
  denial: "access_denied",
  /** An open_id, as TikTok's examples write it: a UUID-like hex string. */
  platformId(digest) {
    const hex = toHex(digest);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  },
  // Manage OAuth Access Tokens › Token lifetimes: access tokens live 2 hours, refresh tokens 180 days;
  // Refresh a User Access Token: a refresh answers a new refresh token, and the old one stops working.
  accessTtl: 2 * 3600,
  refresh: { ttl: 180 * DAY, rotates: true },
  tokenResponse: (tokens, id) => ({
    access_token: tokens.accessToken,
    expires_in: tokens.expiresIn,
    open_id: id,
    ...(tokens.refreshToken === null
      ? {}
      : { refresh_token: tokens.refreshToken, refresh_expires_in: tokens.refreshExpiresIn }),
    scope: (tokens.scopes ?? GRANTED_SCOPES).join(","),
    token_type: "Bearer",
  }),
  identityResponse: (id, handle) => ({
    data: { user: { open_id: id, username: handle, display_name: handle } },
    error: { code: "ok", message: "", log_id: "sandbox" },
  }),
};

const USER_FIELDS = [
  "open_id",
  "union_id",
  "avatar_url",
  "avatar_url_100",
  "avatar_large_url",
  "display_name",
  "bio_description",
  "profile_deep_link",
  "is_verified",
  "username",
  "follower_count",
  "following_count",
  "likes_count",
  "video_count",
] as const;

/** Get User Info: the fields asked for, of the token's user. */
export async function userInfo(emulated: Emulated, fieldsParam: string | undefined) {
  const caller = await emulated.caller();
  const fields = fieldsOf(fieldsParam, USER_FIELDS);
  const videos = (await emulated.posts(caller.handle)).length;
  const user = {
    open_id: caller.platformId,
    union_id: caller.platformId,
    avatar_url: "",
    avatar_url_100: "",
    avatar_large_url: "",
    display_name: caller.handle,
    bio_description: "",
    profile_deep_link: `https://www.tiktok.com/@${encodeURIComponent(caller.handle)}`,
    is_verified: false,
    username: caller.handle,
    follower_count: 0,
    following_count: 0,
    likes_count: 0,
    video_count: videos,
  };
  return ok({ user: pick(user, fields) });
}

/** A form body, or TikTok's OAuth error for one it cannot read. */
async function readFormOrOAuthError(request: Request): Promise<URLSearchParams | Response> {
  const form = await readForm(request);
  if (isProblem(form))
    return oauthError(
      400,
      "invalid_request",
      form.kind === "too_large" ? "The request body is too large." : form.message,
    );
  return form;
}

/** Revoke a User Access Token: the app's credentials and the token, as a form; `{}` when done. */
export async function revoke(emulated: Emulated, request: Request) {
  const form = await readFormOrOAuthError(request);
  if (form instanceof Response) return form;
  const client = emulated.client;
  if (
    form.get("client_key") !== client.clientId ||
    !timingSafeEqualText(form.get("client_secret") ?? "", client.clientSecret)
  )
    return oauthError(401, "invalid_client", "Client authentication failed.");
  const token = form.get("token");
  if (!token) return oauthError(400, "invalid_request", "The token parameter is missing.");
  const check = await checkToken(emulated.env, "tiktok", token);
  if (check.kind === "invalid") return oauthError(400, "invalid_request", "The token is invalid.");
  // Already expired or revoked: nothing is left to revoke.
  if (check.kind === "ok") await emulated.storeOf(check.space).revoke(check.handle);
  return Response.json({});
}
