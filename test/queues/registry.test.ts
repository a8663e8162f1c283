// A queue without a consumer is a configuration error: its messages must be retried (and so reach the
// dead-letter queue), never acknowledged and lost.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { dispatchQueue, queueKey } from "../../src/queues";

function fakeBatch(queue: string, count: number) {
  const batch = {
    queue,
    messages: Array.from({ length: count }, (_, i) => ({
      id: `m${i}`,
      timestamp: new Date(),
      body: { n: i },
      attempts: 1,
      ack: vi.fn(),
      retry: vi.fn(),
    })),
    ackAll: vi.fn(),
    retryAll: vi.fn(),
  };
  return batch;
}

describe("queue registry", () => {
  it("retries every message of a queue that has no consumer, and acknowledges none", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const batch = fakeBatch("no-such-queue", 3);
    await dispatchQueue(batch as unknown as MessageBatch<unknown>, env, {} as ExecutionContext);
    expect(batch.retryAll).toHaveBeenCalledTimes(1);
    expect(batch.ackAll).not.toHaveBeenCalled();
    for (const message of batch.messages) expect(message.ack).not.toHaveBeenCalled();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("no consumer for queue no-such-queue"));
    errors.mockRestore();
  });

  it("serves preview and staging copies of a queue with its production consumer", () => {
    expect(queueKey("media-import-preview")).toBe("media-import");
    expect(queueKey("media-import-staging")).toBe("media-import");
    expect(queueKey("media-import")).toBe("media-import");
  });
});
