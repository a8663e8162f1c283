// Who a sandbox request acts for: the platform in its path, and the handle its access token was sealed
// for. Tokens come from the sandbox's OAuth flow, or are minted by the sandbox adapter for accounts the
// operator created without tokens; either way every route authenticates the handle like a platform.
import type { Platform } from "../../db/enums";
import { routeNotFound } from "../../http/errors";
import { isPlatform, SPECS } from "../catalog";
import type { PlatformSpec } from "../types";
import { seal, TOKEN_PURPOSE, type TokenPayload, unseal } from "./seal";

/** The spec of the platform named in a path; a platform the sandbox does not fake is a 404. */
export function platformOf(name: string | undefined): PlatformSpec {
  if (!name || !isPlatform(name)) throw routeNotFound();
  return SPECS[name];
}

/** The handle a token of `platform` was issued for, else null (forged, or another platform's). */
export async function tokenHandle(
  env: Pick<Env, "ENCRYPTION_KEY">,
  platform: Platform,
  token: string | null | undefined,
): Promise<string | null> {
  const payload = await unseal<TokenPayload>(env, TOKEN_PURPOSE, token);
  return payload?.p === platform ? payload.h : null;
}

/** An access token for `handle` on `platform`, as the sandbox's token endpoint would issue it. */
export const mintToken = (env: Pick<Env, "ENCRYPTION_KEY">, platform: Platform, handle: string) =>
  seal(env, TOKEN_PURPOSE, { p: platform, h: handle } satisfies TokenPayload);
