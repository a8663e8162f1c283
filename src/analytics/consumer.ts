// The `analytics-sync` queue consumer and its dead letters. A message names a platform row
// (`{row_id}`); its sync (sync.ts) is idempotent and its auto-plug claimed once (plug.ts), so delivery at
// least once is safe. How a failure is answered depends on its kind alone:
// - `rate_limited`: retried after the platform's Retry-After;
// - `transient`, `unknown_outcome` (a read cannot have changed anything) and anything unexpected:
//   retried with exponential backoff, then dead-lettered after the queue's max_retries;
// - `permanent`, `auth`: retrying cannot help: recorded (the row waits a full refresh interval, and the
//   failure is logged) and acknowledged.
import { createDb } from "../db/client";
import { PlatformError } from "../platforms/types";
import { parseSyncMessage } from "./messages";
import { autoPlug } from "./plug";
import { defaultSyncDeps, recordSyncFailure, type SyncDeps, syncRow } from "./sync";

/** Queues delay a retry by at most 12 hours. */
const MAX_DELAY_SECONDS = 12 * 60 * 60;

/** 30 s, 60 s, 120 s, … by delivery, capped at 15 minutes. */
export const backoffSeconds = (attempts: number) => Math.min(30 * 2 ** Math.max(0, attempts - 1), 15 * 60);

export async function consumeAnalyticsSync(batch: MessageBatch<unknown>, env: Env, _ctx: ExecutionContext) {
  await syncMessages(batch, env, defaultSyncDeps);
}

/** The consumer with its outside dependencies given (tests pass a fake platform or clock). */
export async function syncMessages(batch: MessageBatch<unknown>, env: Env, deps: SyncDeps) {
  const db = createDb(env.DB);
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = parseSyncMessage(message.body);
      if (!body) {
        console.warn("analytics-sync: dropping a malformed message", message.id);
        message.ack();
        return;
      }
      try {
        const target = await syncRow(env, db, body.row_id, deps);
        if (target) await autoPlug(db, target, deps.now());
        message.ack();
      } catch (error) {
        if (error instanceof PlatformError && (error.kind === "permanent" || error.kind === "auth")) {
          console.warn(`analytics-sync of row ${body.row_id} refused (${error.code}): ${error.message}`);
          await recordSyncFailure(db, body.row_id, deps.now()).catch(() => undefined);
          message.ack();
          return;
        }
        const delaySeconds =
          error instanceof PlatformError && error.kind === "rate_limited"
            ? (error.retryAfterSeconds ?? 60)
            : backoffSeconds(message.attempts);
        if (!(error instanceof PlatformError))
          console.error(`analytics-sync of row ${body.row_id} failed`, error);
        message.retry({ delaySeconds: Math.min(Math.max(0, Math.ceil(delaySeconds)), MAX_DELAY_SECONDS) });
      }
    }),
  );
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
  for (const message of batch.messages) {
    console.warn("analytics-sync gave up after its retries", JSON.stringify(message.body));
    message.ack();
  }
}
