// The cron's scheduled refresh of published rows' analytics, every minute. A row is due when its last
// sync is older than an interval that grows with the age of its publication (its last `posted_on`):
//   - first day: every 15 minutes (engagement moves fast);
//   - first week: hourly;
//   - after that: daily, for as long as the post stays published.
// Only rows whose post's owner has an active, trialing or grace-period subscription are refreshed.
//
// One conditional UPDATE … RETURNING both picks and claims at most REFRESH_LIMIT due rows, oldest sync
// first: it sets `analytics_synced_at` to now, so an overlapping cron run, or the next one while the
// jobs wait in the queue, does not enqueue them again (the consumer sets it again once synced; a job
// that fails for good, or a send that fails, leaves the row to its next interval). The scan walks `post_platforms_sync_idx`
// (status, analytics_synced_at) from the oldest sync and stops after REFRESH_LIMIT due rows. Its cost:
// the age of a publication is not indexed, so when fewer rows are due than the limit, the walk reads
// the index entries of every published row (older posts synced within their interval are passed
// over); an indexed "next due" column would make it exact.
import { and, asc, eq, exists, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { postPlatforms, posts, subscriptions } from "../db/schema";
import { eachShard } from "../db/shards";
import { catalogLifetime, insightsOver, type LifetimeOf } from "./lifetime";
import { enqueueSync } from "./messages";
import { SYNCING_SUBSCRIPTIONS } from "./queries";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** [age of the publication below which, interval between syncs]; older posts sync daily. */
export const REFRESH_TIERS = [
  [DAY, 15 * MINUTE],
  [7 * DAY, HOUR],
] as const;
export const LATE_INTERVAL = DAY;
/** The shortest interval: no row synced more recently is ever due. */
const SHORTEST = REFRESH_TIERS[0][1];

/** At most this many rows are enqueued per cron run (one sendBatch). */
export const REFRESH_LIMIT = 100;

/** The interval a row is refreshed at, by the age of its publication in ms (the SQL below, in JS). */
export const refreshInterval = (age: number) =>
  REFRESH_TIERS.find(([below]) => age < below)?.[1] ?? LATE_INTERVAL;

/** Every shard claims its own due rows: up to REFRESH_LIMIT each per run. */
export async function refreshAnalytics(env: Env, now: Date): Promise<void> {
  await eachShard(env, async (db) =>
    enqueueSync(env.ANALYTICS_SYNC_QUEUE, await claimDueRows(db, now.getTime(), REFRESH_LIMIT, env)),
  );
}

/**
 * The due rows, claimed (their `analytics_synced_at` set to now), but for those past their platform's
 * insights lifetime (a story after its day): claimed too, so they wait their interval instead of filling
 * every run's limit, but not returned, so no job asks the platform for what it no longer gives.
 */
export async function claimDueRows(
  db: Database,
  now: number,
  limit = REFRESH_LIMIT,
  /** The platforms' clock (SANDBOX, SANDBOX_TIME_SCALE): real time unless given. */
  env: Parameters<typeof insightsOver>[0] = {},
  lifetimeOf: LifetimeOf = catalogLifetime,
): Promise<number[]> {
  const claimed = await db
    .update(postPlatforms)
    .set({ analyticsSyncedAt: new Date(now) })
    .where(inArray(postPlatforms.id, dueRows(db, now, limit)))
    .returning({
      id: postPlatforms.id,
      platform: postPlatforms.platform,
      settings: postPlatforms.settings,
      postedOn: postPlatforms.postedOn,
      updatedAt: postPlatforms.updatedAt,
      awaitingPublicId: postPlatforms.awaitingPublicId,
    });
  return claimed
    .filter((row) => row.awaitingPublicId || !insightsOver(env, lifetimeOf(row.platform), row, now))
    .map((row) => row.id)
    .sort((a, b) => a - b);
}

/** `SELECT id` of at most `limit` due rows, oldest sync first. */
export function dueRows(db: Database, now: number, limit: number) {
  const syncedAt = postPlatforms.analyticsSyncedAt;
  // The last publication of the row (a repeatable post is published several times).
  const publishedAt = sql`coalesce(json_extract(${postPlatforms.postedOn}, '$[#-1]'), ${postPlatforms.updatedAt})`;
  const age = sql`(${now} - ${publishedAt})`;
  const interval = sql`(CASE ${sql.join(
    REFRESH_TIERS.map(([below, every]) => sql`WHEN ${age} < ${below} THEN ${every}`),
    sql` `,
  )} ELSE ${LATE_INTERVAL} END)`;
  // Correlated, so each candidate row costs two primary-key lookups, not a list of every post.
  const ownerSubscribed = exists(
    db
      .select({ one: sql`1` })
      .from(posts)
      .innerJoin(subscriptions, eq(subscriptions.userId, posts.userId))
      .where(and(eq(posts.id, postPlatforms.postId), inArray(subscriptions.status, SYNCING_SUBSCRIPTIONS))),
  );
  return db
    .select({ id: postPlatforms.id })
    .from(postPlatforms)
    .where(
      and(
        // On the index: published, and (read from the index entry alone) not synced too recently.
        eq(postPlatforms.status, "PUBLISHED"),
        or(isNull(syncedAt), lt(syncedAt, new Date(now - SHORTEST))),
        isNotNull(postPlatforms.platformPostId),
        or(isNull(syncedAt), sql`${syncedAt} < ${now} - ${interval}`),
        // A row awaiting its public id is read whatever the owner's plan: the follow-up is publishing's.
        or(eq(postPlatforms.awaitingPublicId, true), ownerSubscribed),
      ),
    )
    .orderBy(asc(syncedAt), asc(postPlatforms.id))
    .limit(limit);
}
