import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import type { Platform } from "../db/enums";
import { accounts, postPlatforms, posts, workspaceMembers } from "../db/schema";
import { inUserWorkspaces, ownedId } from "../db/tenancy";

/** Every account of every workspace the user can access, oldest first; usable inside a batch. */
export const accountsOfUser = (db: Database, userId: number) =>
  db
    .select()
    .from(accounts)
    .where(inUserWorkspaces(db, accounts.workspaceId, userId))
    .orderBy(asc(accounts.id));

/** What a connect stores: the platform's user, its profile, its tokens already encrypted. */
export type ConnectedAccount = {
  workspaceId: number;
  userId: number;
  platform: Platform;
  platformUserId: string;
  username: string;
  name: string;
  avatar: string | null;
  isVerified: boolean;
  accessTokenEnc: string;
  refreshTokenEnc: string | null;
  tokenExpiresAt: number | null;
};

/**
 * Inserts the account, or updates the one the workspace already has for this platform user (the
 * unique accounts_identity_idx), in one statement: the profile and the tokens are replaced (a refresh
 * token and an avatar are kept when the platform sent none this time), so `has_expired` clears; the
 * defaults and the other flags stay. Written only while `userId` is still a member of the workspace (it may
 * have left during the consent): the RETURNING row is empty otherwise.
 */
export function upsertAccount(db: Database, a: ConnectedAccount) {
  const value = <T>(v: T, column: string) => sql<T>`${v}`.as(column);
  const now = Date.now();
  return db
    .insert(accounts)
    .select(
      db
        // Every column in the table's order, as drizzle's INSERT … SELECT requires: the id is assigned,
        // the flags take the table's defaults.
        .select({
          id: value(null, "id"),
          workspaceId: value(a.workspaceId, "workspace_id"),
          platform: value(a.platform, "platform"),
          platformUserId: value(a.platformUserId, "platform_user_id"),
          username: value(a.username, "username"),
          name: value(a.name, "name"),
          avatar: value(a.avatar, "avatar"),
          isVerified: value(a.isVerified ? 1 : 0, "is_verified"),
          isDefault: value(0, "is_default"),
          supportThreads: value(1, "support_threads"),
          accessTokenEnc: value(a.accessTokenEnc, "access_token_enc"),
          refreshTokenEnc: value(a.refreshTokenEnc, "refresh_token_enc"),
          tokenExpiresAt: value(a.tokenExpiresAt, "token_expires_at"),
          createdAt: value(now, "created_at"),
          updatedAt: value(now, "updated_at"),
          expiredAt: value(null, "expired_at"),
          lastRefreshedAt: value(null, "last_refreshed_at"),
          lastError: value(null, "last_error"),
        })
        .from(workspaceMembers)
        .where(and(eq(workspaceMembers.workspaceId, a.workspaceId), eq(workspaceMembers.userId, a.userId))),
    )
    .onConflictDoUpdate({
      target: [accounts.workspaceId, accounts.platform, accounts.platformUserId],
      set: {
        username: sql`excluded.username`,
        name: sql`excluded.name`,
        avatar: sql`COALESCE(excluded.avatar, accounts.avatar)`,
        isVerified: sql`excluded.is_verified`,
        accessTokenEnc: sql`excluded.access_token_enc`,
        refreshTokenEnc: sql`COALESCE(excluded.refresh_token_enc, accounts.refresh_token_enc)`,
        tokenExpiresAt: sql`excluded.token_expires_at`,
        // A reconnect gives the account working tokens again (and an expiry not yet told is moot).
        expiredAt: null,
        lastError: null,
        updatedAt: new Date(now),
      },
    })
    .returning({ id: accounts.id });
}

/**
 * Disconnects an account of the user's workspaces, in one batch (one transaction):
 * 1. every SCHEDULED post that has a row on this account and no row on any other account becomes a
 *    DRAFT (its pending wake-up then finds it no longer scheduled and does nothing); a SCHEDULED post
 *    with rows on other accounts stays scheduled on those (its `updated_at` moves, so an edit checked
 *    against the old one is refused rather than racing the removal);
 * 2. the account is deleted; its platform rows go with it (ON DELETE CASCADE), published rows and
 *    their analytics included.
 * The last statement's RETURNING says whether the account existed for this user; the first reads what
 * revoking its token needs.
 */
export function disconnectAccount(db: Database, userId: number, accountId: number) {
  // Found through the user's workspaces (ownedId): another tenant's account is never read.
  const owned = eq(accounts.id, ownedId(accounts, userId, accountId));
  const rowsOnAccount = db
    .select({ postId: postPlatforms.postId })
    .from(postPlatforms)
    .where(inArray(postPlatforms.accountId, db.select({ id: accounts.id }).from(accounts).where(owned)));
  return [
    // What the token revocation after the delete needs (src/accounts/connect.ts revokeDisconnected).
    db
      .select({
        platform: accounts.platform,
        username: accounts.username,
        platformUserId: accounts.platformUserId,
        accessTokenEnc: accounts.accessTokenEnc,
        refreshTokenEnc: accounts.refreshTokenEnc,
      })
      .from(accounts)
      .where(owned),
    db
      .update(posts)
      .set({
        status: sql`CASE WHEN NOT EXISTS (SELECT 1 FROM post_platforms o WHERE o.post_id = posts.id AND o.account_id <> ${accountId}) THEN 'DRAFT' ELSE posts.status END`,
        updatedAt: new Date(),
      })
      .where(and(eq(posts.status, "SCHEDULED"), inArray(posts.id, rowsOnAccount))),
    db.delete(accounts).where(owned).returning({ id: accounts.id }),
  ] as const;
}

/**
 * A reconnect (POST /api/v1/accounts/{id}/reconnect) ends on the account it named, in one batch: the
 * account's stored platform identity (empty when it is gone or its workspace is no longer the user's),
 * and the update of its profile and tokens, made only when the platform identity is the same and the
 * user is still a member of the workspace. Its `id`, posts and analytics stay; `expired_at` and
 * `last_error` clear.
 */
export function reconnectAccount(db: Database, accountId: number, a: ConnectedAccount) {
  const same = and(
    eq(accounts.id, accountId),
    eq(accounts.workspaceId, a.workspaceId),
    eq(accounts.platform, a.platform),
    inUserWorkspaces(db, accounts.workspaceId, a.userId),
  );
  return [
    db.select({ platformUserId: accounts.platformUserId }).from(accounts).where(same),
    db
      .update(accounts)
      .set({
        username: a.username,
        name: a.name,
        avatar: a.avatar === null ? sql`${accounts.avatar}` : a.avatar,
        isVerified: a.isVerified,
        accessTokenEnc: a.accessTokenEnc,
        refreshTokenEnc: a.refreshTokenEnc === null ? sql`${accounts.refreshTokenEnc}` : a.refreshTokenEnc,
        tokenExpiresAt: a.tokenExpiresAt === null ? null : new Date(a.tokenExpiresAt),
        expiredAt: null,
        lastError: null,
        updatedAt: new Date(),
      })
      .where(and(same, eq(accounts.platformUserId, a.platformUserId)))
      .returning({ id: accounts.id }),
  ] as const;
}

/** One account of the user's workspaces (another tenant's is never read); usable inside a batch. */
export const ownedAccount = (db: Database, userId: number, accountId: number) =>
  db
    .select()
    .from(accounts)
    .where(eq(accounts.id, ownedId(accounts, userId, accountId)));
