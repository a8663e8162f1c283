// The shared consumer loop (src/lib/queue.ts) on a hand-made batch: how each message is settled, and
// the delays it is retried with.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  backoffSeconds,
  type Consumer,
  eachMessage,
  MAX_QUEUE_DELAY_SECONDS,
  retryAfter,
} from "../../src/lib/queue";

afterEach(() => {
  vi.restoreAllMocks();
});

function fakeMessage(body: unknown, attempts = 1) {
  return {
    id: `m-${JSON.stringify(body)}`,
    timestamp: new Date(),
    body,
    attempts,
    ack: vi.fn(),
    retry: vi.fn(),
  };
}
type FakeMessage = ReturnType<typeof fakeMessage>;

const batchOf = (messages: FakeMessage[]) =>
  ({ queue: "q", messages, ackAll: vi.fn(), retryAll: vi.fn() }) as unknown as MessageBatch<unknown>;

const backoff = { base: 10, cap: 600 };
const parse = (body: unknown) => (typeof body === "number" ? body : null);
const consume = (messages: FakeMessage[], handle: Consumer<number>["handle"]) =>
  eachMessage(batchOf(messages), { name: "test-queue", parse, handle, backoff });

describe("eachMessage", () => {
  it("acks a message once its handler returns", async () => {
    const seen: number[] = [];
    const messages = [fakeMessage(1), fakeMessage(2)];
    await consume(messages, (n) => {
      seen.push(n);
    });
    expect(seen.sort()).toEqual([1, 2]);
    for (const m of messages) {
      expect(m.ack).toHaveBeenCalledTimes(1);
      expect(m.retry).not.toHaveBeenCalled();
    }
  });

  it("acks and warns on a body parse refuses, without handling it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const handle = vi.fn();
    const bad = fakeMessage("not a number");
    await consume([bad], handle);
    expect(handle).not.toHaveBeenCalled();
    expect(bad.ack).toHaveBeenCalledTimes(1);
    expect(bad.retry).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith("test-queue: dropping a malformed message", bad.id);
  });

  it("logs an exception with the queue's name and retries with the backoff for the attempt", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const first = fakeMessage(1, 1);
    const third = fakeMessage(3, 3);
    const boom = new Error("boom");
    await consume([first, third], async () => {
      throw boom;
    });
    expect(first.retry).toHaveBeenCalledWith({ delaySeconds: 10 });
    expect(third.retry).toHaveBeenCalledWith({ delaySeconds: 40 });
    expect(first.ack).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith("test-queue: unexpected failure", 1, boom);
  });

  it("retries a synchronous throw too", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const m = fakeMessage(1, 2);
    await consume([m], () => {
      throw new Error("sync");
    });
    expect(m.retry).toHaveBeenCalledWith({ delaySeconds: 20 });
  });

  it("leaves a message the handler acked or retried itself as the handler settled it", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const acked = fakeMessage(1);
    const retried = fakeMessage(2);
    const ackedThenThrew = fakeMessage(3);
    const retriedThenThrew = fakeMessage(4);
    await consume([acked, retried, ackedThenThrew, retriedThenThrew], (n, message) => {
      if (n % 2 === 1) message.ack();
      else retryAfter(message, 7);
      if (n > 2) throw new Error("after settling");
    });
    for (const m of [acked, ackedThenThrew]) {
      expect(m.ack).toHaveBeenCalledTimes(1);
      expect(m.retry).not.toHaveBeenCalled();
    }
    for (const m of [retried, retriedThenThrew]) {
      expect(m.retry).toHaveBeenCalledTimes(1);
      expect(m.retry).toHaveBeenCalledWith({ delaySeconds: 7 });
      expect(m.ack).not.toHaveBeenCalled();
    }
    // The exceptions are still logged.
    expect(error).toHaveBeenCalledTimes(2);
  });

  it("handles the messages of a batch concurrently", async () => {
    let running = 0;
    let most = 0;
    await consume([fakeMessage(1), fakeMessage(2), fakeMessage(3)], async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
    });
    expect(most).toBe(3);
  });

  it("hands the handler the message's id, body and attempts", async () => {
    const m = fakeMessage(5, 4);
    await consume([m], (_, message) => {
      expect(message).toMatchObject({ id: m.id, body: 5, attempts: 4, timestamp: m.timestamp });
    });
  });
});

describe("backoffSeconds", () => {
  it("doubles from the base with each delivery attempt, up to the cap", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffSeconds(n, backoff))).toEqual([
      10, 20, 40, 80, 160, 320, 600, 600,
    ]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffSeconds(n, { base: 30, cap: 900 }))).toEqual([
      30, 60, 120, 240, 480, 900,
    ]);
  });

  it("treats an attempt count below 1 as the first delivery", () => {
    expect(backoffSeconds(0, backoff)).toBe(10);
  });
});

describe("retryAfter", () => {
  it("rounds up to whole seconds, never below 0 nor past Queues' 12 hours", () => {
    const delays = [0, 2.2, -5, 43_200, 3 * 86_400].map((seconds) => {
      const m = fakeMessage(seconds);
      retryAfter(m as unknown as Message<unknown>, seconds);
      return m.retry.mock.calls[0]![0].delaySeconds;
    });
    expect(delays).toEqual([0, 3, 0, 43_200, 43_200]);
    expect(MAX_QUEUE_DELAY_SECONDS).toBe(12 * 60 * 60);
  });
});
