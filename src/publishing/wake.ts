// A wake-up `{post_id, due}` arriving: the post is claimed (post and rows → PUBLISHING, one conditional
// batch) only if it is still SCHEDULED at exactly `due` and `due` has come. A post rescheduled since
// (its `scheduled_at` is no longer `due`) or deleted makes the wake-up a no-op; one sent further ahead
// than Queues can delay is sent again for the rest of the wait.
import { and, eq, inArray, lte } from "drizzle-orm";
import type { Database } from "../db/client";
import { postPlatforms, posts } from "../db/schema";
import type { PublishDeps } from "./deps";
import { sendWakeUps } from "./messages";

/** A wake-up this close to its time waits in the consumer rather than going back to the queue. */
export const EARLY_WAIT_MS = 2000;

export type WakeResult =
  /** The post is PUBLISHING for this wake-up (claimed now, or earlier by the cron): publish its rows. */
  | "publish"
  /** Nothing to do: the post is gone, was rescheduled, or this occurrence is already settled. */
  | "stale"
  /** Sent again for the rest of the wait. */
  | "resent";

const scheduledFor = (postId: number, due: number) =>
  and(eq(posts.id, postId), eq(posts.status, "SCHEDULED"), eq(posts.scheduledAt, new Date(due)));

export async function claimWakeUp(
  db: Database,
  queue: Queue,
  deps: PublishDeps,
  postId: number,
  due: number,
): Promise<WakeResult> {
  let now = deps.now();
  const state = () =>
    db
      .select({ status: posts.status, scheduledAt: posts.scheduledAt })
      .from(posts)
      .where(eq(posts.id, postId));
  if (due - now > EARLY_WAIT_MS) {
    const [post] = await state();
    if (post?.status !== "SCHEDULED" || post.scheduledAt?.getTime() !== due) return "stale";
    await sendWakeUps(queue, [{ postId, due }], now);
    return "resent";
  }
  // Delays are whole seconds, rounded down: a wake-up may arrive a moment early, never claim early.
  if (due > now) await deps.sleep(due - now);
  now = Math.max(deps.now(), due);
  const claimable = and(scheduledFor(postId, due), lte(posts.scheduledAt, new Date(now)));
  const at = new Date(now);
  const [, claimed, [post]] = await db.batch([
    db
      .update(postPlatforms)
      .set({ status: "PUBLISHING", updatedAt: at })
      .where(
        and(
          eq(postPlatforms.postId, postId),
          eq(postPlatforms.status, "SCHEDULED"),
          inArray(postPlatforms.postId, db.select({ id: posts.id }).from(posts).where(claimable)),
        ),
      ),
    db
      .update(posts)
      .set({ status: "PUBLISHING", updatedAt: at })
      .where(claimable)
      .returning({ id: posts.id }),
    state(),
  ]);
  if (claimed.length > 0) return "publish";
  return post?.status === "PUBLISHING" && post.scheduledAt?.getTime() === due ? "publish" : "stale";
}
