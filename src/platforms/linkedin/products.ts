// Which LinkedIn products the service's LinkedIn app has, from LINKEDIN_PRODUCTS (docs/platforms.md ›
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
//   r_organization_social, rw_organization_admin) and member post analytics (r_member_postAnalytics).

export type LinkedInProducts = "member" | "community_management";

export const PRODUCTS_VARIABLE = "LINKEDIN_PRODUCTS";

/** The configured products: `community_management` when the variable says so, else `member`. */
export function linkedinProducts(env: unknown): LinkedInProducts {
  const value = ((env ?? {}) as Record<string, unknown>)[PRODUCTS_VARIABLE];
  return typeof value === "string" && value.trim().toLowerCase() === "community_management"
    ? "community_management"
    : "member";
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
        "r_member_postAnalytics",
      ],
    },
  };

/**
 * Every scope the app's products grant (what LinkedIn would let a consent ask for): Sign In with
 * LinkedIn using OpenID Connect (openid, profile, email) with Share on LinkedIn (w_member_social); or
 * the Community Management API's own (its Development tier's list).
 */
export const GRANTABLE: Record<LinkedInProducts, ReadonlySet<string>> = {
  member: new Set(["openid", "profile", "email", "w_member_social"]),
  community_management: new Set([
    "r_basicprofile",
    "w_member_social",
    "w_member_social_feed",
    "r_member_postAnalytics",
    "r_member_profileAnalytics",
    "r_1st_connections_size",
    "r_organization_admin",
    "rw_organization_admin",
    "r_organization_social",
    "w_organization_social",
    "r_organization_social_feed",
    "w_organization_social_feed",
    "r_organization_followers",
  ]),
};

/** The identity endpoint each configuration reads: OpenID userinfo, or the basic profile. */
export const IDENTITY: Record<LinkedInProducts, string> = {
  member: "https://api.linkedin.com/v2/userinfo",
  community_management: "https://api.linkedin.com/v2/me",
};
