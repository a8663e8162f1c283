import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { GAP_UNITS, MODES, PLATFORMS, POST_STATUSES, REVIEW_ACTIONS, REVIEWER_TYPES } from "../enums";
import { createdAt, id, updatedAt } from "./columns";
import { users, workspaces } from "./tenants";

/** An account the keep-alive may refresh: connected, not expired, with both tokens (the indexes' WHERE). */
export const REFRESHABLE =
  "disconnected_at IS NULL AND expired_at IS NULL AND access_token_enc IS NOT NULL AND refresh_token_enc IS NOT NULL";

/** The last refresh, else the connection: what an `every` keep-alive rule counts from. */
export const LAST_REFRESH_OR_CONNECTION =
  "(CASE WHEN last_refreshed_at IS NULL THEN created_at ELSE last_refreshed_at END)";

export const accounts = sqliteTable(
  "accounts",
  {
    id: id(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    platform: text("platform", { enum: PLATFORMS }).notNull(),
    platformUserId: text("platform_user_id"),
    username: text("username").notNull(),
    name: text("name").notNull(),
    avatar: text("avatar"),
    isVerified: integer("is_verified", { mode: "boolean" }).notNull().default(false),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    supportThreads: integer("support_threads", { mode: "boolean" }).notNull().default(true),
    // Platform tokens, AES-GCM encrypted under ENCRYPTION_KEY.
    accessTokenEnc: text("access_token_enc"),
    refreshTokenEnc: text("refresh_token_enc"),
    tokenExpiresAt: integer("token_expires_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // Set when a token refresh failed for good (src/accounts/tokens.ts); cleared by a reconnect.
    expiredAt: integer("expired_at", { mode: "timestamp_ms" }),
    // The last successful token refresh, and the last refresh failure `{code, message}` (JSON), cleared
    // by a successful refresh or a reconnect (src/accounts/tokens.ts): the account's `health`.
    lastRefreshedAt: integer("last_refreshed_at", { mode: "timestamp_ms" }),
    lastError: text("last_error", { mode: "json" }).$type<{ code: string; message: string }>(),
    // Set by a disconnect (DELETE /api/v1/accounts/{id}): the account leaves the lists and cannot be
    // targeted or published to, its tokens are gone, its published rows stay; a connect of the same
    // identity in the same workspace clears it (src/accounts/queries.ts).
    disconnectedAt: integer("disconnected_at", { mode: "timestamp_ms" }),
    // Who signed in to grant the account's token: the platform user of the consent (a LinkedIn member for
    // their profile and every organisation connected through them, a Facebook user for their Pages, a
    // Google account for its channels). Accounts resting on one grant share it, in any tenant; null for
    // an account connected before it was recorded or created by the operator (src/accounts/grant.ts).
    grantUserId: text("grant_user_id"),
    // The workspace's mode, copied by a trigger (migrations/0025): background work picks the account's
    // adapter by it (a test account's calls go to the emulators) without reading the workspace.
    mode: text("mode", { enum: MODES }).notNull().default("live"),
  },
  (t) => [
    index("accounts_workspace_id_idx").on(t.workspaceId, t.id),
    // Whether a grant is still used when one of its accounts is disconnected (src/accounts/grant.ts).
    index("accounts_grant_idx").on(t.platform, t.grantUserId),
    // A platform's push names the account by its platform id alone, in any tenant (src/platform-webhooks).
    index("accounts_platform_user_idx").on(t.platform, t.platformUserId),
    // A connect upserts by the platform's user (src/accounts/queries.ts); NULLs (accounts created
    // without one) never collide.
    uniqueIndex("accounts_identity_idx").on(t.workspaceId, t.platform, t.platformUserId),
    // The cron's keep-alive (src/accounts/keep-alive.ts) reads, per platform, the refreshable accounts
    // due by now in the order of its rule's column: the token's end, or the last refresh (else the
    // connection). Partial: a disconnected, expired or token-less account is never in them.
    index("accounts_keep_alive_expiry_idx").on(t.platform, t.tokenExpiresAt).where(sql.raw(REFRESHABLE)),
    index("accounts_keep_alive_refreshed_idx")
      // LAST_REFRESH_OR_CONNECTION, spelt without a comma (drizzle-kit splits an index's expression at one).
      .on(t.platform, sql.raw(LAST_REFRESH_OR_CONNECTION))
      .where(sql.raw(REFRESHABLE)),
  ],
);

export const posts = sqliteTable(
  "posts",
  {
    id: id(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    // The user who created the post: their subscription gates analytics sync.
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    status: text("status", { enum: POST_STATUSES }).notNull().default("DRAFT"),
    // The texts of the content items, in order; their media live in post_media.
    content: text("content", { mode: "json" }).$type<string[]>().notNull(),
    scheduledAt: integer("scheduled_at", { mode: "timestamp_ms" }),
    publishNow: integer("publish_now", { mode: "boolean" }).notNull().default(false),
    repeatable: integer("repeatable", { mode: "boolean" }).notNull().default(false),
    repeatableTimes: integer("repeatable_times"),
    repeatableGap: integer("repeatable_gap"),
    repeatableGapUnit: text("repeatable_gap_unit", { enum: GAP_UNITS }),
    remainingPosts: integer("remaining_posts"),
    autoPlug: text("auto_plug", { mode: "json" }).$type<Record<string, unknown>>(),
    // Grows by one with every change of the content, targets, time or settings: an approval names the
    // version the approver saw (src/approvals), so a post changed since is never approved unseen.
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("posts_workspace_id_idx").on(t.workspaceId, t.id),
    // The list's filters, tenant first (src/posts/queries.ts filterIndex): a filter reads the caller's
    // posts only, never another tenant's of the same status or date.
    index("posts_workspace_status_idx").on(t.workspaceId, t.status, t.id),
    index("posts_workspace_scheduled_idx").on(t.workspaceId, t.scheduledAt, t.id),
    index("posts_due_idx").on(t.status, t.scheduledAt),
    index("posts_status_updated_idx").on(t.status, t.updatedAt),
  ],
);

// A post's review history (src/approvals): submitted for approval, edited while waiting or after an
// approval, approved, rejected; written in the batch of the change it records.
export const postReviews = sqliteTable(
  "post_reviews",
  {
    id: id(),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    action: text("action", { enum: REVIEW_ACTIONS }).notNull(),
    version: integer("version").notNull(),
    note: text("note"),
    byType: text("by_type", { enum: REVIEWER_TYPES }).notNull(),
    byName: text("by_name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("post_reviews_post_id_idx").on(t.postId, t.id)],
);

export const postMedia = sqliteTable(
  "post_media",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    itemIndex: integer("item_index").notNull(),
    position: integer("position").notNull(),
    // No foreign key: deleting a media item keeps the links of posts that published it (src/media/queries.ts),
    // with the item's summary copied into the three columns below; other links are deleted with the item.
    mediaId: integer("media_id").notNull(),
    // The deleted item's summary (null while the item exists: its own row is read).
    name: text("name"),
    mimeType: text("mime_type"),
    size: integer("size"),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.itemIndex, t.position] }),
    index("post_media_media_id_idx").on(t.mediaId),
  ],
);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The cron's analytics and comments refresh (src/analytics/refresh.ts): [age of the publication below
 * which, interval between syncs]. Past the last tier a post is no longer refreshed by the cron (an
 * on-demand sync, or a platform's push, still reads it).
 */
export const SYNC_TIERS = [
  [DAY, 15 * MINUTE],
  [30 * DAY, DAY],
] as const;

/**
 * `sync_due_at`: the first instant t at which a PUBLISHED row with a platform post is due, that is when
 * t - last > interval(t - published), where `last` is its last sync (or pass-over) and `published` its
 * last publication (the last `posted_on`, else `updated_at`). The interval grows with age, so t is the
 * earliest tier in which it falls: max(tier start, last + interval + 1 ms); none (null) once it falls
 * past the last tier. Never synced: 0 (due now, whatever its age: every row is read once).
 */
const SYNC_DUE_AT = (() => {
  const published = "coalesce(json_extract(posted_on, '$[#-1]'), updated_at)";
  const last = "max(coalesce(analytics_synced_at, 0), coalesce(sync_skipped_at, 0))";
  // Tier k spans ages [start, end): its first due instant, if it falls before the tier's end.
  const tiers = SYNC_TIERS.map(([below, every], k) => {
    const firstDue =
      k === 0
        ? `(${last} + ${every + 1})`
        : `max(${published} + ${SYNC_TIERS[k - 1]![0]}, ${last} + ${every + 1})`;
    return `WHEN ${firstDue} < ${published} + ${below} THEN ${firstDue}`;
  });
  return `(CASE WHEN status <> 'PUBLISHED' OR platform_post_id IS NULL THEN NULL WHEN analytics_synced_at IS NULL AND sync_skipped_at IS NULL THEN 0 ${tiers.join(" ")} ELSE NULL END)`;
})();

// One row per target account of a post: the API's "platform row".
export const postPlatforms = sqliteTable(
  "post_platforms",
  {
    id: id(),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    // No cascade: an account is detached, never deleted, so its published rows keep their history
    // (migrations/0015); the account goes only with its workspace, and the posts (with their rows) too.
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    platform: text("platform", { enum: PLATFORMS }).notNull(),
    status: text("status", { enum: POST_STATUSES }).notNull().default("DRAFT"),
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    analytics: text("analytics", { mode: "json" }).$type<Record<string, number>>().notNull(),
    platformPostId: text("platform_post_id"),
    postUrl: text("post_url"),
    // UTC instants (ms) at which this row was published, one per repetition.
    postedOn: text("posted_on", { mode: "json" }).$type<number[]>().notNull(),
    // The platform's answer to the last failed attempt: {code, message}, null once published.
    error: text("error", { mode: "json" }).$type<RowError>(),
    attempts: integer("attempts").notNull().default(0),
    // What the platform handed out for the publication in progress before its final call (uploaded media
    // ids, containers, upload sessions, TikTok's publish_id), recorded as each exists so a later attempt
    // resumes it instead of starting over: `{fingerprint, ...}` (src/publishing/progress.ts).
    progress: text("progress", { mode: "json" }).$type<Record<string, unknown>>(),
    // Published, but the platform has not yet given the post's public id (TikTok, before moderation):
    // `platform_post_id` is the id it gave so far, `post_url` null, and a follow-up read fills both in.
    awaitingPublicId: integer("awaiting_public_id", { mode: "boolean" }).notNull().default(false),
    // The lease of the attempt in flight: a consumer publishes a row only while it holds it, and a lease
    // older than the attempt timeout is taken over (the worker died).
    attemptId: text("attempt_id"),
    attemptStartedAt: integer("attempt_started_at", { mode: "timestamp_ms" }),
    analyticsSyncedAt: integer("analytics_synced_at", { mode: "timestamp_ms" }),
    // When the cron last passed the row over because its post's owner has no syncing subscription: the
    // row waits its interval as if synced (src/analytics/refresh.ts), so lapsed owners' rows are not
    // read again on every run.
    syncSkippedAt: integer("sync_skipped_at", { mode: "timestamp_ms" }),
    // When the cron's refresh is next due (ms), kept by SQLite from the columns it depends on; null when
    // the row is not refreshed (any more: past 30 days). The cron walks `post_platforms_sync_idx` up to now.
    syncDueAt: integer("sync_due_at").generatedAlwaysAs(sql.raw(SYNC_DUE_AT), { mode: "virtual" }),
    // Auto-plug: claimed once per row (plugged_at), then the reply's id once the platform has it.
    pluggedAt: integer("plugged_at", { mode: "timestamp_ms" }),
    plugPostId: text("plug_post_id"),
    // A reply the platform refused for good ({code, message}): the plug is not tried again.
    plugError: text("plug_error", { mode: "json" }).$type<RowError>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("post_platforms_post_id_idx").on(t.postId),
    index("post_platforms_account_id_idx").on(t.accountId, t.platformPostId),
    // The account report's order (newest platform post first, numerically: longer ids are larger), so a
    // page of it walks the index instead of sorting every row of the account (src/analytics/queries.ts).
    index("post_platforms_account_order_idx").on(
      t.accountId,
      sql`length(platform_post_id)`,
      t.platformPostId,
      t.id,
    ),
    index("post_platforms_sync_idx").on(t.syncDueAt),
  ],
);

// The sums over an account's PUBLISHED platform rows of their metrics (`analytics` JSON), maintained by
// triggers (migrations/0006) on every insert, delete and change of a row's status, analytics or account,
// whatever writes it: the analytics reports read one row per account instead of summing every row.
// The engagement rate of a set of accounts derives from the last three columns (src/analytics/queries.ts).
export const accountMetrics = sqliteTable("account_metrics", {
  accountId: integer("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  comments: integer("comments").notNull().default(0),
  likes: integer("likes").notNull().default(0),
  shares: integer("shares").notNull().default(0),
  impressions: integer("impressions").notNull().default(0),
  quotes: integer("quotes").notNull().default(0),
  saves: integer("saves").notNull().default(0),
  // Σ engagement_rate × impressions, for the rate weighted by impressions.
  rateWeighted: real("rate_weighted").notNull().default(0),
  // Σ and number of the non-zero rates, for their mean when no row has impressions.
  rateNonzeroSum: real("rate_nonzero_sum").notNull().default(0),
  rateNonzeroCount: integer("rate_nonzero_count").notNull().default(0),
});

export const labels = sqliteTable(
  "labels",
  {
    id: id(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    color: text("color").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("labels_workspace_id_idx").on(t.workspaceId, t.id)],
);

export const postLabels = sqliteTable(
  "post_labels",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    labelId: integer("label_id")
      .notNull()
      .references(() => labels.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.postId, t.labelId] }), index("post_labels_label_id_idx").on(t.labelId)],
);

