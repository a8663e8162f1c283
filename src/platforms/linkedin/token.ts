// LinkedIn's OAuth specifics. Which LinkedIn products the service's LinkedIn app has, from LINKEDIN_PRODUCTS (docs/platforms.md ›
// LinkedIn › Registering the app). LinkedIn refuses a consent that asks for a scope the app's products
// do not grant (`error=unauthorized_scope_error`), and the Community Management API must be the only
// product on its app (learn.microsoft.com › LinkedIn › Marketing › Community Management › Overview and
// "Apply for API Access"; the exact wording is not verified, docs/platforms.md › Not verified), so the
// service is set up with one of two apps and asks only for that app's scopes:
// - `member` (default): Sign In with LinkedIn using OpenID Connect (openid, profile: identity from
//   /v2/userinfo) and Share on LinkedIn (w_member_social): the member posts as themself;
// - `community_management`: the Community Management API alone. Without OpenID Connect the member's
//   identity is the basic profile (r_basicprofile, GET /v2/me); w_member_social is part of the product, so
//   the member's profile is a channel beside the pages they administer (w_organization_social,
//   r_organization_social, rw_organization_admin). Member post analytics (r_member_postAnalytics) only
//   where LINKEDIN_MEMBER_ANALYTICS=true says the app was granted it: no LinkedIn page shows the product
//   grants it, and one scope the app lacks makes LinkedIn refuse the whole consent.

import { flatIdentity, text } from "../adapter";
import type { AccountAuth, PublishingContext } from "../types";
import type { LinkedInApi } from "./api";

export type LinkedInProducts = "member" | "community_management";

export const PRODUCTS_VARIABLE = "LINKEDIN_PRODUCTS";

/** The configured products: `community_management` when the variable says so, else `member`. */
export function linkedinProducts(env: unknown): LinkedInProducts {
  const value = ((env ?? {}) as Record<string, unknown>)[PRODUCTS_VARIABLE];
  return typeof value === "string" && value.trim().toLowerCase() === "community_management"
    ? "community_management"
    : "member";
}

/** The app's configuration: its products, and whether it was granted member post analytics. */
export type LinkedInApp = { products: LinkedInProducts; memberAnalytics: boolean };

export const MEMBER_ANALYTICS_VARIABLE = "LINKEDIN_MEMBER_ANALYTICS";
export const MEMBER_ANALYTICS_SCOPE = "r_member_postAnalytics";

/** The configured app: LINKEDIN_PRODUCTS, and LINKEDIN_MEMBER_ANALYTICS=true on a Community Management app. */
export function linkedinApp(env: unknown): LinkedInApp {
  const products = linkedinProducts(env);
  const value = ((env ?? {}) as Record<string, unknown>)[MEMBER_ANALYTICS_VARIABLE];
  const asked = typeof value === "string" && value.trim().toLowerCase() === "true";
  return { products, memberAnalytics: asked && products === "community_management" };
}

/** What each configuration asks for: a delegation (identity only) and a connect (publishing). */
export const SCOPES: Record<LinkedInProducts, { delegation: readonly string[]; connect: readonly string[] }> =
  {
    member: { delegation: ["openid", "profile"], connect: ["openid", "profile", "w_member_social"] },
    community_management: {
      delegation: ["r_basicprofile"],
      connect: [
        "r_basicprofile",
        "w_member_social",
        "w_organization_social",
        "r_organization_social",
        "rw_organization_admin",
      ],
    },
  };

/** The scopes a connect of `app` asks for: its products', and member post analytics where granted. */
export const connectScopes = (app: LinkedInApp): readonly string[] =>
  app.memberAnalytics
    ? [...SCOPES[app.products].connect, MEMBER_ANALYTICS_SCOPE]
    : SCOPES[app.products].connect;

/** The identity endpoint each configuration reads: OpenID userinfo, or the basic profile. */
export const IDENTITY: Record<LinkedInProducts, string> = {
  member: "https://api.linkedin.com/v2/userinfo",
  community_management: "https://api.linkedin.com/v2/me",
};

const identityOf = flatIdentity("sub", "name");

/**
 * The member's identity from OpenID userinfo (`sub`, `name`, `picture`) or, on a Community Management
 * app, from the basic profile /v2/me (`id`, `localizedFirstName`, `localizedLastName`, `vanityName`):
 * the same member id either way (LinkedIn's OpenID `sub` is the person URN's id).
 */
export function parseIdentity(body: unknown, token: Parameters<typeof identityOf>[1]) {
  if (text(body, "sub")) {
    const identity = identityOf(body, token);
    if (!identity) return null;
    const name = text(body, "name");
    const picture = text(body, "picture");
    return { ...identity, ...(name ? { name } : {}), ...(picture ? { avatar: picture } : {}) };
  }
  const id = text(body, "id");
  if (!id || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const name = [text(body, "localizedFirstName"), text(body, "localizedLastName")]
    .filter((part): part is string => Boolean(part))
    .join(" ");
  // The vanity name is the member's public handle (linkedin.com/in/{vanityName}).
  const vanity = text(body, "vanityName");
  return { platform_id: id, handle: vanity || name || id, ...(name ? { name } : {}) };
}

/** The default app: Sign In with LinkedIn and Share on LinkedIn, no member analytics. */
export const MEMBER_APP: LinkedInApp = { products: "member", memberAnalytics: false };

/**
 * OAuth 2.0 token revocation (learn.microsoft.com › LinkedIn › Shared › Authentication › Token
 * Introspection and Revocation): the client credentials and the token, form-encoded, on the site host.
 */
export async function revoke(
  api: LinkedInApi,
  credentials: PublishingContext["credentials"],
  account: AccountAuth,
) {
  if (!account.accessToken) return;
  await api.form("token revocation", api.revokeUrl, {
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    token: account.accessToken,
  });
}
