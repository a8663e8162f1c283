// Queue dispatch on batch.queue. Each consumer is idempotent: delivery is at least once.
import { consumeMediaImport, consumeMediaImportDeadLetters } from "./media/import-queue";

export type QueueHandler = (batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) => Promise<void>;

const handlers: Record<string, QueueHandler> = {
  "media-import": consumeMediaImport,
  "media-import-dlq": consumeMediaImportDeadLetters,
};

export async function dispatchQueue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) {
  const handler = handlers[batch.queue.replace(/-(preview|staging)$/, "")];
  if (!handler) {
    console.warn(`no consumer for queue ${batch.queue}; acknowledging ${batch.messages.length} message(s)`);
    batch.ackAll();
    return;
  }
  await handler(batch, env, ctx);
}
