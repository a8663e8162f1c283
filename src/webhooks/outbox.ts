// At least once from the change to the event: a post's settlement writes an outbox row in the same batch
// (one transaction) as the settlement itself, and the row is deleted once the event is recorded and its
// deliveries queued. A worker that stops between the two (or an emission that failed) leaves the row,
// and the cron's sweep emits it again; emission is idempotent by event id (`<post>_<at>`), so nothing is
// told twice. An account's expiry works alike, its outbox a column (`accounts.expiry_event_at`, set in
// the statement that marks it expired; event id `<account>_<expired_at>`).
import { and, eq, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import type { PostStatus } from "../db/enums";
import { type Account, accounts, posts, webhookOutbox } from "../db/schema";
import { eachShard } from "../db/shards";
import { emitAccountExpired, emitPostSettled } from "./emit";

/** Rows older than this are the sweep's: younger ones belong to an emission still running. */
export const OUTBOX_GRACE_MS = 60_000;
/** Settlements the sweep emits per cron run. */
export const OUTBOX_SWEEP_LIMIT = 100;

/**
 * The statement the settlement batch ends with: an outbox row when the batch did settle the post at
 * `at` (its status left PUBLISHING, or a repeat went back to SCHEDULED, with `updated_at = at`).
 */
export const outboxStatement = (db: Database, postId: number, at: number) =>
  db
    .insert(webhookOutbox)
    .select(
      db
        .select({ postId: posts.id, at: sql<number>`${at}`.as("at"), status: posts.status })
        .from(posts)
        .where(
          and(
            eq(posts.id, postId),
            eq(posts.updatedAt, new Date(at)),
            sql`${posts.status} IN ('PUBLISHED', 'FAILED', 'SCHEDULED')`,
          ),
        ),
    )
    .onConflictDoNothing();

/** A repeat's occurrence that published everywhere went back to SCHEDULED: it is `post.published`. */
const reported = (status: PostStatus): PostStatus => (status === "SCHEDULED" ? "PUBLISHED" : status);

/** Emits a settlement, then clears its outbox row; a failed emission leaves it for the sweep. */
export async function emitFromOutbox(env: Env, db: Database, postId: number, at: number, status: PostStatus) {
  if (!(await emitPostSettled(env, db, postId, reported(status), at))) return false;
  await db.delete(webhookOutbox).where(and(eq(webhookOutbox.postId, postId), eq(webhookOutbox.at, at)));
  return true;
}

/** Emits an account's expiry, then clears its outbox column; a failed emission leaves it for the sweep. */
export async function emitExpiryFromOutbox(env: Env, db: Database, account: Account) {
  if (!account.expiryEventAt || !(await emitAccountExpired(env, db, account))) return false;
  await db
    .update(accounts)
    .set({ expiryEventAt: null })
    .where(and(eq(accounts.id, account.id), eq(accounts.expiryEventAt, account.expiryEventAt)));
  return true;
}

/** The cron's part: settlements and expiries whose emission did not finish, oldest first, in every shard. */
export async function sweepOutbox(env: Env, now: Date): Promise<number> {
  const emitted = await eachShard(env, (db) => sweepShardOutbox(env, db, now));
  return emitted.reduce((sum, n) => sum + n, 0);
}

async function sweepShardOutbox(env: Env, db: Database, now: Date): Promise<number> {
  const left = await db
    .select()
    .from(webhookOutbox)
    .where(lt(webhookOutbox.at, now.getTime() - OUTBOX_GRACE_MS))
    .orderBy(webhookOutbox.at)
    .limit(OUTBOX_SWEEP_LIMIT);
  let emitted = 0;
  for (const row of left) if (await emitFromOutbox(env, db, row.postId, row.at, row.status)) emitted += 1;
  const expired = await db
    .select()
    .from(accounts)
    .where(lt(accounts.expiryEventAt, new Date(now.getTime() - OUTBOX_GRACE_MS)))
    .orderBy(accounts.expiryEventAt)
    .limit(OUTBOX_SWEEP_LIMIT);
  for (const account of expired) if (await emitExpiryFromOutbox(env, db, account)) emitted += 1;
  return emitted;
}
