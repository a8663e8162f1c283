// WebAuthn challenges: random (SimpleWebAuthn makes 32 bytes), single use, 5 minutes. They live in D1
// rather than the Coordinator because a D1 row gives single use atomically in one statement (DELETE …
// RETURNING: of two requests with the same challenge exactly one gets the row) with the user's data, and
// the cron's sweep already deletes expired rows of its kind. A registration's challenge is its user's, in
// the user's shard; a sign-in's has no user yet and lives in shard 0, the database every deployment has.
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { passkeyChallenges } from "../db/schema";

export const CHALLENGE_TTL_MS = 5 * 60_000;
/** The shard that holds sign-in challenges (no user is known when one is issued). */
export const SIGN_IN_CHALLENGE_SHARD = 0;

/** Keeps a challenge just issued: for `userId`'s registration, or (null) for a sign-in. */
export const holdChallenge = (db: Database, challenge: string, userId: number | null, now = Date.now()) =>
  db.insert(passkeyChallenges).values({ challenge, userId, expiresAt: new Date(now + CHALLENGE_TTL_MS) });

/**
 * Takes the challenge: true when it was held for this purpose (the user's registration, or a sign-in)
 * and has not expired. Taking deletes it, so a replay (or an expired one) finds nothing the next time.
 */
export async function takeChallenge(
  db: Database,
  challenge: string,
  userId: number | null,
  now = Date.now(),
) {
  const [row] = await db
    .delete(passkeyChallenges)
    .where(
      and(
        eq(passkeyChallenges.challenge, challenge),
        userId === null ? isNull(passkeyChallenges.userId) : eq(passkeyChallenges.userId, userId),
      ),
    )
    .returning({ expiresAt: passkeyChallenges.expiresAt });
  return row !== undefined && row.expiresAt.getTime() > now;
}
