import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import type { Mode, Platform } from "../db/enums";
import { accounts, postPlatforms, posts, workspaceMembers } from "../db/schema";
import { inUserWorkspaces, ownedId, type Tenant } from "../db/tenancy";

/**
 * Every connected account of every workspace the user can access, oldest first (a disconnected one is
 * not listed); usable inside a batch.
 */
export const accountsOfUser = (db: Database, tenant: Tenant) =>
  db
    .select()
    .from(accounts)
    .where(and(inUserWorkspaces(db, accounts.workspaceId, tenant), isNull(accounts.disconnectedAt)))
    .orderBy(asc(accounts.id));

/**
 * The disconnected accounts of the user's workspaces, most recently disconnected first (a few: the
 * console offers to connect each again, which brings it back with its id and history); batchable.
 */
export const disconnectedAccountsOfUser = (db: Database, tenant: Tenant, limit = 50) =>
  db
    .select({
      id: accounts.id,
      workspaceId: accounts.workspaceId,
      platform: accounts.platform,
      username: accounts.username,
      name: accounts.name,
      disconnectedAt: accounts.disconnectedAt,
    })
    .from(accounts)
    .where(and(inUserWorkspaces(db, accounts.workspaceId, tenant), isNotNull(accounts.disconnectedAt)))
    .orderBy(desc(accounts.disconnectedAt))
    .limit(limit);

/** What a connect stores: the platform's user, its profile, its tokens already encrypted. */
export type ConnectedAccount = {
  workspaceId: number;
  userId: number;
  /** The mode of the key (or console) that connected it: the workspace is looked up in that mode. */
  mode: Mode;
  platform: Platform;
  platformUserId: string;
  /** Who signed in to grant the token (src/accounts/grant.ts). */
  grantUserId: string;
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
          disconnectedAt: value(null, "disconnected_at"),
          grantUserId: value(a.grantUserId, "grant_user_id"),
          mode: value(a.mode, "mode"),
        })
        .from(workspaceMembers)
        .where(
          and(
            eq(workspaceMembers.workspaceId, a.workspaceId),
            eq(workspaceMembers.userId, a.userId),
            eq(workspaceMembers.mode, a.mode),
          ),
        ),
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
        grantUserId: sql`excluded.grant_user_id`,
        // A reconnect gives the account working tokens again (and an expiry not yet told is moot).
        expiredAt: null,
        lastError: null,
        // Connecting a disconnected identity again brings the account back, with its id and history.
        disconnectedAt: null,
        updatedAt: new Date(now),
      },
    })
    .returning({ id: accounts.id });
}

/**
 * Disconnects (detaches) an account of the user's workspaces, in one batch (one transaction), unless one
 * of its platform rows is PUBLISHING (then nothing is written: the caller answers 409):
 * 1. the account and what its token revocation needs (its grant: src/accounts/grant.ts), and whether a
 *    row of it is PUBLISHING;
 * 2. the SCHEDULED and FAILED posts with a row of this account that is not PUBLISHED settle again on
 *    what is left once 3. and 4. ran (the rows of other accounts, and this account's rows that published):
 *    nothing left, a DRAFT (a pending wake-up then finds it no longer scheduled and does nothing); only
 *    published rows left, PUBLISHED; otherwise unchanged (a SCHEDULED post stays scheduled on its other
 *    accounts). Their `updated_at` moves, so an edit checked against the old one is refused rather than
 *    racing the change;
 * 3. its rows that are not PUBLISHED but published before (a repeat's row waiting for its next
 *    occurrence, or one whose later occurrence failed: `posted_on` is not empty) become PUBLISHED again,
 *    their last publication standing, and keep their history;
 * 4. its other rows that are not PUBLISHED (drafts, scheduled, failed without any publication) are
 *    deleted: the cancelled rows. Its PUBLISHED rows stay as they are, with their platform ids, urls,
 *    publish times and metrics;
 * 5. the account is marked disconnected and its tokens are deleted; it stays in the table (post rows and
 *    analytics still name it) and a connect of the same identity brings it back (upsertAccount).
 * The last statement's RETURNING says whether it was disconnected.
 */
