// Helpers for what an adapter keeps between attempts (types.ts `Progress`): a store that lives only as
// long as one call (for callers with nothing to keep it in: a dry run, a test), and the failure an
// attempt ends with when the platform is still processing what it recorded.
import { PlatformError, type Progress } from "./types";

/** A Progress kept in memory: what one call records, it reads back, and nothing outlives it. */
export function memoryProgress(initial: Record<string, unknown> = {}): Progress & {
  readonly values: Record<string, unknown>;
} {
  const values: Record<string, unknown> = { ...initial };
  return {
    values,
    get: (key) => values[key],
    async set(key, value) {
      if (value === undefined) delete values[key];
      else values[key] = value;
    },
  };
}

/** The draft's progress, or one that keeps nothing between attempts. */
export const progressOf = (draft: { progress?: Progress }): Progress => draft.progress ?? memoryProgress();

/**
 * The platform is still processing what this attempt (or an earlier one) recorded: the attempt ends and
 * the next one, `retryAfterSeconds` later, resumes it. Nothing is sent again.
 */
export const stillProcessing = (message: string, retryAfterSeconds: number) =>
  new PlatformError(message, { kind: "transient", code: "still_processing", retryAfterSeconds });

/** Whether the attempt's deadline has passed (no deadline: never). */
export const pastDeadline = (draft: { deadline?: number }, now: number) =>
  draft.deadline !== undefined && now >= draft.deadline;

/** How an adapter polls what it recorded: how many looks, how far apart, and what it says when it stops. */
export type Polling = {
  looks: number;
  intervalMs: number;
  /** The draft's deadline: no look starts after it. */
  deadline?: number;
  /** The `stillProcessing` message and wait when the looks run out or the deadline passes. */
  message: string;
  retryAfterSeconds: number;
};

/**
 * Asks `look` (its index from 0) until it answers something other than undefined, at most `looks` times,
 * `intervalMs` apart on the context's clock, never starting one past the deadline; then the attempt ends
 * with `stillProcessing`, and the next attempt polls the same recorded object.
 */
export async function pollUntil<T>(
  context: { now(): number; sleep(ms: number): Promise<void> },
  polling: Polling,
  look: (index: number) => Promise<T | undefined>,
): Promise<T> {
  for (let index = 0; index < polling.looks; index++) {
    if (index > 0) {
      // The next look would start past the deadline: stop now rather than sleep into it.
      if (pastDeadline(polling, context.now() + polling.intervalMs)) break;
      await context.sleep(polling.intervalMs);
    }
    const answer = await look(index);
    if (answer !== undefined) return answer;
  }
  throw stillProcessing(polling.message, polling.retryAfterSeconds);
}
