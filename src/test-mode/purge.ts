// Test data is kept 90 days (ARCHITECTURE "Test mode"): the cron deletes, in test workspaces only, posts
// created more than 90 days ago (their platform rows, analytics, labels, media links and comments go with
// them, by the schema's cascades), media items created more than 90 days ago that no remaining post uses
// (their R2 objects too), and webhook events older than that (their deliveries cascade). Live workspaces
// are never read for it. Each shard deletes at most PURGE_LIMIT of each kind per run, oldest first, so a
// backlog drains over a few runs; running again deletes nothing twice.
import { and, asc, eq, inArray, lt, ne, notExists, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { media, postMedia, posts, webhookEvents, workspaces } from "../db/schema";
import { eachShard } from "../db/shards";

export const TEST_DATA_RETENTION_MS = 90 * 24 * 3_600_000;

/** Rows of each kind a shard deletes per run at most. */
export const PURGE_LIMIT = 200;

/**
 * The purge runs once an hour (the cron runs every minute): finding nothing to purge reads every test
 * post's row, which is not worth doing each minute for data that only has to go within days.
 */
export const isPurgeMinute = (now: Date) => now.getUTCMinutes() === 0;

const inTestWorkspace = (db: Database, column: SQLiteColumn) =>
  inArray(column, db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.mode, "test")));

/** The ids of up to PURGE_LIMIT rows of `table` matching `where`, oldest (lowest id) first. */
const oldest = (
  db: Database,
  table: typeof posts | typeof media | typeof webhookEvents,
  where: SQL | undefined,
) => db.select({ id: table.id }).from(table).where(where).orderBy(asc(table.id)).limit(PURGE_LIMIT);

export async function purgeTestData(env: Env, now: Date): Promise<void> {
  const before = new Date(now.getTime() - TEST_DATA_RETENTION_MS);
  await eachShard(env, async (db) => {
    const unused = notExists(
      db.select({ id: postMedia.mediaId }).from(postMedia).where(eq(postMedia.mediaId, media.id)),
    );
    const [, , gone] = await db.batch([
      // A post being published is left to finish; it goes on a later run.
      db
        .delete(posts)
        .where(
          inArray(
            posts.id,
            oldest(
              db,
              posts,
              and(
                inTestWorkspace(db, posts.workspaceId),
                lt(posts.createdAt, before),
                ne(posts.status, "PUBLISHING"),
              ),
            ),
          ),
        ),
      db
        .delete(webhookEvents)
        .where(
          inArray(
            webhookEvents.id,
            oldest(
              db,
              webhookEvents,
              and(inTestWorkspace(db, webhookEvents.workspaceId), lt(webhookEvents.createdAt, before)),
            ),
          ),
        ),
      // After the posts: media only they used go in the same run. The row goes first (checked unused in the
      // same statement), then its object.
      db
        .delete(media)
        .where(
          inArray(
            media.id,
            oldest(
              db,
              media,
              and(inTestWorkspace(db, media.workspaceId), lt(media.createdAt, before), unused),
            ),
          ),
        )
        .returning({ r2Key: media.r2Key }),
    ]);
    if (gone.length > 0) await env.MEDIA.delete(gone.map((item) => item.r2Key));
  });
}
