// wrangler.toml's queues, read by wrangler itself: every consumer says how often it retries (a dead-letter
// consumer left to the platform's default would drop the last record of a failed job after 3 tries), and
// every main queue hands what exhausts its retries to a dead-letter queue that has a consumer.

import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";

type Consumer = { queue: string; max_retries?: number; retry_delay?: number; dead_letter_queue?: string };

const { queues } = unstable_readConfig({ config: new URL("../../wrangler.toml", import.meta.url).pathname });
const consumers: Consumer[] = queues.consumers ?? [];
const consumed = new Set(consumers.map((consumer) => consumer.queue));

describe("wrangler.toml queues", () => {
  it("gives every consumer an explicit max_retries and retry_delay", () => {
    expect(consumers.length).toBeGreaterThan(0);
    for (const consumer of consumers)
      expect([consumer.queue, consumer.max_retries, consumer.retry_delay]).toEqual([
        consumer.queue,
        expect.any(Number),
        expect.any(Number),
      ]);
  });

  it("gives every produced queue a consumer and a dead-letter queue that has one", () => {
    for (const { queue } of queues.producers ?? []) {
      const consumer = consumers.find((c) => c.queue === queue);
      expect(consumer, queue).toBeDefined();
      expect(consumer?.dead_letter_queue, queue).toBe(`${queue}-dlq`);
      expect(consumed.has(`${queue}-dlq`), `${queue}-dlq`).toBe(true);
    }
  });
});
