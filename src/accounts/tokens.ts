// An account's AccountAuth for background work (publishing, analytics sync): its stored access token,
// decrypted, refreshed first when it expires within five minutes. Refreshes run in the account's
// Coordinator (`account:<id>`), one at a time, so a platform that rotates refresh tokens (X, TikTok)
// never sees two refreshes of one token. A refresh the platform refuses for good marks the account
// expired (`expired_at`) until it is reconnected; a 401 on a token too young to be refreshed (Meta's first
// day: `refreshableAfter`) is passing, retried later. Each refresh leaves its trace for the account's
// health: a success sets `last_refreshed_at` and clears `last_error`; a failure records `last_error`.
// The cron's keep-alive (keep-alive.ts) refreshes idle accounts ahead of time through the same path.
import { and, eq, isNull } from "drizzle-orm";
import { accountCoordinator } from "../coordinator/names";
import type { Platform } from "../db/enums";
import { accounts } from "../db/schema";
import { shardDatabases } from "../db/shards";
import { announce } from "../events/announce";
import { recordAccountExpired } from "../events/record";
import { decryptSecret, encryptSecret } from "../lib/crypto";
import { publishingAdapter } from "../platforms";
import { SPECS } from "../platforms/catalog";
import { platformClockMs } from "../platforms/clock";
import type { KeepAlive, PlatformDefinition } from "../platforms/define";
import { type AccountAuth, type FailureKind, PlatformError, type PlatformToken } from "../platforms/types";

/** A token expiring sooner than this (seconds, on the platform's clock) is refreshed before it is used. */
export const REFRESH_MARGIN_SECONDS = 5 * 60;

/** What a caller knows of an account: enough to build its AccountAuth. */
export type AccountTokens = {
  accountId: number;
  username: string;
  platformUserId: string | null;
  accessTokenEnc: string | null;
  refreshTokenEnc: string | null;
  tokenExpiresAt: Date | null;
  expiredAt: Date | null;
};

/** What the Coordinator's refresh answers (plain data: errors do not keep their class over RPC). */
export type RefreshResult =
  | { kind: "ok"; accessToken: string | null }
  | { kind: "expired" }
  | { kind: "failed"; failure: FailureKind; code: string; message: string };

/** The last refresh failure kept on the account (its health's `last_error`). */
export type RefreshError = { code: string; message: string };

export const accountExpired = () =>
  new PlatformError("The account's authorization has expired; reconnect the account.", {
    kind: "permanent",
    code: "account_expired",
  });

/** Five minutes; on the sandbox's clock under SANDBOX=true, as its tokens' lifetimes are. */
const refreshMarginMs = (env: Env) => platformClockMs(env, REFRESH_MARGIN_SECONDS);

const needsRefresh = (env: Env, expiresAt: Date | null, refreshTokenEnc: string | null, now: number) =>
  refreshTokenEnc !== null && expiresAt !== null && expiresAt.getTime() - now < refreshMarginMs(env);

/** What a keep-alive rule reads of an account. */
export type KeepAliveState = {
  tokenExpiresAt: Date | null;
  lastRefreshedAt: Date | null;
  createdAt: Date;
};

/**
 * When the rule wants the account refreshed (ms), or null for never: `beforeExpiry` before the access
 * token's end, `every` after the last refresh (the connect before any). The sweep's SQL is the same rule.
 */
export function keepAliveDueAt(env: Env, rule: KeepAlive, account: KeepAliveState): number | null {
  if ("beforeExpiry" in rule)
    return account.tokenExpiresAt === null
      ? null
      : account.tokenExpiresAt.getTime() - platformClockMs(env, rule.beforeExpiry);
  return (account.lastRefreshedAt ?? account.createdAt).getTime() + platformClockMs(env, rule.every);
}

async function decryptToken(env: Env, encrypted: string): Promise<string> {
  try {
    return await decryptSecret(env.ENCRYPTION_KEY, encrypted);
  } catch {
    throw new PlatformError("The account's access token cannot be decrypted.", {
      kind: "auth",
      code: "token_unreadable",
    });
  }
}

/** refreshStoredToken in the account's Coordinator, one at a time with every other refresh of it. */
export async function refreshSerialised(
  env: Env,
  accountId: number,
  rejected: string | null,
  options: Pick<RefreshOptions, "keepAlive" | "revoked"> = {},
): Promise<RefreshResult> {
  const answer = await env.COORDINATOR.getByName(accountCoordinator(accountId)).exclusive(() =>
    refreshStoredToken(env, accountId, rejected, options),
  );
  // An answer to a call that was handed a function holds that function's stub until disposed.
  (answer as Partial<Disposable>)[Symbol.dispose]?.();
  // The stub's typing cannot carry exclusive's type parameter through RPC; the answer is refreshStoredToken's.
  return answer as RefreshResult;
}

async function viaCoordinator(
  env: Env,
  accountId: number,
  rejected: string | null,
  revoked = false,
): Promise<string | null> {
  const result = await refreshSerialised(env, accountId, rejected, { revoked });
  if (result.kind === "ok") return result.accessToken;
  if (result.kind === "expired") throw accountExpired();
  throw new PlatformError(result.message, { kind: result.failure, code: result.code });
}