// The comment inbox (src/comments): every comment read on a published post, stored once per (post,
// platform, platform comment id). The workspace and account are copied from the platform row so the
// inbox is listed through tenant-first indexes; comments stay when their account is disconnected.
export const comments = sqliteTable(
  "comments",
  {
    id: id(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    // Accounts are never deleted, only disconnected (their workspace's deletion takes both).
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    platform: text("platform", { enum: PLATFORMS }).notNull(),
    platformCommentId: text("platform_comment_id"),
    // The comment this one answers: the platform's id as read, and ours once that comment is stored.
    platformParentId: text("platform_parent_id"),
    parentId: integer("parent_id"),
    content: text("content").notNull(),
    authorName: text("author_name").notNull(),
    // CRM contact of the author when known: {name, username, profile_url, ...}.
    contact: text("contact", { mode: "json" }).$type<Record<string, unknown>>(),
    url: text("url"),
    // Written by the connected account itself.
    isOwn: integer("is_own", { mode: "boolean" }).notNull().default(false),
    hidden: integer("hidden", { mode: "boolean" }).notNull().default(false),
    // When the account replied to it through the service (null: not yet).
    repliedAt: integer("replied_at", { mode: "timestamp_ms" }),
    // When the account deleted it through the service: a tombstone, so that no later sync of a stale read
    // brings it back (nor fires comment.received again); the inbox lists none.
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
    // When the sync first stored it: the batch that stores a comment records its comment.received by it.
    receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
    // When it was written, as the platform says.
    createdAt: createdAt(),
  },
  (t) => [
    index("comments_post_id_idx").on(t.postId, t.id),
    // The inbox's order (newest id first) within a tenant, and within one of its accounts.
    index("comments_workspace_id_idx").on(t.workspaceId, t.id),
    index("comments_account_id_idx").on(t.accountId, t.id),
    // Sync stores each platform comment once, however often it runs.
    uniqueIndex("comments_platform_comment_unique").on(t.postId, t.platform, t.platformCommentId),
  ],
);

// Webhooks (src/webhooks): the endpoints a workspace registered, the events that happened, and one
// delivery per (event, endpoint) with its attempts.
/** A platform row's last failure, as its platform reported it. */
export type RowError = { code: string; message: string } | null;
