// Whether a disconnected account's grant is still used: several accounts may rest on one platform grant
// (a LinkedIn member's token carries their profile and every organisation connected through them, in
// any tenant; a Google grant its channels; a Facebook user's their Pages), and revoking it at the
// platform would end all of them. The grant is known by who signed in (`grant_user_id`); every shard is
// asked, since the other accounts may be other tenants'. In doubt (an account of unknown grant, a shard
// that does not answer) the grant is taken as used: an unrevoked token only lives until it expires, a
// wrongly revoked one breaks someone else's account.
import { and, eq, isNotNull, isNull, ne } from "drizzle-orm";
import type { Database } from "../db/client";
import type { Platform } from "../db/enums";
import { accounts } from "../db/schema";
import { shardDatabases } from "../db/shards";

export type GrantOf = { id: number; platform: Platform; grantUserId: string | null };

/** Whether another connected account, of any tenant on any shard, may rest on `account`'s grant. */
export async function grantInUse(env: Env, account: GrantOf): Promise<boolean> {
  const owner = account.grantUserId;
  if (owner === null) return true;
  const others = and(
    eq(accounts.platform, account.platform),
    isNull(accounts.disconnectedAt),
    ne(accounts.id, account.id),
  );
  // Two lookups, each through accounts_grant_idx (platform, grant_user_id): one OR would read every
  // account of the platform. The same grant; or an account with a token whose grant is unknown
  // (connected before it was recorded), which might be the same.
  const holders = (db: Database) =>
    db.batch([
      db
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(others, eq(accounts.grantUserId, owner)))
        .limit(1),
      db
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(others, isNull(accounts.grantUserId), isNotNull(accounts.accessTokenEnc)))
        .limit(1),
    ]);
  try {
    const found = (await Promise.all(shardDatabases(env).all().map(holders))).flat();
    return found.some((rows) => rows.length > 0);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`disconnect: whether the ${account.platform} grant is shared is unknown: ${reason}`);
    return true;
  }
}
