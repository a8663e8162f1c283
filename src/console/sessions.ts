// Console sessions: opened by any sign-in (a link today, a passkey later: both call openSession), kept
// server-side as the SHA-256 of a random id, idle after 12 h, over after 30 days, ended by sign-out or
// from the security page. The csrf field of a session's forms is an HMAC of its stored hash.
import { and, desc, eq, gt } from "drizzle-orm";
import type { Database } from "../db/client";
import { consoleSessions, users } from "../db/schema";
import { derivedHmacKey, hmacSha256Hex, verifyHmacHex } from "../lib/crypto";
import { newToken, readToken } from "./tokens";

export const SESSION_COOKIE = "__Host-session";
export const IDLE_MS = 12 * 3600_000;
export const ABSOLUTE_MS = 30 * 24 * 3600_000;

export type Session = { id: number; idHash: string; userId: number; name: string; email: string };

/**
 * A new session for the user (always a new id: no fixation). `replacing`, the cookie the browser held
 * before, is ended in the same batch. Answers the cookie's value.
 */
export async function openSession(
  db: Database,
  shard: number,
  userId: number,
  userAgent: string | undefined,
  replacing?: string,
) {
  const { token, hash } = await newToken("s", shard);
  const old = await readToken("s", replacing);
  const insert = db
    .insert(consoleSessions)
    .values({ userId, idHash: hash, userAgent: userAgent?.slice(0, 255) ?? null, lastUsedAt: new Date() });
  if (old?.shard === shard)
    await db.batch([db.delete(consoleSessions).where(eq(consoleSessions.idHash, old.hash)), insert]);
  else await insert;
  return token;
}

/**
 * The session the cookie names, if it is neither idle nor over its lifetime; its use is recorded in the
 * same statement that checks it.
 */
export async function readSession(db: Database, hash: string, now = Date.now()): Promise<Session | null> {
  const [[touched], [user]] = await db.batch([
    db
      .update(consoleSessions)
      .set({ lastUsedAt: new Date(now) })
      .where(
        and(
          eq(consoleSessions.idHash, hash),
          gt(consoleSessions.lastUsedAt, new Date(now - IDLE_MS)),
          gt(consoleSessions.createdAt, new Date(now - ABSOLUTE_MS)),
        ),
      )
      .returning({ id: consoleSessions.id, userId: consoleSessions.userId }),
    db
      .select({ name: users.name, email: users.email })
      .from(users)
      .innerJoin(consoleSessions, eq(consoleSessions.userId, users.id))
      .where(eq(consoleSessions.idHash, hash)),
  ]);
  if (!touched || !user) return null;
  return { id: touched.id, idHash: hash, userId: touched.userId, ...user };
}

/** Ends the session the cookie names (sign-out). */
export const endSession = (db: Database, hash: string) =>
  db.delete(consoleSessions).where(eq(consoleSessions.idHash, hash));

/** Ends one of the user's sessions; false when it is not theirs (or gone). */
export async function revokeSession(db: Database, userId: number, sessionId: number) {
  const gone = await db
    .delete(consoleSessions)
    .where(and(eq(consoleSessions.id, sessionId), eq(consoleSessions.userId, userId)))
    .returning({ id: consoleSessions.id });
  return gone.length > 0;
}

/** The user's live sessions, most recently used first. */
export const sessionsOf = (db: Database, userId: number, now = Date.now()) =>
  db
    .select({
      id: consoleSessions.id,
      userAgent: consoleSessions.userAgent,
      createdAt: consoleSessions.createdAt,
      lastUsedAt: consoleSessions.lastUsedAt,
    })
    .from(consoleSessions)
    .where(
      and(
        eq(consoleSessions.userId, userId),
        gt(consoleSessions.lastUsedAt, new Date(now - IDLE_MS)),
        gt(consoleSessions.createdAt, new Date(now - ABSOLUTE_MS)),
      ),
    )
    .orderBy(desc(consoleSessions.lastUsedAt));

const csrfKey = (env: Pick<Env, "ENCRYPTION_KEY">) => derivedHmacKey(env.ENCRYPTION_KEY, "console-csrf");

/** The csrf field of the session's forms: an HMAC of its stored hash, so it changes with the session. */
export const csrfToken = async (env: Pick<Env, "ENCRYPTION_KEY">, session: Session) =>
  hmacSha256Hex(await csrfKey(env), session.idHash);

export const csrfMatches = async (env: Pick<Env, "ENCRYPTION_KEY">, session: Session, given: string) =>
  verifyHmacHex(await csrfKey(env), session.idHash, given);
