// The cron's scheduled refresh of published rows' analytics and comments (the sync reads both), every
// minute. A row is due when its last sync is older than an interval that follows the age of its
// publication (its last `posted_on`):
//   - first day: every 15 minutes (engagement and comments move fast);
//   - then daily, until the post is 30 days old;
//   - then never: an on-demand sync (POST /api/v1/analytics/posts/{id}/sync) or a platform's push
//     (src/platform-webhooks) still reads it.
// Only rows whose post's owner has an active, trialing or grace-period subscription are refreshed.
//
// Due rows are read through `post_platforms_sync_idx`, an index on `sync_due_at`: the instant each row is
// next due, which SQLite computes from the row's columns (src/db/tables/posts.ts), so a run walks the
// rows due by now, oldest due first, and nothing else, whatever the number of published rows. One batch
// per shard and run, two conditional UPDATE … RETURNING:
// - the claim: at most REFRESH_LIMIT due rows (whose owner's subscription syncs, or awaiting their
//   public id) get `analytics_synced_at` = now, so an overlapping run, or the next one while the jobs
//   wait in the queue, does not enqueue them again (the consumer sets it again once synced; a job that
//   fails for good, or a send that fails, leaves the row to its next interval);
// - the pass-over: of the next PASS_OVER_WINDOW due rows, those whose owner's subscription does not
//   sync get `sync_skipped_at` = now and wait their interval, as if synced, instead of being walked
//   over by every run (a lapsed owner's rows are refreshed again at their next interval after the
//   subscription syncs again).
// The oldest due first, so a backlog drains in order and nothing starves.
import { and, asc, eq, exists, inArray, lte, not, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { postPlatforms, posts, SYNC_TIERS, subscriptions } from "../db/schema";
import { eachShard } from "../db/shards";
import { catalogLifetime, insightsOver, type LifetimeOf } from "./lifetime";
import { enqueueSync } from "./messages";
import { SYNCING_SUBSCRIPTIONS } from "./queries";

/** [age of the publication below which, interval between syncs]; older posts are not refreshed. */
export const REFRESH_TIERS = SYNC_TIERS;

/** At most this many rows are enqueued per cron run (one sendBatch). */
export const REFRESH_LIMIT = 100;
/** Of at most this many due rows per run, those of lapsed owners are passed over. */
export const PASS_OVER_WINDOW = 1000;

/**
 * The interval a row is refreshed at, by the age of its publication in ms (`sync_due_at`, in JS); null
 * past the last tier: not refreshed by the cron.
 */
export const refreshInterval = (age: number): number | null =>
  REFRESH_TIERS.find(([below]) => age < below)?.[1] ?? null;

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
  const at = new Date(now);
  const [claimed] = await db.batch([
    db
      .update(postPlatforms)
      .set({ analyticsSyncedAt: at })
      .where(inArray(postPlatforms.id, dueRows(db, now, limit)))
      .returning({
        id: postPlatforms.id,
        platform: postPlatforms.platform,
        settings: postPlatforms.settings,
        postedOn: postPlatforms.postedOn,
        updatedAt: postPlatforms.updatedAt,
        awaitingPublicId: postPlatforms.awaitingPublicId,
      }),
    db
      .update(postPlatforms)
      .set({ syncSkippedAt: at })
      .where(
        and(
          inArray(
            postPlatforms.id,
            db
              .select({ id: postPlatforms.id })
              .from(postPlatforms)
              .where(lte(postPlatforms.syncDueAt, now))
              .orderBy(asc(postPlatforms.syncDueAt), asc(postPlatforms.id))
              .limit(Math.max(limit, PASS_OVER_WINDOW)),
          ),
          not(syncs(db)),
        ),
      ),
  ]);
  return claimed
    .filter((row) => row.awaitingPublicId || !insightsOver(env, lifetimeOf(row.platform), row, now))
    .map((row) => row.id)
    .sort((a, b) => a - b);
}

/**
 * Whether the row is refreshed: its post's owner's subscription syncs, or it awaits its public id (the
 * cron's claim and a platform's push, src/platform-webhooks).
 */
export function syncs(db: Database): SQL {
  // Correlated, so each candidate row costs two key lookups, not a list of every post.
  const ownerSubscribed = exists(
    db
      .select({ one: sql`1` })
      .from(posts)
      .innerJoin(subscriptions, eq(subscriptions.userId, posts.userId))
      .where(and(eq(posts.id, postPlatforms.postId), inArray(subscriptions.status, SYNCING_SUBSCRIPTIONS))),
  );
  // A row awaiting its public id is read whatever the owner's plan: the follow-up is publishing's.
  return sql`(${eq(postPlatforms.awaitingPublicId, true)} OR ${ownerSubscribed})`;
}

/** `SELECT id` of at most `limit` due rows that are refreshed, the oldest due first. */
export function dueRows(db: Database, now: number, limit: number) {
  return (
    db
      .select({ id: postPlatforms.id })
      .from(postPlatforms)
      // On the index: `sync_due_at` is null for a row that is not refreshed (not PUBLISHED, no platform post).
      .where(and(lte(postPlatforms.syncDueAt, now), syncs(db)))
      .orderBy(asc(postPlatforms.syncDueAt), asc(postPlatforms.id))
      .limit(limit)
  );
}
