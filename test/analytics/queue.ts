// Delivers analytics-sync messages to the consumer as the runtime does (createMessageBatch /
// getQueueResult), through the worker's queue handler or, with `deps`, with a fake platform or clock.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { syncMessages } from "../../src/analytics/consumer";
import type { SyncDeps } from "../../src/analytics/sync";
import worker from "../../src/index";

let counter = 0;
/** One message per body (a number is a row id); the acks, retries and retry delays. */
export async function deliver(
  bodies: unknown[],
  options: { queue?: string; attempts?: number; deps?: SyncDeps; env?: Env } = {},
) {
  const batch = createMessageBatch(
    options.queue ?? "analytics-sync",
    bodies.map((body) => ({
      id: `sync-${counter++}`,
      timestamp: new Date(),
      attempts: options.attempts ?? 1,
      body: typeof body === "number" ? { row_id: body } : body,
    })),
  );
  const retries = batch.messages.map((message) => vi.spyOn(message, "retry"));
  const ctx = createExecutionContext();
  const bindings = options.env ?? env;
  if (options.deps) await syncMessages(batch, bindings, options.deps);
  else await worker.queue(batch, bindings, ctx);
  const result = await getQueueResult(batch, ctx);
  const delays = retries.flatMap((spy) => spy.mock.calls.map(([opts]) => opts?.delaySeconds));
  return { ...result, delays };
}
