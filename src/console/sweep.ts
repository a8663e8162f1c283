// The cron's cleanup of the console's dead rows: sessions past their idle or absolute limit, sign-in
// links and passkey challenges past their expiry are refused anyway (sessions.ts, links.ts,
// passkey-challenges.ts); deleting them keeps the tables the size of what is alive. Security log events
// are kept a year (security-log.tsx). Each shard deletes at most SWEEP_LIMIT of each kind per run, found through an
// index on the instant that ends them, so a run reads what it deletes and nothing else.
import { asc, inArray, lt } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { consoleSessions, passkeyChallenges, securityEvents, signInLinks } from "../db/schema";
import { eachShard } from "../db/shards";
import { SECURITY_EVENT_RETENTION_MS } from "./security-log";
import { ABSOLUTE_MS, IDLE_MS } from "./sessions";

/** Rows of each kind a shard deletes per run at most (the cron runs every minute). */
export const SWEEP_LIMIT = 500;

/** Deletes up to SWEEP_LIMIT rows of `table` whose `ends` column is before `before`, oldest first. */
const deleteEnded = (
  db: Database,
  table: typeof consoleSessions | typeof signInLinks | typeof passkeyChallenges | typeof securityEvents,
  ends: SQLiteColumn,
  before: Date,
) =>
  db
    .delete(table)
    .where(
      inArray(
        table.id,
        db.select({ id: table.id }).from(table).where(lt(ends, before)).orderBy(asc(ends)).limit(SWEEP_LIMIT),
      ),
    );

export async function sweepConsole(env: Env, now: Date): Promise<void> {
  const idleSince = new Date(now.getTime() - IDLE_MS);
  const createdBefore = new Date(now.getTime() - ABSOLUTE_MS);
  await eachShard(env, (db) =>
    db.batch([
      deleteEnded(db, consoleSessions, consoleSessions.lastUsedAt, idleSince),
      deleteEnded(db, consoleSessions, consoleSessions.createdAt, createdBefore),
      deleteEnded(db, signInLinks, signInLinks.expiresAt, now),
      deleteEnded(db, passkeyChallenges, passkeyChallenges.expiresAt, now),
      deleteEnded(
        db,
        securityEvents,
        securityEvents.createdAt,
        new Date(now.getTime() - SECURITY_EVENT_RETENTION_MS),
      ),
    ]),
  );
}
