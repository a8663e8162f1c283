// The analytics reads. The totals of accounts, workspaces and the user come from `account_metrics`, the
// per-account sums of the published rows' metrics that triggers maintain (migrations/0006): a report
// reads one row per account, however many rows the accounts have. A post's total is summed from its own
// rows (json_extract over `post_platforms.analytics`): a post has few. Each report is one batch: one D1
// round trip.
import {
  and,
  asc,
  desc,
  eq,
  exists,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import type { Database } from "../db/client";
import { accountMetrics, accounts, postPlatforms, posts, subscriptions, workspaces } from "../db/schema";
import { inUserWorkspaces, ownedId, ownedWorkspace, type Tenant } from "../db/tenancy";

/** The subscription statuses under which a post owner's analytics are synced. */
export const SYNCING_SUBSCRIPTIONS = ["active", "trialing", "grace_period"] as const;

export const COUNT_METRICS = ["comments", "likes", "shares", "impressions", "quotes", "saves"] as const;
export type CountMetric = (typeof COUNT_METRICS)[number];

/** The engagement rate of a total, two decimals, 0 when there is none. */
const rounded = (rate: SQL) =>
  sql<number>`coalesce(round(${rate}, 2), 0)`.mapWith(Number).as("total_engagement_rate");

/** A metric of the row, or NULL when the row is not PUBLISHED: only published rows carry metrics. */
const published = (key: CountMetric | "engagement_rate") =>
  sql`(CASE WHEN ${postPlatforms.status} = 'PUBLISHED' THEN json_extract(${postPlatforms.analytics}, ${sql.raw(`'$.${key}'`)}) END)`;

/**
 * The select fields of a total over platform rows (a post's). The engagement rate: weighted by
 * impressions when any row has impressions, else the mean of the non-zero rates, else 0. (`* 1.0`:
 * integer rates must not divide as integers.)
 */
const rowTotalFields = () => {
  const impressions = published("impressions");
  const rate = published("engagement_rate");
  const total = (key: CountMetric) =>
    sql<number>`coalesce(sum(${published(key)}), 0)`.mapWith(Number).as(`total_${key}`);
  return {
    comments: total("comments"),
    likes: total("likes"),
    shares: total("shares"),
    impressions: total("impressions"),
    quotes: total("quotes"),
    saves: total("saves"),
    engagement_rate: rounded(sql`CASE WHEN sum(${impressions}) > 0
      THEN sum(${rate} * 1.0 * ${impressions}) / sum(${impressions})
      ELSE avg(nullif(${rate}, 0)) END`),
  };
};

/**
 * The select fields of a total over `account_metrics` rows (ungrouped: one total; grouped: one per
 * group; NULLs of a LEFT JOIN count as nothing): the same answer as `rowTotalFields` over every row of
 * those accounts, from the sums the triggers keep. The rate: Σ rate × impressions / Σ impressions when
 * any, else Σ non-zero rates / their number, else 0.
 */
const accountTotalFields = () => {
  const total = (key: CountMetric) =>
    sql<number>`coalesce(sum(${accountMetrics[key]}), 0)`.mapWith(Number).as(`total_${key}`);
  return {
    comments: total("comments"),
    likes: total("likes"),
    shares: total("shares"),
    impressions: total("impressions"),
    quotes: total("quotes"),
    saves: total("saves"),
    engagement_rate: rounded(sql`CASE WHEN sum(${accountMetrics.impressions}) > 0
      THEN sum(${accountMetrics.rateWeighted}) / sum(${accountMetrics.impressions})
      ELSE sum(${accountMetrics.rateNonzeroSum}) / nullif(sum(${accountMetrics.rateNonzeroCount}), 0) END`),
  };
};

export type Totals = { [K in CountMetric | "engagement_rate"]: number };

/**
 * `SELECT id FROM posts` of the post if the user can access it, found through the user's workspaces
 * (`ownedId`): another tenant's post is never read, so its 404 costs what an absent one's does.
 */
const visiblePost = (db: Database, tenant: Tenant, postId: number) =>
  db
    .select({ id: posts.id })
    .from(posts)
    .where(eq(posts.id, ownedId(posts, tenant, postId)));

/** `SELECT id FROM accounts` of the accounts the user can access, optionally narrowed. */
const visibleAccounts = (db: Database, tenant: Tenant, narrow?: SQL) =>
  db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(inUserWorkspaces(db, accounts.workspaceId, tenant), narrow));

/** The total of the accessible accounts (optionally narrowed) from their maintained sums. */
const accountsTotal = (db: Database, tenant: Tenant, narrow?: SQL) =>
  db
    .select(accountTotalFields())
    .from(accountMetrics)
    .where(inArray(accountMetrics.accountId, visibleAccounts(db, tenant, narrow)));

/** Each account's totals (its one `account_metrics` row), oldest account first. */
const accountTotals = (db: Database, tenant: Tenant, narrow?: SQL) =>
  db
    .select({
      accountId: accounts.id,
      workspaceId: accounts.workspaceId,
      platform: accounts.platform,
      username: accounts.username,
      total: accountTotalFields(),
    })
    .from(accounts)
    .leftJoin(accountMetrics, eq(accountMetrics.accountId, accounts.id))
    .where(and(inUserWorkspaces(db, accounts.workspaceId, tenant), narrow))
    .groupBy(accounts.id)
    .orderBy(asc(accounts.id));

