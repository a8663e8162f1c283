// The cron's token keep-alive: an account nobody publishes with still has its tokens refreshed ahead of
// their end, by its platform's own rule (`keepAlive` in the platform's definition: Meta's 60-day tokens
// at half their life, X's, TikTok's and Google's refresh tokens monthly, …), so an idle account stays
// connected. Each run picks, per shard, at most KEEP_ALIVE_LIMIT connected accounts (not disconnected,
// not marked expired, with a refresh token) whose rule is due, the longest overdue first, and refreshes
// each through the same serialised path as a publish (refreshSerialised: the account's Coordinator, the
// rule checked again there, so an overlapping run or a publish that refreshed meanwhile leaves it be).
// A refresh refused for good marks the account `reauth_required` there (markExpired, its
// `account.expired` once); a transient failure records `last_error` and the account is due again on
// the next run.
import { and, asc, eq, lte, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import type { Platform } from "../db/enums";
import { accounts, LAST_REFRESH_OR_CONNECTION, REFRESHABLE } from "../db/schema";
import { eachShard } from "../db/shards";
import { SPECS } from "../platforms/catalog";
import { platformClockMs } from "../platforms/clock";
import type { KeepAlive } from "../platforms/define";
import { type RefreshResult, refreshSerialised } from "./tokens";

/** At most this many accounts are refreshed per shard per cron run. */
export const KEEP_ALIVE_LIMIT = 50;
/** Refreshes in flight at once per shard. */
const CONCURRENCY = 5;

export type KeepAliveOutcome = { accountId: number; result: RefreshResult["kind"] };

/** The platforms with a rule, and the rule. */
const RULES = Object.entries(SPECS).flatMap(([platform, definition]) =>
  definition.keepAlive ? [[platform as Platform, definition.keepAlive] as const] : [],
);

/**
 * The column a rule counts from, and its offset: the account is due at column + offset (ms), which is
 * keepAliveDueAt (tokens.ts) over the columns. The column is the one its index orders by.
 */
function dueFrom(env: Env, rule: KeepAlive): { column: SQL; offset: number } {
  if ("beforeExpiry" in rule)
    return { column: sql`${accounts.tokenExpiresAt}`, offset: -platformClockMs(env, rule.beforeExpiry) };
  return {
    column: sql.raw(LAST_REFRESH_OR_CONNECTION),
    offset: platformClockMs(env, rule.every),
  };
}

/**
 * The ids of at most `limit` accounts due a keep-alive refresh at `now`, the longest overdue first. One
 * statement per platform with a rule, in one batch, each walking its partial index
 * (`accounts_keep_alive_*_idx`: the platform, then the rule's column) up to now and at most `limit`
 * entries: the rows read are those due, whatever the number of accounts.
 */
export async function dueAccounts(
  env: Env,
  db: Database,
  now: number,
  limit = KEEP_ALIVE_LIMIT,
): Promise<number[]> {
  const [first, ...rest] = RULES.map(([platform, rule]) => {
    const { column, offset } = dueFrom(env, rule);
    return db
      .select({ id: accounts.id, due: sql<number>`${column} + ${offset}`.mapWith(Number) })
      .from(accounts)
      .where(
        and(
          eq(accounts.platform, platform),
          // The partial indexes' WHERE, term for term, so the planner can use them.
          sql.raw(REFRESHABLE),
          lte(column, now - offset),
        ),
      )
      .orderBy(asc(column), asc(accounts.id))
      .limit(limit);
  });
  if (!first) return [];
  const perPlatform = await db.batch([first, ...rest]);
  return perPlatform
    .flat()
    .sort((a, b) => a.due - b.due || a.id - b.id)
    .slice(0, limit)
    .map((row) => row.id);
}

/** Refreshes the due accounts of every shard; answers what became of each. */
export async function keepTokensAlive(
  env: Env,
  now: Date,
  limit = KEEP_ALIVE_LIMIT,
): Promise<KeepAliveOutcome[]> {
  const perShard = await eachShard(env, async (db) => {
    const ids = await dueAccounts(env, db, now.getTime(), limit);
    const outcomes: KeepAliveOutcome[] = [];
    for (let start = 0; start < ids.length; start += CONCURRENCY) {
      const settled = await Promise.allSettled(
        ids
          .slice(start, start + CONCURRENCY)
          .map((id) => refreshSerialised(env, id, null, { keepAlive: true })),
      );
      settled.forEach((answer, i) => {
        const accountId = ids[start + i]!;
        // An error thrown on the way (the Coordinator unreachable) is the next run's to retry.
        if (answer.status === "rejected")
          console.error(JSON.stringify({ keepAlive: accountId, error: String(answer.reason) }));
        outcomes.push({ accountId, result: answer.status === "fulfilled" ? answer.value.kind : "failed" });
      });
    }
    return outcomes;
  });
  return perShard.flat();
}
