// Access tokens for the sandbox, sealed as its token endpoint issues them: the session route mints a
// short-lived one for each call the sandbox adapter makes for an account the operator created without
// tokens (account-routes.ts), and the sandbox's channels carry Page tokens of their own. The sandbox's
// routes check them (access.ts).
import type { Platform } from "../db/enums";
import { sandboxClient } from "../platforms/sandbox/credentials";
import { seal, TOKEN_PURPOSE, type TokenPayload } from "../platforms/sandbox/seal";

/**
 * The session route's refusal once the handle's user removed the app; the sandbox adapter reports it as
 * the platform's revoked grant (src/accounts/tokens.ts TOKEN_REVOKED, the same word).
 */
export const SESSION_REVOKED = "token_revoked";

/** Tokens minted for tokenless accounts live this long: one per call, never stored. */
export const MINTED_TOKEN_TTL_MS = 5 * 60_000;

/** An access token for `handle` on `platform`, as the sandbox's token endpoint issues them. */
export const mintToken = (
  env: Pick<Env, "ENCRYPTION_KEY">,
  platform: Platform,
  handle: string,
  ttlMs = MINTED_TOKEN_TTL_MS,
  clientId = sandboxClient(platform).clientId,
  now = Date.now(),
  /** The scopes granted; absent: every scope (a tokenless account's token). */
  scopes?: readonly string[],
  /** The user's space of the identity (src/platforms/sandbox/owner.ts); null: the shared one. */
  space: string | null = null,
) =>
  seal(env, TOKEN_PURPOSE, {
    p: platform,
    h: handle,
    k: clientId,
    e: now + ttlMs,
    i: now,
    ...(scopes ? { s: [...scopes] } : {}),
    ...(space ? { o: space } : {}),
  } satisfies TokenPayload);