export function disconnectAccount(db: Database, tenant: Tenant, accountId: number) {
  // Found through the user's workspaces (ownedId): another tenant's account is never read.
  const owned = and(eq(accounts.id, ownedId(accounts, tenant, accountId)), isNull(accounts.disconnectedAt));
  const ownedAccount = db.select({ id: accounts.id }).from(accounts).where(owned);
  const nonePublishing = sql`NOT EXISTS (SELECT 1 FROM ${postPlatforms} WHERE ${postPlatforms.accountId} IN ${ownedAccount} AND ${postPlatforms.status} = 'PUBLISHING')`;
  const unsettled = and(
    inArray(postPlatforms.accountId, ownedAccount),
    ne(postPlatforms.status, "PUBLISHED"),
  );
  const postsWithUnsettled = db.select({ postId: postPlatforms.postId }).from(postPlatforms).where(unsettled);
  const publishedBefore = sql`json_array_length(${postPlatforms.postedOn}) > 0`;
  // The rows of a post left once this account's rows are settled (3.) or cancelled (4.).
  const left = sql`o.post_id = posts.id AND (o.account_id <> ${accountId} OR o.status = 'PUBLISHED' OR json_array_length(o.posted_on) > 0)`;
  return [
    // What the token revocation after the detach needs (src/accounts/connect.ts revokeDisconnected).
    db
      .select({
        platform: accounts.platform,
        username: accounts.username,
        platformUserId: accounts.platformUserId,
        accessTokenEnc: accounts.accessTokenEnc,
        refreshTokenEnc: accounts.refreshTokenEnc,
        publishing: sql<number>`NOT ${nonePublishing}`,
        id: accounts.id,
        grantUserId: accounts.grantUserId,
        mode: accounts.mode,
      })
      .from(accounts)
      .where(owned),
    db
      .update(posts)
      .set({
        status: sql`CASE WHEN NOT EXISTS (SELECT 1 FROM post_platforms o WHERE ${left}) THEN 'DRAFT'
          WHEN NOT EXISTS (SELECT 1 FROM post_platforms o WHERE ${left} AND o.account_id <> ${accountId} AND o.status <> 'PUBLISHED') THEN 'PUBLISHED'
          ELSE posts.status END`,
        updatedAt: new Date(),
      })
      .where(
        and(
          inArray(posts.status, ["PENDING_APPROVAL", "SCHEDULED", "FAILED"]),
          inArray(posts.id, postsWithUnsettled),
          nonePublishing,
        ),
      ),
    db
      .update(postPlatforms)
      .set({ status: "PUBLISHED", updatedAt: new Date() })
      .where(and(unsettled, publishedBefore, nonePublishing)),
    db.delete(postPlatforms).where(and(unsettled, nonePublishing)),
    db
      .update(accounts)
      .set({
        disconnectedAt: new Date(),
        accessTokenEnc: null,
        refreshTokenEnc: null,
        tokenExpiresAt: null,
        updatedAt: new Date(),
      })
      .where(and(owned, nonePublishing))
      .returning({ id: accounts.id }),
  ] as const;
}

/**
 * A reconnect (POST /api/v1/accounts/{id}/reconnect) ends on the account it named, in one batch: the
 * account's stored platform identity and whether it was disconnected (empty when it is gone or its
 * workspace is no longer the user's), and the update of its profile and tokens, made only when the
 * platform identity is the same, the account still connected (a disconnect during the flow is not undone)
 * and the user still a member of the workspace. Its `id`, posts and analytics stay; `expired_at` and
 * `last_error` clear. An account the operator created without tokens or platform identity (the sandbox's
 * demo data) takes the identity of its first reconnect.
 */
export function reconnectAccount(db: Database, accountId: number, a: ConnectedAccount) {
  const same = and(
    eq(accounts.id, accountId),
    eq(accounts.workspaceId, a.workspaceId),
    eq(accounts.platform, a.platform),
    inUserWorkspaces(db, accounts.workspaceId, { userId: a.userId, mode: a.mode }),
  );
  return [
    db
      .select({ platformUserId: accounts.platformUserId, disconnectedAt: accounts.disconnectedAt })
      .from(accounts)
      .where(same),
    db
      .update(accounts)
      .set({
        username: a.username,
        name: a.name,
        avatar: a.avatar === null ? sql`${accounts.avatar}` : a.avatar,
        isVerified: a.isVerified,
        platformUserId: a.platformUserId,
        accessTokenEnc: a.accessTokenEnc,
        refreshTokenEnc: a.refreshTokenEnc === null ? sql`${accounts.refreshTokenEnc}` : a.refreshTokenEnc,
        tokenExpiresAt: a.tokenExpiresAt === null ? null : new Date(a.tokenExpiresAt),
        grantUserId: a.grantUserId,
        expiredAt: null,
        lastError: null,
        updatedAt: new Date(),
      })
      .where(
        and(
          same,
          isNull(accounts.disconnectedAt),
          or(
            eq(accounts.platformUserId, a.platformUserId),
            and(isNull(accounts.platformUserId), isNull(accounts.accessTokenEnc)),
          ),
        ),
      )
      .returning({ id: accounts.id }),
  ] as const;
}

/** One account of the user's workspaces (another tenant's is never read); usable inside a batch. */
export const ownedAccount = (db: Database, tenant: Tenant, accountId: number) =>
  db
    .select()
    .from(accounts)
    .where(eq(accounts.id, ownedId(accounts, tenant, accountId)));
