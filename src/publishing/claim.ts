// The cron's half of publishing: claim every due scheduled post with one conditional UPDATE … RETURNING
// (so each is enqueued once, however often the cron overlaps) and hand the ids to the publish queue.
import { and, eq, inArray, lte } from "drizzle-orm";
import type { Database } from "../db/client";
import { postPlatforms, posts } from "../db/schema";
import { enqueuePublish } from "./messages";

export async function claimDuePosts(db: Database, queue: Queue, now: Date): Promise<number[]> {
  const due = and(eq(posts.status, "SCHEDULED"), lte(posts.scheduledAt, now));
  const [, claimed] = await db.batch([
    db
      .update(postPlatforms)
      .set({ status: "PUBLISHING", updatedAt: now })
      .where(
        and(
          eq(postPlatforms.status, "SCHEDULED"),
          inArray(postPlatforms.postId, db.select({ id: posts.id }).from(posts).where(due)),
        ),
      ),
    db.update(posts).set({ status: "PUBLISHING", updatedAt: now }).where(due).returning({ id: posts.id }),
  ]);
  const ids = claimed.map((row) => row.id);
  await enqueuePublish(queue, ids);
  return ids;
}
