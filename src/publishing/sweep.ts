// The cron's safety net (every minute in production; `wrangler dev` never fires it, which is why
// wake-ups are delayed messages): it claims scheduled posts whose wake-up was missed, and re-drives
// every post left PUBLISHING without progress past a deadline, rows with no lease (from before the
// engine) included. Re-driving sends the same `{post_id}` message a publish sends, so the same lease
// claim decides who publishes; each stuck row or post is marked, so it is re-driven once per deadline.
import { and, eq, inArray, lte, notExists, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { postPlatforms, posts } from "../db/schema";
import { eachShard } from "../db/shards";
import { claimDuePosts } from "./claim";
import { leaseFree } from "./lease";
import { enqueuePublish } from "./messages";

/** A post due this long ago whose wake-up has not claimed it yet is taken by the sweep. */
export const WAKE_UP_GRACE_MS = 30_000;
/** A PUBLISHING row with no progress (an attempt started, an outcome recorded) for this long is stuck. */
export const STUCK_AFTER_MS = 10 * 60_000;

/** Every shard, concurrently: a shard is swept like the one database it is. */
export async function sweepPublishing(env: Env, now: Date): Promise<void> {
  await eachShard(env, async (db) => {
    await claimDuePosts(db, env.PUBLISH_QUEUE, new Date(now.getTime() - WAKE_UP_GRACE_MS));
    await redriveStuck(db, env.PUBLISH_QUEUE, now.getTime());
  });
}

/** Re-drives stuck posts; answers their ids. */
export async function redriveStuck(db: Database, queue: Queue, now: number): Promise<number[]> {
  const at = new Date(now);
  const before = new Date(now - STUCK_AFTER_MS);
  const publishingRows = db
    .select({ one: sql`1` })
    .from(postPlatforms)
    .where(and(eq(postPlatforms.postId, posts.id), eq(postPlatforms.status, "PUBLISHING")));
  const [rows, bare] = await db.batch([
    db
      .update(postPlatforms)
      .set({ updatedAt: at })
      .where(
        and(
          eq(postPlatforms.status, "PUBLISHING"),
          lte(postPlatforms.updatedAt, before),
          leaseFree(now),
          inArray(
            postPlatforms.postId,
            db.select({ id: posts.id }).from(posts).where(eq(posts.status, "PUBLISHING")),
          ),
        ),
      )
      .returning({ postId: postPlatforms.postId }),
    // A post PUBLISHING with no row publishing only needs its status settled.
    db
      .update(posts)
      .set({ updatedAt: at })
      .where(and(eq(posts.status, "PUBLISHING"), lte(posts.updatedAt, before), notExists(publishingRows)))
      .returning({ id: posts.id }),
  ]);
  const ids = [...new Set([...rows.map((r) => r.postId), ...bare.map((p) => p.id)])];
  await enqueuePublish(queue, ids);
  return ids;
}
