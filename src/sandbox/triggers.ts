// The sandbox's failure triggers: a tag in a post's first text item (a reply's text) picks how each
// attempt with the same fingerprint goes, so every failure path of the publishing engine can be driven
// on purpose, in tests and by hand. Pure rules; the store counts the attempts.

export type Trigger = "fail" | "flaky" | "lost" | "ratelimit" | "slow";

/** What the sandbox does with one attempt. */
export type Decision =
  | { kind: "publish" }
  /** Accepted and stored, but the answer never reaches the caller. */
  | { kind: "publish_lost" }
  | { kind: "reject"; message: string }
  | { kind: "unavailable"; message: string }
  | { kind: "rate_limited"; message: string; retryAfterSeconds: number };

export const RATE_LIMIT_RETRY_AFTER_SECONDS = 2;
/** A flaky post fails this many attempts, then succeeds. */
export const FLAKY_FAILURES = 2;

// A whole tag: not inside a word, and not the start of a longer tag (`#sandbox-failure` is no trigger).
const TAG = /(?<![\w#-])#sandbox-(fail|flaky|lost|ratelimit|slow)(?![\w-])/gi;
/** When a text carries several tags, the strongest wins. */
const PRECEDENCE: readonly Trigger[] = ["fail", "ratelimit", "flaky", "lost", "slow"];

/** How long the platform processes a `#sandbox-slow` post's media or container: longer than any attempt waits. */
export const SLOW_PROCESSING_MS = 150_000;

/** Whether a text carries `#sandbox-slow` (whatever else it carries). */
export const isSlow = (text: string) =>
  [...text.matchAll(TAG)].some((match) => match[1]!.toLowerCase() === "slow");

/** The trigger a text carries, if any. */
export function triggerOf(text: string): Trigger | null {
  const found = new Set([...text.matchAll(TAG)].map((match) => match[1]!.toLowerCase()));
  return PRECEDENCE.find((trigger) => found.has(trigger)) ?? null;
}

/** How attempt number `attempt` (from 1) of a post carrying `trigger` goes. */
export function decide(trigger: Trigger | null, attempt: number): Decision {
  switch (trigger) {
    case "fail":
      return {
        kind: "reject",
        message: "Sandbox: this post is rejected because it contains #sandbox-fail.",
      };
    case "flaky":
      return attempt <= FLAKY_FAILURES
        ? {
            kind: "unavailable",
            message: `Sandbox: temporarily unavailable (#sandbox-flaky, attempt ${attempt} of ${FLAKY_FAILURES + 1}).`,
          }
        : { kind: "publish" };
    case "lost":
      return attempt === 1 ? { kind: "publish_lost" } : { kind: "publish" };
    case "ratelimit":
      return attempt === 1
        ? {
            kind: "rate_limited",
            message: "Sandbox: too many requests (#sandbox-ratelimit).",
            retryAfterSeconds: RATE_LIMIT_RETRY_AFTER_SECONDS,
          }
        : { kind: "publish" };
    default:
      return { kind: "publish" };
  }
}
