// The lease of one publishing attempt on one row: a conditional UPDATE … RETURNING takes it, so two
// consumers (a redelivered message, a racing batch, the watchdog) never publish the same row at once.
// A lease older than the attempt timeout belonged to a worker that died: it is taken over, and since
// that worker's call may have reached the platform, the next attempt reconciles first.
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { postPlatforms } from "../db/schema";

/**
 * How long an attempt starts new long steps (an upload chunk, another status poll): past it, the adapter
 * records where it is and the next attempt goes on (PublishDraft.deadline).
 */
export const ATTEMPT_BUDGET_MS = 5 * 60_000;

/**
 * Longer than any live attempt can take: its budget, plus the one upload request (2 minutes at most,
 * src/platforms/call.ts) or the calls of a thread of 25 items (10 s each) it may still make after it,
 * and under the 15 minutes a queue consumer may run.
 */
export const ATTEMPT_TIMEOUT_MS = 10 * 60_000;

export type Lease = {
  rowId: number;
  attemptId: string;
  /** Attempts of this occurrence, this one included: above 1, an earlier one may have published. */
  attempts: number;
  postedOn: number[];
  settings: Record<string, unknown>;
  /** When the lease was taken (epoch ms). */
  startedAt: number;
  /** What earlier attempts recorded (src/publishing/progress.ts), as stored. */
  progress: Record<string, unknown> | null;
};

/** Free, or held past the attempt timeout. */
export const leaseFree = (now: number) =>
  or(
    isNull(postPlatforms.attemptId),
    isNull(postPlatforms.attemptStartedAt),
    lte(postPlatforms.attemptStartedAt, new Date(now - ATTEMPT_TIMEOUT_MS)),
  );

/** Takes the lease of a PUBLISHING row; null when the row is settled or another attempt holds it. */
export async function takeLease(db: Database, rowId: number, now: number): Promise<Lease | null> {
  const attemptId = crypto.randomUUID();
  const [row] = await db
    .update(postPlatforms)
    .set({
      attemptId,
      attemptStartedAt: new Date(now),
      attempts: sql`${postPlatforms.attempts} + 1`,
      updatedAt: new Date(now),
    })
    .where(and(eq(postPlatforms.id, rowId), eq(postPlatforms.status, "PUBLISHING"), leaseFree(now)))
    .returning({
      attempts: postPlatforms.attempts,
      postedOn: postPlatforms.postedOn,
      settings: postPlatforms.settings,
      progress: postPlatforms.progress,
    });
  return row ? { rowId, attemptId, startedAt: now, ...row } : null;
}

/** The condition every write of an attempt's outcome carries: the lease is still this attempt's. */
export const heldBy = (lease: Pick<Lease, "rowId" | "attemptId">) =>
  and(eq(postPlatforms.id, lease.rowId), eq(postPlatforms.attemptId, lease.attemptId));
