// What an attempt came to, and how it is recorded: under the attempt's lease, so an attempt that lost
// its lease (it outlived the timeout and was taken over) writes nothing.
import { sql } from "drizzle-orm";
import type { Statement } from "../db/batch";
import type { Database } from "../db/client";
import { postPlatforms, type RowError } from "../db/schema";
import { type Backoff, backoffSeconds } from "../lib/queue";
import type { PlatformError, PublishedPost } from "../platforms/types";
import { heldBy, type Lease } from "./lease";

export type Outcome =
  | { kind: "published"; post: PublishedPost }
  /** For good: the platform refused (`permanent`), or the account must be reconnected (`auth`). */
  | { kind: "failed"; error: NonNullable<RowError> }
  /** Worth another attempt: the row stays PUBLISHING and the message is retried. */
  | { kind: "retry"; error: NonNullable<RowError>; retryAfterSeconds?: number };

const rowError = (error: PlatformError) => ({ code: error.code, message: error.message.slice(0, 1000) });

/**
 * A PlatformError as an outcome. `auth` fails at once: the attempt has already refreshed the token and
 * tried once more (src/accounts/tokens.ts); `account_expired` is a permanent error.
 */
export function outcomeOf(error: PlatformError): Outcome {
  switch (error.kind) {
    case "permanent":
    case "auth":
      return { kind: "failed", error: rowError(error) };
    default:
      // A rate limit's reset, or how long the platform's processing still needs (stillProcessing).
      return { kind: "retry", error: rowError(error), retryAfterSeconds: error.retryAfterSeconds };
  }
}

/** Retries after 10, 20, 40, 80, 160 s…, capped at 10 minutes. */
export const PUBLISH_BACKOFF: Backoff = { base: 10, cap: 600 };

/**
 * The delay a retry asks for: the platform's Retry-After when rate limited, else the backoff. Past
 * Queues' longest delay it is clamped when the message is retried (retryAfter).
 */
export function retryDelay(outcome: Extract<Outcome, { kind: "retry" }>, messageAttempts: number) {
  const after = outcome.retryAfterSeconds;
  return after !== undefined && Number.isFinite(after) && after > 0
    ? after
    : backoffSeconds(messageAttempts, PUBLISH_BACKOFF);
}

const released = { attemptId: null, attemptStartedAt: null };

export function recordOutcome(db: Database, lease: Lease, outcome: Outcome, now: number): Statement {
  const at = new Date(now);
  const update = db.update(postPlatforms);
  switch (outcome.kind) {
    case "published":
      return update
        .set({
          status: "PUBLISHED",
          platformPostId: outcome.post.id,
          postUrl: outcome.post.url,
          awaitingPublicId: outcome.post.awaiting === true,
          postedOn: sql`json_insert(${postPlatforms.postedOn}, '$[#]', ${now})`,
          error: null,
          // Settled: nothing resumes it, and its sealed progress (an upload URL) is not kept.
          progress: null,
          ...released,
          updatedAt: at,
        })
        .where(heldBy(lease));
    case "failed":
      return update
        .set({ status: "FAILED", error: outcome.error, progress: null, ...released, updatedAt: at })
        .where(heldBy(lease));
    case "retry":
      return update.set({ error: outcome.error, ...released, updatedAt: at }).where(heldBy(lease));
  }
}
