// A publish message that ran out of retries: the rows of its post still PUBLISHING fail with
// `retries_exhausted` (keeping the platform's last message), and the post takes its new status. Rows
// another attempt holds a live lease on are left to that attempt. A stale dead letter (a wake-up for an
// occurrence since rescheduled, a post deleted or settled) changes nothing.
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { postPlatforms } from "../db/schema";
import { leaseFree } from "./lease";
import { loadForPublishing } from "./load";
import type { PublishMessage } from "./messages";
import { settle } from "./post-status";

export async function failExhausted(db: Database, env: Env, body: PublishMessage, now: number) {
  const loaded = await loadForPublishing(db, body.post_id);
  if (loaded?.post.status !== "PUBLISHING") return;
  if (body.due !== undefined && loaded.post.scheduledAt?.getTime() !== body.due) return;
  const lastMessage = sql`coalesce(json_extract(${postPlatforms.error}, '$.message'), 'no answer')`;
  await settle(db, env, loaded.post, now, [
    db
      .update(postPlatforms)
      .set({
        status: "FAILED",
        error: sql`json_object('code', 'retries_exhausted', 'message', 'Publishing was retried until the retries ran out; the last error: ' || ${lastMessage})`,
        progress: null,
        attemptId: null,
        attemptStartedAt: null,
        updatedAt: new Date(now),
      })
      .where(
        and(eq(postPlatforms.postId, body.post_id), eq(postPlatforms.status, "PUBLISHING"), leaseFree(now)),
      ),
  ]);
}
