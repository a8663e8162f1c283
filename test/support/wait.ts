// Waiting for something to happen (a consumer settling a post, a receiver getting its request) without a
// fixed sleep: poll the condition until it holds or a deadline passes. Waiting for *time* to pass (a
// wake-up delay, a backoff, a lease) is not this helper's job: drive the injectable clocks instead
// (`deps.now` in src/publishing/deps.ts, the Coordinator's `now` arguments, sweeps' `now`).
// Pure, so tests in Node (*.unit.test.ts) may use it too.

export type WaitOptions = {
  /** How long to keep trying, in ms (10 s unless told). */
  timeout?: number;
  /** The pause between two checks, in ms (50 unless told). */
  interval?: number;
  /** What is awaited, for the timeout's message ("post 12 PUBLISHED"). */
  what?: string;
};

/** Real timers, even when a test fakes them. */
const pause = globalThis.setTimeout.bind(globalThis);

/**
 * Calls `check` until it answers something other than `undefined`, `null` or `false`, and answers that.
 * A check that throws counts as not yet (so it may assert with `expect`, then answer true); past the
 * deadline the wait fails with what was awaited and the last answer or error.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  { timeout = 10_000, interval = 50, what = "the condition" }: WaitOptions = {},
): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) {
        return value as Exclude<T, undefined | null | false>;
      }
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      const detail = last instanceof Error ? `last error: ${last.message}` : `last answer: ${String(last)}`;
      throw new Error(`waitFor: ${what} did not happen within ${timeout} ms (${detail})`, { cause: last });
    }
    await new Promise((resolve) => pause(resolve, interval));
  }
}
