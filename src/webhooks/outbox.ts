// The outbox's reader (src/events/ records it, in the batch of each change, and announces it): an
// outbox row becomes its event (emit.ts), recorded with its deliveries (events.ts), and is then deleted.
// Two ways in, at least once between them: the announcement on the `webhooks` queue, sent once the
// change committed (a failure retries the message), and the cron's sweep of rows older than a minute (an
// announcement lost, or a worker stopped in between). Emission is idempotent by event id, so a row
// emitted twice is told once.
import { and, asc, eq, lt } from "drizzle-orm";
import type { Database } from "../db/client";
import { type OutboxRow, outbox } from "../db/schema";
import { eachShard, type ShardDatabases } from "../db/shards";
import type { OutboxKey } from "../events/record";
import { eventOf } from "./emit";
import { emitEvent, emitSafely } from "./events";

/** Rows older than this are the sweep's: younger ones belong to an announcement still on its way. */
export const OUTBOX_GRACE_MS = 60_000;
/** Rows the sweep emits per shard and cron run. */
export const OUTBOX_SWEEP_LIMIT = 100;

const keyOf = (key: Pick<OutboxRow, "type" | "recordId" | "version">) =>
  and(eq(outbox.type, key.type), eq(outbox.recordId, key.recordId), eq(outbox.version, key.version));

/** Emits a row's event, then deletes the row. Throws when emission fails: the row stays. */
async function emitRow(env: Env, db: Database, row: OutboxRow): Promise<void> {
  await emitEvent(env, db, eventOf(env, db, row));
  await db.delete(outbox).where(keyOf(row));
}

/**
 * The webhooks consumer's part: each announced row still in the outbox is emitted (one already gone was
 * emitted by a copy of the message or by the sweep). Throws when one fails, so the message is retried.
 * Answers how many were emitted.
 */
export async function emitAnnounced(env: Env, shards: ShardDatabases, keys: OutboxKey[]): Promise<number> {
  let emitted = 0;
  for (const key of keys) {
    const db = shards.of(key.record_id);
    const row = await db
      .select()
      .from(outbox)
      .where(keyOf({ type: key.type, recordId: key.record_id, version: key.version }))
      .get();
    if (!row) continue;
    await emitRow(env, db, row);
    emitted += 1;
  }
  return emitted;
}

/** The cron's part: rows whose announcement did not finish, oldest first, in every shard. */
export async function sweepOutbox(env: Env, now: Date): Promise<number> {
  const emitted = await eachShard(env, (db) => sweepShardOutbox(env, db, now));
  return emitted.reduce((sum, n) => sum + n, 0);
}

async function sweepShardOutbox(env: Env, db: Database, now: Date): Promise<number> {
  const left = await db
    .select()
    .from(outbox)
    .where(lt(outbox.createdAt, new Date(now.getTime() - OUTBOX_GRACE_MS)))
    .orderBy(asc(outbox.createdAt))
    .limit(OUTBOX_SWEEP_LIMIT);
  let emitted = 0;
  // One at a time, each on its own: a row that fails stays for the next run and does not stop the rest.
  for (const row of left)
    if (await emitSafely(`the outbox row ${row.type} ${row.recordId}`, () => emitRow(env, db, row)))
      emitted += 1;
  return emitted;
}
