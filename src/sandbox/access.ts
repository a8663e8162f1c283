// Who a sandbox request acts for: the platform in its path, and the handle its access token was sealed
// for. Tokens come from the sandbox's OAuth flow, or are minted by the sandbox adapter for accounts the
// operator created without tokens (mint.ts, the session route); either way every route authenticates
// the handle like a platform, and refuses a token past its expiry.
import type { Platform } from "../db/enums";
import { isGrant, spaceOf, TOKEN_PURPOSE, type TokenPayload, unseal } from "../platforms/sandbox/seal";
import { revokedSince } from "./grants";

export type TokenCheck =
  | {
      kind: "ok";
      handle: string;
      /** When it was issued and when it expires (Unix ms), and whether it is a long-lived one (Meta). */
      issuedAt: number;
      expiresAt: number;
      longLived: boolean;
      clientId: string;
      /** The scopes the user granted; null: every scope (a token minted for a tokenless account). */
      scopes: readonly string[] | null;
      /** The user's space the identity lives in; null: the shared one (src/platforms/sandbox/owner.ts). */
      space: string | null;
    }
  | { kind: "invalid" }
  | { kind: "expired" }
  | { kind: "revoked" };

/**
 * The platform's store for a space (src/platforms/sandbox/owner.ts): one SandboxStore instance per
 * platform and space, so one user's ledger, counters and revocations never meet another's.
 */
export const sandboxStore = (
  env: Pick<Env, "SANDBOX_STORE">,
  platform: Platform,
  space: string | null | undefined,
) => env.SANDBOX_STORE.getByName(space ? `${platform}:${space}` : platform);

/**
 * Whether `token` is a live access token of `platform`, and for which handle: sealed by the sandbox, not
 * expired, and not issued before its user removed the app (POST …/accounts/{handle}/revoke).
 */
export async function checkToken(
  env: Pick<Env, "ENCRYPTION_KEY" | "SANDBOX_STORE">,
  platform: Platform,
  token: string | null | undefined,
  now = Date.now(),
): Promise<TokenCheck> {
  const payload = await unseal<unknown>(env, TOKEN_PURPOSE, token);
  if (!isGrant(payload) || payload.p !== platform) return { kind: "invalid" };
  if (payload.e <= now) return { kind: "expired" };
  const sealed = payload as TokenPayload;
  const space = spaceOf(sealed);
  const revoked = await sandboxStore(env, platform, space).revokedAt(payload.h);
  if (revokedSince(sealed.i, revoked)) return { kind: "revoked" };
  return {
    kind: "ok",
    handle: payload.h,
    issuedAt: sealed.i ?? 0,
    expiresAt: payload.e,
    longLived: sealed.l === true,
    clientId: payload.k,
    scopes: Array.isArray(sealed.s) ? sealed.s : null,
    space,
  };
}

/** What a refused token's 401 says. */
export const tokenRefusal = (check: TokenCheck) =>
  check.kind === "expired"
    ? "The access token has expired."
    : check.kind === "revoked"
      ? "The user has revoked the application's access."
      : "The access token is invalid.";
