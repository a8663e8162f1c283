// The LinkedIn emulator's OAuth: its token and identity facts (`linkedinShape`), the authorize request
// checked against the products the app has before the sandbox's generic consent page is shown, OpenID
// userinfo, the basic profile a Community Management app reads its member from, and token revocation.
// Which product grants which scope is stated here from LinkedIn's pages, not taken from the adapter
// (test/platforms/linkedin/connect.unit.test.ts checks the adapter's scopes against this table).
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { timingSafeEqualText } from "../../lib/crypto";
import { publicOrigin } from "../../lib/origin";
import { letters } from "../../platforms/sandbox/ids";
import { checkToken } from "../access";
import { backTo, readAuthorizeRequest } from "../consent";
import type { Emulated } from "../emulator";
import { oauthError } from "../oauth-error";
import type { SandboxShape } from "../shapes";
import { platformOf } from "../shapes";

type Ctx = Context<BareEnv>;

export type Products = "member" | "community_management";

/**
 * The scopes each product set grants an app (what a consent may ask for): Sign In with LinkedIn using
 * OpenID Connect (openid, profile, email) with Share on LinkedIn (w_member_social); or the Community
 * Management API (learn.microsoft.com › LinkedIn › Marketing › Community Management API Migration:
 * rw_organization_admin; w_organization_social, r_organization_social, w_member_social; the basic
 * profile r_basicprofile and the rest of its Development tier's list). r_member_postAnalytics is on no
 * product page: it is granted only where the app says it has it (LINKEDIN_MEMBER_ANALYTICS=true).
 */
export const GRANTED: Record<Products, readonly string[]> = {
  member: ["openid", "profile", "email", "w_member_social"],
  community_management: [
    "r_basicprofile",
    "w_member_social",
    "w_member_social_feed",
    "r_member_profileAnalytics",
    "r_1st_connections_size",
    "r_organization_admin",
    "rw_organization_admin",
    "r_organization_social",
    "w_organization_social",
    "r_organization_social_feed",
    "w_organization_social_feed",
    "r_organization_followers",
  ],
};
export const MEMBER_ANALYTICS = "r_member_postAnalytics";

const flag = (env: unknown, name: string) => {
  const value = ((env ?? {}) as Record<string, unknown>)[name];
  return typeof value === "string" ? value.trim().toLowerCase() : "";
};

/** The scopes the emulated app was granted, read from the worker's env as the operator set it up. */
export function grantedScopes(env: unknown): ReadonlySet<string> {
  const products: Products =
    flag(env, "LINKEDIN_PRODUCTS") === "community_management" ? "community_management" : "member";
  const analytics = products === "community_management" && flag(env, "LINKEDIN_MEMBER_ANALYTICS") === "true";
  return new Set([...GRANTED[products], ...(analytics ? [MEMBER_ANALYTICS] : [])]);
}

const DAY = 86_400;

/**
 * LinkedIn's tokens (learn.microsoft.com › LinkedIn › Shared › Authentication › Authorization Code Flow;
 * Programmatic Refresh Tokens): access tokens live 60 days (5183999 s), refresh tokens 365 days from the
 * consent, and a refresh answers the same refresh token with what is left of its life. Member ids are
 * 10 letters (OpenID `sub`); a declined consent comes back `user_cancelled_authorize`.
 */
export const linkedinShape: SandboxShape = {
  // The consent and token endpoints as LinkedIn › Authorization Code Flow (3-legged OAuth) names them.
  label: "LinkedIn",
  paths: { authorize: "/oauth/v2/authorization", token: "/oauth/v2/accessToken", identity: "/v2/userinfo" },
  clientIdParam: "client_id",
  pkce: false,
  denial: "user_cancelled_authorize",
  platformId: (digest) => letters(digest, 10),
  accessTtl: 5_183_999,
  refresh: { ttl: 365 * DAY, rotates: false },
  tokenResponse: (tokens) => ({
    access_token: tokens.accessToken,
    expires_in: tokens.expiresIn,
    ...(tokens.refreshToken === null
      ? {}
      : { refresh_token: tokens.refreshToken, refresh_token_expires_in: tokens.refreshExpiresIn }),
    scope: (tokens.scopes ?? GRANTED.member.filter((scope) => scope !== "email")).join(","),
    token_type: "Bearer",
  }),
  identityResponse: (id, handle) => ({
    sub: id,
    name: handle,
    given_name: handle,
    family_name: "",
    locale: { country: "US", language: "en" },
  }),
};

/**
 * A consent asking for a scope the app's products do not grant: LinkedIn sends the browser back to the
 * redirect_uri with `error=unauthorized_scope_error` and names the scope (learn.microsoft.com ›
 * LinkedIn › Shared › Authentication › Authorization Code Flow, "Failed Requests"). A request whose
 * client or redirect_uri is wrong is left to the consent page (which never redirects it).
 */
export function unauthorizedScope(c: Ctx): Response | null {
  const url = new URL(c.req.url);
  const request = readAuthorizeRequest(
    platformOf("linkedin"),
    url.searchParams,
    publicOrigin(c.env, c.req.url),
  );
  if (typeof request === "string") return null;
  const granted = grantedScopes(c.env);
  const asked = (url.searchParams.get("scope") ?? "").split(/[ ,]+/).filter(Boolean);
  const refused = asked.find((scope) => !granted.has(scope));
  if (refused === undefined) return null;
  return backTo(request.redirectUri, {
    error: "unauthorized_scope_error",
    error_description: `Scope "${refused}" is not authorized for your application`,
    state: request.state,
  });
}

/** Sign In with LinkedIn using OpenID Connect: the member's `sub`, name and locale. */
export async function userinfo(c: Ctx, e: Emulated) {
  const caller = await e.caller();
  return c.json(linkedinShape.identityResponse(caller.platformId, caller.handle));
}

/**
 * GET /v2/me with r_basicprofile (Profile API; Basic Profile Fields): the member's id (the same as
 * OpenID's `sub`), localized names and vanity name.
 */
export async function basicProfile(c: Ctx, e: Emulated) {
  const caller = await e.caller();
  return c.json({
    id: caller.platformId,
    localizedFirstName: caller.handle,
    localizedLastName: "",
    vanityName: caller.handle,
    firstName: { localized: { en_US: caller.handle }, preferredLocale: { country: "US", language: "en" } },
    lastName: { localized: { en_US: "" }, preferredLocale: { country: "US", language: "en" } },
  });
}

/**
 * POST /oauth/v2/revoke (client_id, client_secret, token): the token's grant ends (every token of the
 * member for this app, as LinkedIn's revocation does); an unknown or dead token is answered 200 too.
 */
export async function revoke(c: Ctx, e: Emulated) {
  const form = await e.form();
  const { clientId, clientSecret } = e.client;
  if (
    form.get("client_id") !== clientId ||
    !timingSafeEqualText(form.get("client_secret") ?? "", clientSecret)
  ) {
    return oauthError(401, "invalid_client", "Client authentication failed");
  }
  const token = form.get("token");
  if (!token) return oauthError(400, "invalid_request", 'A required parameter "token" is missing');
  const check = await checkToken(c.env, "linkedin", token);
  if (check.kind === "ok") await e.storeOf(check.space).revoke(check.handle);
  return c.body(null, 200);
}
