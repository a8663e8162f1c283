// The `analytics-sync` queue consumer and its dead letters. A message names a platform row
// (`{row_id}`); its sync (sync.ts) is idempotent and its auto-plug claimed once (plug.ts), so delivery at
// least once is safe. How a failure is answered depends on its kind alone:
// - `rate_limited`: retried after the platform's Retry-After;
// - `transient`, `unknown_outcome` (a read cannot have changed anything) and anything unexpected:
//   retried with exponential backoff, then dead-lettered after the queue's max_retries;
// - `permanent`, `auth`: retrying cannot help: recorded (the row waits a full refresh interval, and the
//   failure is logged) and acknowledged.
import { shardDatabases } from "../db/shards";
import { type Backoff, backoffSeconds, DEAD_LETTER_BACKOFF, eachMessage, retryAfter } from "../lib/queue";
import { PlatformError } from "../platforms/types";
import { parseSyncMessage } from "./messages";
import { autoPlug } from "./plug";
import { defaultSyncDeps, recordSyncFailure, type SyncDeps, syncRow } from "./sync";

/** Retries after 30 s, 60 s, 120 s, … by delivery, capped at 15 minutes. */
export const SYNC_BACKOFF: Backoff = { base: 30, cap: 15 * 60 };

export async function consumeAnalyticsSync(batch: MessageBatch<unknown>, env: Env, _ctx: ExecutionContext) {
  await syncMessages(batch, env, defaultSyncDeps);
}

/** The consumer with its outside dependencies given (tests pass a fake platform or clock). */
export async function syncMessages(batch: MessageBatch<unknown>, env: Env, deps: SyncDeps) {
  const shards = shardDatabases(env);
  await eachMessage(batch, {
    name: "analytics-sync",
    parse: parseSyncMessage,
    backoff: SYNC_BACKOFF,
    // Anything but a PlatformError is unexpected: eachMessage logs it and retries with the backoff.
    handle: async ({ row_id }, message) => {
      const db = shards.of(row_id);
      try {
        // The job's message id names its analytics.synced event (recorded with the sync).
        const target = await syncRow(env, db, row_id, deps, message.id);
        if (target) await autoPlug(db, target, deps.now());
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        if (error.kind === "permanent" || error.kind === "auth") {
          console.warn(`analytics-sync of row ${row_id} refused (${error.code}): ${error.message}`);
          await recordSyncFailure(db, row_id, deps.now()).catch(() => undefined);
          return;
        }
        retryAfter(
          message,
          error.kind === "rate_limited"
            ? (error.retryAfterSeconds ?? 60)
            : backoffSeconds(message.attempts, SYNC_BACKOFF),
        );
      }
    },
  });
}

/**
 * Dead letters: syncs that kept failing (rate limits or outages outlasting every retry). Nothing is
 * undone and nothing is retried: the row keeps its last stored metrics, and the scheduled refresh will
 * try again at the row's next interval. The message is logged and acknowledged.
 */
export async function consumeAnalyticsSyncDeadLetters(
  batch: MessageBatch<unknown>,
  _env: Env,
  _ctx: ExecutionContext,
) {
  await eachMessage(batch, {
    name: "analytics-sync-dlq",
    parse: parseSyncMessage,
    deadLetters: true,
    backoff: DEAD_LETTER_BACKOFF,
    handle: (body) => {
      console.warn("analytics-sync gave up after its retries", JSON.stringify(body));
    },
  });
}
