// The LinkedIn emulator's part of the OAuth flow: the authorize request is checked against the products
// the app has (LINKEDIN_PRODUCTS, src/platforms/linkedin/products.ts) before the sandbox's generic
// consent page is shown, and the basic profile a Community Management app reads its member from.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { publicOrigin } from "../../lib/origin";
import { GRANTABLE, linkedinProducts } from "../../platforms/linkedin/products";
import { platformOf } from "../access";
import { backTo, readAuthorizeRequest } from "../consent";
import type { Emulated } from "../emulator";

type Ctx = Context<BareEnv>;

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
  const granted = GRANTABLE[linkedinProducts(c.env)];
  const asked = (url.searchParams.get("scope") ?? "").split(/[ ,]+/).filter(Boolean);
  const refused = asked.find((scope) => !granted.has(scope));
  if (refused === undefined) return null;
  return backTo(request.redirectUri, {
    error: "unauthorized_scope_error",
    error_description: `Scope "${refused}" is not authorized for your application`,
    state: request.state,
  });
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
