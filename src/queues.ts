// The queue registry: dispatch on batch.queue. Each consumer is idempotent (delivery is at least once).
// A queue without a consumer is a configuration error: its messages are retried, and then land in the
// dead-letter queue, instead of being acknowledged and lost.
import { consumeAnalyticsSync, consumeAnalyticsSyncDeadLetters } from "./analytics/consumer";
import { consumeMediaImport, consumeMediaImportDeadLetters } from "./media/import/consumer";
import { consumePublish, consumePublishDeadLetters } from "./publishing/consumer";
import { consumeWebhookDeadLetters, consumeWebhooks } from "./webhooks/deliver";

export type QueueHandler = (batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) => Promise<void>;

const handlers: Record<string, QueueHandler> = {
  "media-import": consumeMediaImport,
  "media-import-dlq": consumeMediaImportDeadLetters,
  publish: consumePublish,
  "publish-dlq": consumePublishDeadLetters,
  "analytics-sync": consumeAnalyticsSync,
  "analytics-sync-dlq": consumeAnalyticsSyncDeadLetters,
  webhooks: consumeWebhooks,
  "webhooks-dlq": consumeWebhookDeadLetters,
};

/** The registry key of a queue: preview and staging copies share their production queue's consumer. */
export const queueKey = (name: string) => name.replace(/-(preview|staging)$/, "");

export async function dispatchQueue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) {
  const handler = handlers[queueKey(batch.queue)];
  if (!handler) {
    console.error(`no consumer for queue ${batch.queue}: retrying ${batch.messages.length} message(s)`);
    batch.retryAll();
    return;
  }
  await handler(batch, env, ctx);
}
