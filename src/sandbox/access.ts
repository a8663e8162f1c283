// Who a sandbox request acts for: the platform in its path, and the handle its access token was sealed
// for. Tokens come from the sandbox's OAuth flow, or are minted by the sandbox adapter for accounts the
// operator created without tokens (src/platforms/sandbox/access.ts); either way every route authenticates
// the handle like a platform, and refuses a token past its expiry.
import type { Platform } from "../db/enums";
import { routeNotFound } from "../http/errors";
import { isPlatform, SPECS } from "../platforms/catalog";
import { isGrant, TOKEN_PURPOSE, unseal } from "../platforms/sandbox/seal";
import type { PlatformSpec } from "../platforms/types";

/** The spec of the platform named in a path; a platform the sandbox does not fake is a 404. */
export function platformOf(name: string | undefined): PlatformSpec {
  if (!name || !isPlatform(name)) throw routeNotFound();
  return SPECS[name];
}

export type TokenCheck = { kind: "ok"; handle: string } | { kind: "invalid" } | { kind: "expired" };

/** Whether `token` is a live access token of `platform`, and for which handle. */
export async function checkToken(
  env: Pick<Env, "ENCRYPTION_KEY">,
  platform: Platform,
  token: string | null | undefined,
  now = Date.now(),
): Promise<TokenCheck> {
  const payload = await unseal<unknown>(env, TOKEN_PURPOSE, token);
  if (!isGrant(payload) || payload.p !== platform) return { kind: "invalid" };
  return payload.e <= now ? { kind: "expired" } : { kind: "ok", handle: payload.h };
}

/** What a refused token's 401 says. */
export const tokenRefusal = (check: TokenCheck) =>
  check.kind === "expired" ? "The access token has expired." : "The access token is invalid.";
