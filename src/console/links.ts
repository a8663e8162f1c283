// One-time sign-in links: issued for a user (by the sign-in form or the operator), 15 minutes, single
// use. The token is in the link only; the table holds its SHA-256. Consuming is one conditional UPDATE,
// so of two concurrent submissions exactly one gets the user.
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { signInLinks } from "../db/schema";
import { type ShardDatabases, shardOfId } from "../db/shards";
import { newToken } from "./tokens";

export const LINK_TTL_MS = 15 * 60_000;

/** The link's path, where its confirmation page is served. */
export const linkPath = (token: string) => `/console/sign-in/${token}`;

/** A new link for the user (who must exist: the row's foreign key says so); answers its absolute URL. */
export async function issueSignInLink(shards: ShardDatabases, userId: number, origin: string) {
  const shard = shardOfId(userId);
  const { token, hash } = await newToken("l", shard);
  const expiresAt = new Date(Date.now() + LINK_TTL_MS);
  await shards.at(shard).insert(signInLinks).values({ userId, tokenHash: hash, expiresAt });
  return { url: `${origin}${linkPath(token)}`, expiresAt };
}

/** Marks the link used if it is unused and unexpired; answers its user, or null (used, expired, unknown). */
export async function consumeSignInLink(db: Database, hash: string, now = Date.now()) {
  const [row] = await db
    .update(signInLinks)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        eq(signInLinks.tokenHash, hash),
        isNull(signInLinks.usedAt),
        gt(signInLinks.expiresAt, new Date(now)),
      ),
    )
    .returning({ userId: signInLinks.userId });
  return row?.userId ?? null;
}