/**
 * The account's AccountAuth: no token for an account stored without one (the sandbox mints its own),
 * else its access token, refreshed first when it expires within five minutes.
 */
export async function accountAuth(env: Env, account: AccountTokens, now = Date.now()): Promise<AccountAuth> {
  const base = { handle: account.username, platformUserId: account.platformUserId };
  if (account.expiredAt) throw accountExpired();
  if (!account.accessTokenEnc) return { ...base, accessToken: null };
  const accessToken = needsRefresh(env, account.tokenExpiresAt, account.refreshTokenEnc, now)
    ? await viaCoordinator(env, account.accountId, null)
    : await decryptToken(env, account.accessTokenEnc);
  return { ...base, accessToken };
}

/**
 * Runs `call` with the account's auth; when the platform answers 401 (`auth`), refreshes once and runs it
 * once more. An account with nothing to refresh with (no refresh token: Facebook Pages, a token the
 * platform revoked) is marked for reconnection instead (`reauth_required`, `account.expired` once), and
 * the call fails as `account_expired`. `onAuth` sees the auth the last run used.
 */
export async function withFreshAuth<T>(
  env: Env,
  account: AccountTokens,
  auth: AccountAuth,
  call: (auth: AccountAuth) => Promise<T>,
  onAuth?: (auth: AccountAuth) => void,
): Promise<T> {
  onAuth?.(auth);
  try {
    return await call(auth);
  } catch (error) {
    if (!(error instanceof PlatformError) || error.kind !== "auth") throw error;
    // A token the sandbox minted for a tokenless account is nothing to refresh; only a revoked grant
    // (the sandbox's user removed the app) expires it.
    if (auth.accessToken === null && error.code !== TOKEN_REVOKED) throw error;
    const accessToken = await viaCoordinator(
      env,
      account.accountId,
      auth.accessToken,
      error.code === TOKEN_REVOKED,
    );
    const fresh = { ...auth, accessToken };
    onAuth?.(fresh);
    return call(fresh);
  }
}

export type RefreshOptions = {
  now?: number;
  /** The keep-alive's refresh: done only while the platform's keep-alive rule still wants it. */
  keepAlive?: boolean;
  /** The platform's refresh call (tests put a step before it); the platform's adapter's by default. */
  refresh?: (platform: Platform, refreshToken: string) => Promise<PlatformToken>;
  /**
   * The platform said the grant is gone for good (the user removed the app): not a passing refusal, even
   * on a token too young to be refreshed.
   */
  revoked?: boolean;
  /** The token rules of the account's platform (tests give a platform some); the catalog's by default. */
  rules?: Pick<PlatformDefinition, "keepAlive" | "refreshableAfter">;
};

/**
 * The code of an `auth` PlatformError by which the platform says the user removed the app (Meta's
 * subcodes 458 and 460): the account expires at once, whatever its token's age.
 */
export const TOKEN_REVOKED = "token_revoked";

/** The refusal of a token too young to be refreshed: passing, so the call is retried later. */
export const TOKEN_TOO_YOUNG = "token_refused_too_young";

const disconnected = (): RefreshResult => ({
  kind: "failed",
  failure: "permanent",
  code: "account_disconnected",
  message: "The account was disconnected.",
});

/**
 * Run while the account's Coordinator holds every other call back (its `exclusive`): re-reads the account,
 * refreshes only if still needed (its token expires within five minutes, or it is still the token the
 * platform rejected; for the keep-alive, its platform's rule still wants it), stores the new tokens
 * encrypted, unless the account was disconnected meanwhile, and answers the access token to use.
 */
