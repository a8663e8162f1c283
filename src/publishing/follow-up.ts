// The follow-up read of a row published before the platform gave its public id (TikTok, before
// moderation): a sync job on the analytics queue (`{row_id}`, src/analytics/messages.ts), delayed, whose
// sync resolves the id first (src/analytics/sync.ts). Until the platform gives it, the job is retried
// with the consumer's backoff, and the cron's refresh reads the row again after that.

/** TikTok's moderation usually takes minutes: the first read is two minutes after publishing. */
export const FOLLOW_UP_DELAY_SECONDS = 120;

export async function sendFollowUp(env: Pick<Env, "ANALYTICS_SYNC_QUEUE">, rowId: number): Promise<void> {
  await env.ANALYTICS_SYNC_QUEUE.send({ row_id: rowId }, { delaySeconds: FOLLOW_UP_DELAY_SECONDS });
}
