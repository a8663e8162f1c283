// The rows a push names, claimed for a sync as the cron and POST /analytics/posts/{id}/sync claim them:
// published rows of a connected account of that platform whose owner's subscription syncs, not synced
// or claimed within SYNC_COOLDOWN_MS (`analytics_synced_at` set to now), so a burst of pushes about one
// post, or a replayed push, queues one job a minute at most. A push names no tenant: every shard is
// asked, through `accounts_platform_user_idx` then `post_platforms_account_id_idx`.
import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { enqueueSync } from "../analytics/messages";
import { SYNC_COOLDOWN_MS } from "../analytics/queries";
import { syncs } from "../analytics/refresh";
import type { Database } from "../db/client";
import { accounts, postPlatforms } from "../db/schema";
import { eachShard } from "../db/shards";
import type { Pointer, PushPlatform } from "./payloads";

/** A push's work is bounded: at most this many accounts, and posts per account, are looked up. */
export const MAX_PUSHED_ACCOUNTS = 20;
export const MAX_PUSHED_POSTS = 50;

/** Claims the rows the pointers name on one shard: their ids. */
export async function claimPushed(
  db: Database,
  platform: PushPlatform,
  pointers: readonly Pointer[],
  now: number,
): Promise<number[]> {
  const statements = pointers.slice(0, MAX_PUSHED_ACCOUNTS).map((pointer) =>
    db
      .update(postPlatforms)
      .set({ analyticsSyncedAt: new Date(now) })
      .where(
        and(
          inArray(
            postPlatforms.accountId,
            db
              .select({ id: accounts.id })
              .from(accounts)
              .where(
                and(
                  eq(accounts.platform, platform),
                  eq(accounts.platformUserId, pointer.account),
                  isNull(accounts.disconnectedAt),
                ),
              ),
          ),
          inArray(postPlatforms.platformPostId, pointer.posts.slice(0, MAX_PUSHED_POSTS)),
          eq(postPlatforms.platform, platform),
          eq(postPlatforms.status, "PUBLISHED"),
          or(
            isNull(postPlatforms.analyticsSyncedAt),
            lt(postPlatforms.analyticsSyncedAt, new Date(now - SYNC_COOLDOWN_MS)),
          ),
          syncs(db),
        ),
      )
      .returning({ id: postPlatforms.id }),
  );
  const [first, ...rest] = statements;
  if (!first) return [];
  const claimed = await db.batch([first, ...rest]);
  return claimed.flat().map((row) => row.id);
}

/** Claims the named rows on every shard and queues one sync job each: the number queued. */
export async function queuePushed(
  env: Env,
  platform: PushPlatform,
  pointers: readonly Pointer[],
  now: number,
) {
  if (pointers.length === 0) return 0;
  const queued = await eachShard(env, async (db) => {
    const ids = await claimPushed(db, platform, pointers, now);
    await enqueueSync(
      env.ANALYTICS_SYNC_QUEUE,
      ids.sort((a, b) => a - b),
    );
    return ids.length;
  });
  return queued.reduce((sum, n) => sum + n, 0);
}
