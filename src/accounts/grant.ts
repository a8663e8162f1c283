// Whether a disconnected account's grant is still used: several accounts may rest on one platform grant
// (a LinkedIn member's token carries their profile and every organisation connected through them, in
// any tenant; a Google grant its channels; a Facebook user's their Pages), and revoking it at the
// platform would end all of them. The grant is known by who signed in (`grant_user_id`); every shard is
// asked, since the other accounts may be other tenants'. In doubt (an account of unknown grant, a shard
// that does not answer) the grant is taken as used: an unrevoked token only lives until it expires, a
// wrongly revoked one breaks someone else's account.
import { and, eq, isNotNull, isNull, ne, or } from "drizzle-orm";
import type { Platform } from "../db/enums";
import { accounts } from "../db/schema";
import { shardDatabases } from "../db/shards";

export type GrantOf = { id: number; platform: Platform; grantUserId: string | null };

/** Whether another connected account, of any tenant on any shard, may rest on `account`'s grant. */
export async function grantInUse(env: Env, account: GrantOf): Promise<boolean> {
  if (account.grantUserId === null) return true;
  const samePlatform = and(
    eq(accounts.platform, account.platform),
    isNull(accounts.disconnectedAt),
    ne(accounts.id, account.id),
  );
  // Through accounts_grant_idx (platform, grant_user_id): the same grant, or an account with a token
  // whose grant is unknown (connected before it was recorded), which might be the same.
  const holds = or(
    eq(accounts.grantUserId, account.grantUserId),
    and(isNull(accounts.grantUserId), isNotNull(accounts.accessTokenEnc)),
  );
  try {
    const found = await Promise.all(
      shardDatabases(env)
        .all()
        .map((db) => db.select({ id: accounts.id }).from(accounts).where(and(samePlatform, holds)).limit(1)),
    );
    return found.some((rows) => rows.length > 0);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`disconnect: whether the ${account.platform} grant is shared is unknown: ${reason}`);
    return true;
  }
}