/** The post, its rows, their accounts and the total: one batch. */
export function postReport(db: Database, tenant: Tenant, postId: number) {
  const ids = visiblePost(db, tenant, postId);
  const rowsOfPost = inArray(postPlatforms.postId, ids);
  return db.batch([
    visiblePost(db, tenant, postId),
    db
      .select({
        accountId: postPlatforms.accountId,
        platform: postPlatforms.platform,
        status: postPlatforms.status,
        postUrl: postPlatforms.postUrl,
        analytics: postPlatforms.analytics,
      })
      .from(postPlatforms)
      .where(rowsOfPost)
      .orderBy(asc(postPlatforms.id)),
    db
      .select()
      .from(accounts)
      .where(
        inArray(
          accounts.id,
          db.select({ id: postPlatforms.accountId }).from(postPlatforms).where(rowsOfPost),
        ),
      ),
    db.select(rowTotalFields()).from(postPlatforms).where(rowsOfPost),
  ]);
}

/**
 * The account, its total and its rows, newest platform post first: one batch. (The list has every row
 * of the account: unlike the total, it grows with the account.)
 */
export function accountReport(
  db: Database,
  tenant: Tenant,
  accountId: number,
  page: { page: number; perPage: number },
) {
  // Through the user's workspaces (ownedId): another tenant's account is never read.
  const thisAccount = eq(accounts.id, ownedId(accounts, tenant, accountId));
  // `account_id = ?` (not IN a subquery) so the page walks post_platforms_account_order_idx in order;
  // the visibility check is a constant condition, evaluated once.
  const rowsOfAccount = and(
    eq(postPlatforms.accountId, ownedId(accounts, tenant, accountId)),
    exists(visibleAccounts(db, tenant, thisAccount)),
  );
  return db.batch([
    visibleAccounts(db, tenant, thisAccount),
    accountsTotal(db, tenant, thisAccount),
    db
      .select({
        platformPostId: postPlatforms.platformPostId,
        postId: postPlatforms.postId,
        platform: postPlatforms.platform,
        status: postPlatforms.status,
        postUrl: postPlatforms.postUrl,
        analytics: postPlatforms.analytics,
      })
      .from(postPlatforms)
      .where(rowsOfAccount)
      // Digit strings in numeric order without casting (ids may not fit 64 bits): longer is larger.
      // SQLite sorts NULL lowest, so rows without a platform post come last.
      .orderBy(
        desc(sql`length(${postPlatforms.platformPostId})`),
        desc(postPlatforms.platformPostId),
        desc(postPlatforms.id),
      )
      // One more than the page: whether a next page exists, without counting the account's rows.
      .limit(page.perPage + 1)
      .offset((page.page - 1) * page.perPage),
  ]);
}

/** The workspace, its total and its accounts' totals: one batch. */
export function workspaceReport(db: Database, tenant: Tenant, workspaceId: number) {
  // The user's membership is read, never another tenant's workspace nor its accounts.
  const owned = ownedWorkspace(tenant, workspaceId);
  const inWorkspace = eq(accounts.workspaceId, owned);
  return db.batch([
    db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, owned)),
    accountsTotal(db, tenant, inWorkspace),
    accountTotals(db, tenant, inWorkspace),
  ]);
}

/** Totals over every accessible workspace, per workspace and per account: one batch. */
export function overallReport(db: Database, tenant: Tenant) {
  return db.batch([
    accountsTotal(db, tenant),
    // A workspace without accounts answers zeros (LEFT JOINs, coalesced sums).
    db
      .select({ workspaceId: workspaces.id, name: workspaces.name, total: accountTotalFields() })
      .from(workspaces)
      .leftJoin(accounts, eq(accounts.workspaceId, workspaces.id))
      .leftJoin(accountMetrics, eq(accountMetrics.accountId, accounts.id))
      .where(inUserWorkspaces(db, workspaces.id, tenant))
      .groupBy(workspaces.id)
      .orderBy(asc(workspaces.id)),
    accountTotals(db, tenant),
  ]);
}

/** Whether the post's owner has a subscription that syncs analytics (a statement for a batch). */
export const ownerSubscribed = (db: Database, postIds: SQLWrapper) =>
  db
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(
      and(
        inArray(
          subscriptions.userId,
          db.select({ id: posts.userId }).from(posts).where(inArray(posts.id, postIds)),
        ),
        inArray(subscriptions.status, SYNCING_SUBSCRIPTIONS),
      ),
    );

/**
 * A row synced, or claimed for a sync, this recently is not read again: a sync asked within the window
 * joins the job already queued (or the read just made) instead of asking the platform once more.
 */
export const SYNC_COOLDOWN_MS = 60_000;

/**
 * The post, whether its owner's subscription syncs, its syncable rows, and those of them claimed now
 * (not synced or claimed within SYNC_COOLDOWN_MS: their `analytics_synced_at` set to `now`, as the
 * cron's refresh claims them): one batch. Only the claimed rows get a new job.
 */
export function syncTargets(db: Database, tenant: Tenant, postId: number, now: number) {
  const ids = visiblePost(db, tenant, postId);
  const syncable = and(
    inArray(postPlatforms.postId, ids),
    eq(postPlatforms.status, "PUBLISHED"),
    isNotNull(postPlatforms.platformPostId),
  );
  return db.batch([
    visiblePost(db, tenant, postId),
    ownerSubscribed(db, ids),
    db.select({ id: postPlatforms.id }).from(postPlatforms).where(syncable).orderBy(asc(postPlatforms.id)),
    db
      .update(postPlatforms)
      .set({ analyticsSyncedAt: new Date(now) })
      .where(
        and(
          syncable,
          exists(ownerSubscribed(db, ids)),
          or(
            isNull(postPlatforms.analyticsSyncedAt),
            lt(postPlatforms.analyticsSyncedAt, new Date(now - SYNC_COOLDOWN_MS)),
          ),
        ),
      )
      .returning({ id: postPlatforms.id }),
  ]);
}