export async function refreshStoredToken(
  env: Env,
  accountId: number,
  rejected: string | null,
  options: RefreshOptions = {},
): Promise<RefreshResult> {
  const now = options.now ?? Date.now();
  const db = shardDatabases(env).of(accountId);
  const [account] = await db
    .select({
      platform: accounts.platform,
      accessTokenEnc: accounts.accessTokenEnc,
      refreshTokenEnc: accounts.refreshTokenEnc,
      mode: accounts.mode,
      tokenExpiresAt: accounts.tokenExpiresAt,
      expiredAt: accounts.expiredAt,
      lastRefreshedAt: accounts.lastRefreshedAt,
      createdAt: accounts.createdAt,
      updatedAt: accounts.updatedAt,
      disconnectedAt: accounts.disconnectedAt,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account)
    return {
      kind: "failed",
      failure: "permanent",
      code: "account_missing",
      message: "The account no longer exists.",
    };
  if (account.disconnectedAt) return disconnected();
  if (account.expiredAt) return { kind: "expired" };
  // A tokenless account (the sandbox's demo data) has nothing to refresh; a revoked grant expires it below.
  if (!account.accessTokenEnc && options.revoked !== true) return { kind: "ok", accessToken: null };
  let current: string | null = null;
  try {
    if (account.accessTokenEnc) current = await decryptSecret(env.ENCRYPTION_KEY, account.accessTokenEnc);
  } catch {
    // Unreadable: refreshing is the only way to a usable token.
  }
  const rules = options.rules ?? SPECS[account.platform];
  const rule = rules.keepAlive;
  const keepAliveDue = (): boolean => {
    const due = rule ? keepAliveDueAt(env, rule, account) : null;
    return due !== null && due <= now;
  };
  const stillNeeded =
    current === null ||
    current === rejected ||
    needsRefresh(env, account.tokenExpiresAt, account.refreshTokenEnc, now) ||
    (options.keepAlive === true && account.refreshTokenEnc !== null && keepAliveDue());
  if (!stillNeeded) return { kind: "ok", accessToken: current };
  // Meta refuses to refresh a token less than a day old, and refuses a young token now and then in
  // passing: a 401 on such a token (the one stored, not yet refreshable) is not taken as final. It is
  // recorded and the call retried later; once the token is refreshable, a refusal refreshes it, and a
  // refused refresh (or nothing to refresh with) expires the account as on any platform. The token's
  // age is its account's `updated_at`: written only with its tokens (connect, reconnect, refresh,
  // disconnect).
  const tooYoung =
    rules.refreshableAfter !== undefined &&
    options.revoked !== true &&
    current !== null &&
    current === rejected &&
    now - account.updatedAt.getTime() < platformClockMs(env, rules.refreshableAfter);
  if (tooYoung) {
    const message =
      "The platform refused the account's token, which it does not let be refreshed yet: retried later.";
    await db
      .update(accounts)
      .set({ lastError: { code: TOKEN_TOO_YOUNG, message } })
      .where(eq(accounts.id, accountId));
    return { kind: "failed", failure: "transient", code: TOKEN_TOO_YOUNG, message };
  }
  const markExpired = async (lastError: RefreshError): Promise<RefreshResult> => {
    // The mark and its account.expired event commit together; only the refresh that marked it records one.
    const [, , recorded] = await db.batch([
      db.update(accounts).set({ lastError }).where(eq(accounts.id, accountId)),
      // A disconnected account is not marked (a reconnect starts it afresh; no account.expired for it).
      db
        .update(accounts)
        .set({ expiredAt: new Date(now) })
        .where(and(eq(accounts.id, accountId), isNull(accounts.expiredAt), isNull(accounts.disconnectedAt))),
      recordAccountExpired(db, accountId, now),
    ]);
    await announce(env, recorded);
    return { kind: "expired" };
  };
  // Nothing to refresh with: a token the platform refused (the user removed the app, revoked it) or one
  // that cannot be read is only brought back by a reconnect.
  if (!account.refreshTokenEnc) {
    return markExpired(
      current === null && account.accessTokenEnc
        ? { code: "token_unreadable", message: "The account's access token cannot be used." }
        : {
            code: "token_rejected",
            message: "The platform no longer accepts the account's token: reconnect the account.",
          },
    );
  }
  let refreshToken: string;
  try {
    refreshToken = await decryptSecret(env.ENCRYPTION_KEY, account.refreshTokenEnc);
  } catch {
    // The refresh token cannot be decrypted: only a reconnect helps.
    return markExpired({
      code: "refresh_token_unreadable",
      message: "The account's refresh token cannot be decrypted.",
    });
  }
  let token: PlatformToken;
  try {
    token = options.refresh
      ? await options.refresh(account.platform, refreshToken)
      : await publishingAdapter(env, account.platform, account.mode).refreshToken(refreshToken);
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    // Refused for good (`invalid_grant`, a revoked grant): the account must be reconnected.
    const refused = error.kind === "permanent" || error.kind === "auth";
    const lastError = { code: error.code, message: error.message.slice(0, 500) };
    if (refused && error.code !== "platform_not_configured") return markExpired(lastError);
    // A refresh whose answer was lost may have been accepted; it is retried like any transient fault.
    // The failure is recorded (health's last_error) but the account stays usable.
    await db.update(accounts).set({ lastError }).where(eq(accounts.id, accountId));
    const failure = error.kind === "unknown_outcome" ? "transient" : error.kind;
    return { kind: "failed", failure, code: error.code, message: error.message };
  }
  const [accessTokenEnc, refreshTokenEnc] = await Promise.all([
    encryptSecret(env.ENCRYPTION_KEY, token.accessToken),
    // A platform that keeps its refresh tokens answers none (or the same one): keep the stored one.
    token.refreshToken ? encryptSecret(env.ENCRYPTION_KEY, token.refreshToken) : account.refreshTokenEnc,
  ]);
  // Never onto an account disconnected during the refresh: a disconnect deletes its tokens for good.
  const stored = await db
    .update(accounts)
    .set({
      accessTokenEnc,
      refreshTokenEnc,
      tokenExpiresAt: token.expiresIn ? new Date(now + token.expiresIn * 1000) : null,
      lastRefreshedAt: new Date(now),
      lastError: null,
      updatedAt: new Date(now),
    })
    .where(and(eq(accounts.id, accountId), isNull(accounts.disconnectedAt)))
    .returning({ id: accounts.id });
  if (stored.length === 0) return disconnected();
  return { kind: "ok", accessToken: token.accessToken };
}
