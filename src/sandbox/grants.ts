// The sandbox's token endpoint rules, as a strict platform applies them: a code is spent on its first
// successful exchange and only redeems for the client, redirect URI (and PKCE verifier) it was issued
// for; access tokens expire after the platform's documented lifetime; refresh tokens are bound to their
// client and, where the platform rotates them (X, TikTok), spent on use.
import type { Platform } from "../db/enums";
import { pkceChallenge } from "../platforms/adapter";
import {
  CODE_PURPOSE,
  type CodePayload,
  grantId,
  isCode,
  isRefresh,
  REFRESH_PURPOSE,
  type RefreshPayload,
  seal,
  spaceOf,
  unseal,
} from "../platforms/sandbox/seal";
import { lifetimeMs } from "./clock";
import type { AuthorizeRequest } from "./consent";
import { mintToken } from "./mint";
import { type IssuedTokens, sandboxPlatformId, shapeOf } from "./shapes";

const CODE_TTL_MS = 10 * 60_000;

type SealEnv = Pick<Env, "ENCRYPTION_KEY"> & { SANDBOX_TIME_SCALE?: string };

/** Marks a code or refresh token id spent until `expiresAt`; true for the first caller only. */
export type Spend = (id: string, expiresAt: number) => Promise<boolean>;

/**
 * What the token endpoint asks the platform's store of a grant's space (src/platforms/sandbox/owner.ts;
 * null: the shared one): spending ids, revocations, the refresh counter.
 */
export type GrantLedger = (space: string | null) => {
  spend: Spend;
  /** When the account's user last removed the app, if ever. */
  revokedAt(handle: string): Promise<number | null>;
  /** Counts a token refresh of the account (its stats' `token_refreshes`). */
  refreshed(handle: string): Promise<void>;
};

/** Whether a token issued at `issuedAt` (undefined: before issue times were kept) was revoked since. */
export const revokedSince = (issuedAt: number | undefined, revoked: number | null) =>
  revoked !== null && (issuedAt ?? 0) <= revoked;

export type GrantResult =
  | { ok: true; body: object }
  | { ok: false; status: 400; error: string; description: string };

const refused = (error: string, description: string): GrantResult => ({
  ok: false,
  status: 400,
  error,
  description,
});

/** The authorization code the consent step hands back for `handle`. */
export const issueCode = (
  env: SealEnv,
  platform: Platform,
  request: AuthorizeRequest,
  handle: string,
  /** The user's space the identity lives in (the consent URL's tag); null: the shared one. */
  space: string | null = null,
  now = Date.now(),
) =>
  seal(env, CODE_PURPOSE, {
    p: platform,
    h: handle,
    k: request.clientId,
    r: request.redirectUri,
    c: request.challenge,
    e: now + CODE_TTL_MS,
    n: grantId(),
    ...(request.scopes ? { s: request.scopes } : {}),
    ...(space ? { o: space } : {}),
  } satisfies CodePayload);

/** The refresh token an answer carries: a fresh one, or the one presented when the platform keeps it. */
type NextRefresh = "new" | { token: string; expiresAt: number };

/** The platform's token answer: a fresh access token, with a refresh token where it issues them. */
async function answer(
  env: SealEnv,
  platform: Platform,
  grant: IssuedTokens["grant"],
  handle: string,
  clientId: string,
  next: NextRefresh,
  now: number,
  scopes: string[] | undefined,
  space: string | null,
): Promise<object> {
  const shape = shapeOf(platform);
  // The documented lifetimes on the sandbox's clock (clock.ts); the answer says what it issued.
  const accessMs = lifetimeMs(env, shape.accessTtl);
  const tokens: IssuedTokens = {
    grant,
    accessToken: await mintToken(env, platform, handle, accessMs, clientId, now, scopes, space),
    expiresIn: Math.floor(accessMs / 1000),
    refreshToken: null,
    refreshExpiresIn: null,
    scopes: scopes ?? null,
  };
  if (shape.refresh && next === "new") {
    const refreshMs = lifetimeMs(env, shape.refresh.ttl);
    const payload: RefreshPayload = {
      p: platform,
      h: handle,
      k: clientId,
      e: now + refreshMs,
      n: grantId(),
      i: now,
      ...(scopes ? { s: scopes } : {}),
      ...(space ? { o: space } : {}),
    };
    tokens.refreshToken = await seal(env, REFRESH_PURPOSE, payload);
    tokens.refreshExpiresIn = Math.floor(refreshMs / 1000);
  } else if (shape.refresh && next !== "new") {
    tokens.refreshToken = next.token;
    tokens.refreshExpiresIn = Math.floor((next.expiresAt - now) / 1000);
  }
  return shape.tokenResponse(tokens, await sandboxPlatformId(platform, handle, space));
}

/** grant_type=authorization_code, for an authenticated client. */
export async function redeemCode(
  env: SealEnv,
  platform: Platform,
  clientId: string,
  params: URLSearchParams,
  ledger: GrantLedger,
  now = Date.now(),
): Promise<GrantResult> {
  const code = await unseal<unknown>(env, CODE_PURPOSE, params.get("code"));
  if (!isCode(code) || code.p !== platform || code.k !== clientId || code.e <= now) {
    return refused("invalid_grant", "The authorization code is invalid or expired.");
  }
  if (params.get("redirect_uri") !== code.r) {
    return refused("invalid_grant", "The redirect_uri does not match the authorization request.");
  }
  if (code.c !== null) {
    const verifier = params.get("code_verifier") ?? "";
    if (!verifier || (await pkceChallenge(verifier)) !== code.c) {
      return refused("invalid_grant", "The code_verifier does not match the code challenge.");
    }
  }
  const space = spaceOf(code);
  // Spent only once every check passed: a wrong attempt does not burn the code of the genuine client.
  if (!(await ledger(space).spend(`code:${code.n}`, code.e))) {
    return refused("invalid_grant", "The authorization code has already been used.");
  }
  if (code.h === "fail") {
    return refused("invalid_grant", 'Sandbox: the handle "fail" always fails the token exchange.');
  }
  return {
    ok: true,
    body: await answer(env, platform, "authorization_code", code.h, clientId, "new", now, code.s, space),
  };
}

/** grant_type=refresh_token, for an authenticated client of a platform that issues refresh tokens. */
export async function redeemRefresh(
  env: SealEnv,
  platform: Platform,
  clientId: string,
  params: URLSearchParams,
  ledger: GrantLedger,
  now = Date.now(),
): Promise<GrantResult> {
  const policy = shapeOf(platform).refresh;
  if (!policy) return refused("unsupported_grant_type", "This platform issues no refresh tokens.");
  const presented = params.get("refresh_token");
  if (!presented) return refused("invalid_request", "The refresh_token parameter is missing.");
  const token = await unseal<unknown>(env, REFRESH_PURPOSE, presented);
  if (!isRefresh(token) || token.p !== platform || token.k !== clientId || token.e <= now) {
    return refused("invalid_grant", "The refresh token is invalid or expired.");
  }
  const space = spaceOf(token);
  const store = ledger(space);
  if (revokedSince(token.i, await store.revokedAt(token.h))) {
    return refused("invalid_grant", "The user has revoked the application's access.");
  }
  if (policy.rotates && !(await store.spend(`refresh:${token.n}`, token.e))) {
    return refused("invalid_grant", "The refresh token has already been used.");
  }
  await store.refreshed(token.h);
  const next: NextRefresh = policy.rotates ? "new" : { token: presented, expiresAt: token.e };
  return {
    ok: true,
    body: await answer(env, platform, "refresh_token", token.h, clientId, next, now, token.s, space),
  };
}
