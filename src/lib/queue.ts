// One way to consume a queue. Every consumer runs the same loop: parse each body (a malformed one is
// acknowledged, since it would fail the same way on every delivery), handle it, and retry what failed
// with exponential backoff, never asking Queues for more than its longest delay. The loop lives here
// once, so a consumer only says how to parse and handle its messages and how fast to back off.

/**
 * The longest `delaySeconds` Queues accepts: "Messages can be delayed by up to 12 hours" (Cloudflare
 * docs, Queues › Batching, Retries and Delays).
 */
export const MAX_QUEUE_DELAY_SECONDS = 43_200;

/** Exponential backoff: `base` seconds on the first delivery, doubling with each, at most `cap`. */
export type Backoff = { base: number; cap: number };

/** Seconds before the retry of delivery `attempts` (1-based): base, 2·base, 4·base, …, at most cap. */
export const backoffSeconds = (attempts: number, { base, cap }: Backoff) =>
  Math.min(cap, base * 2 ** Math.max(0, attempts - 1));

/** Retries a message after `seconds`, rounded up to whole seconds and clamped to what Queues allows. */
export function retryAfter(message: Message<unknown>, seconds: number): void {
  message.retry({ delaySeconds: Math.min(Math.max(0, Math.ceil(seconds)), MAX_QUEUE_DELAY_SECONDS) });
}

export type Consumer<T> = {
  /** The queue's name, prefixed to what is logged. */
  name: string;
  /** The message's body, or null when it is not one this queue carries. */
  parse: (body: unknown) => T | null;
  /**
   * Handles one message. It may ack or retry the message itself; if it does neither, the message is
   * acknowledged when it returns, and retried with `backoff` when it throws (an exception is logged).
   */
  handle: (body: T, message: Message<unknown>) => Promise<void> | void;
  backoff: Backoff;
  /**
   * A dead-letter queue's consumer: a body that does not parse is acknowledged without a warning (its
   * queue's own consumer acknowledges such a body, so none is dead-lettered).
   */
  deadLetters?: boolean;
};

/** Dead-letter consumers retry what failed (D1 down) after 30 s, 60 s, 120 s…, at most 15 minutes. */
export const DEAD_LETTER_BACKOFF: Backoff = { base: 30, cap: 15 * 60 };

/** Runs `handle` on every message of the batch at once; see Consumer for how each is settled. */
export async function eachMessage<T>(
  batch: MessageBatch<unknown>,
  { name, parse, handle, backoff, deadLetters }: Consumer<T>,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = parse(message.body);
      if (body === null) {
        if (!deadLetters) console.warn(`${name}: dropping a malformed message`, message.id);
        return message.ack();
      }
      // The handler sees the message through this wrapper, so what it settled itself is left alone.
      let settled = false;
      const tracked: Message<unknown> = {
        id: message.id,
        timestamp: message.timestamp,
        body: message.body,
        attempts: message.attempts,
        ack: () => {
          settled = true;
          message.ack();
        },
        retry: (options) => {
          settled = true;
          message.retry(options);
        },
      };
      try {
        await handle(body, tracked);
        if (!settled) message.ack();
      } catch (error) {
        console.error(`${name}: unexpected failure`, body, error);
        if (!settled) retryAfter(message, backoffSeconds(message.attempts, backoff));
      }
    }),
  );
}
