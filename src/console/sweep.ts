// The cron's cleanup of the console's dead rows: sessions past their idle or absolute limit and sign-in
// links past their expiry are refused anyway (sessions.ts, links.ts); deleting them keeps both tables the
// size of what is alive. Each shard deletes at most SWEEP_LIMIT of each kind per run, found through an
// index on the instant that ends them, so a run reads what it deletes and nothing else.
import { asc, inArray, lt } from "drizzle-orm";
import { consoleSessions, signInLinks } from "../db/schema";
import { eachShard } from "../db/shards";
import { ABSOLUTE_MS, IDLE_MS } from "./sessions";

/** Rows of each kind a shard deletes per run at most (the cron runs every minute). */
export const SWEEP_LIMIT = 500;

export async function sweepConsole(env: Env, now: Date): Promise<void> {
  const idleSince = new Date(now.getTime() - IDLE_MS);
  const createdBefore = new Date(now.getTime() - ABSOLUTE_MS);
  await eachShard(env, (db) =>
    db.batch([
      db
        .delete(consoleSessions)
        .where(
          inArray(
            consoleSessions.id,
            db
              .select({ id: consoleSessions.id })
              .from(consoleSessions)
              .where(lt(consoleSessions.lastUsedAt, idleSince))
              .orderBy(asc(consoleSessions.lastUsedAt))
              .limit(SWEEP_LIMIT),
          ),
        ),
      db
        .delete(consoleSessions)
        .where(
          inArray(
            consoleSessions.id,
            db
              .select({ id: consoleSessions.id })
              .from(consoleSessions)
              .where(lt(consoleSessions.createdAt, createdBefore))
              .orderBy(asc(consoleSessions.createdAt))
              .limit(SWEEP_LIMIT),
          ),
        ),
      db
        .delete(signInLinks)
        .where(
          inArray(
            signInLinks.id,
            db
              .select({ id: signInLinks.id })
              .from(signInLinks)
              .where(lt(signInLinks.expiresAt, now))
              .orderBy(asc(signInLinks.expiresAt))
              .limit(SWEEP_LIMIT),
          ),
        ),
    ]),
  );
}
