// Messages of the publish queue: ids only, and a wake-up's due time. The consumer re-reads the post and
// publishes only rows that are still due, so a deleted post or a redelivered message publishes nothing.
//   {post_id}       publish the post's PUBLISHING rows now (publish_now, retry, the cron, the watchdog);
//   {post_id, due}  a wake-up for a post scheduled at `due` (UTC ms), sent with `delaySeconds`: it claims
//                   the post only while its `scheduled_at` is still `due`, so a rescheduled or deleted post
//                   makes it a no-op.
import { MAX_QUEUE_DELAY_SECONDS } from "../lib/queue";

export type PublishMessage = { post_id: number; due?: number };

/** A wake-up further ahead than Queues can delay (12 hours) is re-sent on arrival for the rest of the wait. */
export const MAX_DELAY_SECONDS = MAX_QUEUE_DELAY_SECONDS;

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The message, or null when it is not one this queue carries. */
export function parsePublishMessage(body: unknown): PublishMessage | null {
  if (typeof body !== "object" || body === null) return null;
  const { post_id, due } = body as Record<string, unknown>;
  if (!isId(post_id)) return null;
  if (due === undefined) return { post_id };
  return Number.isSafeInteger(due) && (due as number) >= 0 ? { post_id, due: due as number } : null;
}

export async function enqueuePublish(queue: Queue, postIds: number[]): Promise<void> {
  for (let i = 0; i < postIds.length; i += 100) {
    await queue.sendBatch(
      postIds.slice(i, i + 100).map((id) => ({ body: { post_id: id } satisfies PublishMessage })),
    );
  }
}

/**
 * Whole seconds to hold a wake-up for `due`: rounded down, so it arrives at most a second early (the
 * consumer waits out the rest) rather than up to a second late, and never more than Queues allows.
 */
export const wakeUpDelay = (due: number, now: number) =>
  Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.floor((due - now) / 1000)));

export type WakeUp = { postId: number; due: number };

/** Sends one wake-up per post, each delayed until its due time (or Queues' longest delay). */
export async function sendWakeUps(queue: Queue, wakeUps: WakeUp[], now = Date.now()): Promise<void> {
  for (let i = 0; i < wakeUps.length; i += 100) {
    await queue.sendBatch(
      wakeUps.slice(i, i + 100).map(({ postId, due }) => ({
        body: { post_id: postId, due } satisfies PublishMessage,
        delaySeconds: wakeUpDelay(due, now),
      })),
    );
  }
}
