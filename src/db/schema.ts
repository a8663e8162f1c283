// The relational model of the whole service. Times are UTC instants stored as integer milliseconds
// (`timestamp_ms`); they are rendered in the owning workspace's zone by the presenters.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
  type Ability,
  DEFAULTS,
  DELIVERY_STATUSES,
  GAP_UNITS,
  MEDIA_KINDS,
  MEDIA_STATES,
  PLATFORMS,
  POST_STATUSES,
  SUBSCRIPTION_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
  WORKSPACE_TYPES,
} from "./enums";

const id = () => integer("id").primaryKey({ autoIncrement: true });
const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);
const updatedAt = () =>
  integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

export const users = sqliteTable("users", {
  id: id(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const subscriptions = sqliteTable("subscriptions", {
  id: id(),
  userId: integer("user_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
  updatedAt: updatedAt(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // SHA-256 (hex) of the whole key; the plaintext is shown once and never stored.
    keyHash: text("key_hash").notNull(),
    // The first characters of the key, enough for a person to recognise it in a list.
    keyPrefix: text("key_prefix").notNull(),
    abilities: text("abilities", { mode: "json" }).$type<Ability[]>().notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    // AES-GCM ciphertext (base64) of the delegation signing secret.
    signingSecretEnc: text("signing_secret_enc"),
    createdAt: createdAt(),
    // Origins a delegation session's callback_url may use; empty or null: any https URL.
    callbackOrigins: text("callback_origins", { mode: "json" }).$type<string[]>(),
  },
  (t) => [uniqueIndex("api_keys_key_hash_unique").on(t.keyHash), index("api_keys_user_id_idx").on(t.userId)],
);

export const workspaces = sqliteTable("workspaces", {
  id: id(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  type: text("type", { enum: WORKSPACE_TYPES }).notNull().default(DEFAULTS.workspaceType),
  logo: text("logo"),
  timezone: text("timezone").notNull().default(DEFAULTS.timezone),
  language: text("language").notNull().default(DEFAULTS.language),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  // Maintained by triggers (migrations/0005): lists answer their exact total without counting rows.
  postCount: integer("post_count").notNull().default(0),
  mediaCount: integer("media_count").notNull().default(0),
});

export const workspaceMembers = sqliteTable(
  "workspace_members",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index("workspace_members_user_id_idx").on(t.userId, t.workspaceId),
  ],
);

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
  },
  (t) => [
    index("accounts_workspace_id_idx").on(t.workspaceId, t.id),
    // A connect upserts by the platform's user (src/accounts/queries.ts); NULLs (accounts created
    // without one) never collide.
    uniqueIndex("accounts_identity_idx").on(t.workspaceId, t.platform, t.platformUserId),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("posts_workspace_id_idx").on(t.workspaceId, t.id),
    index("posts_due_idx").on(t.status, t.scheduledAt),
    index("posts_status_updated_idx").on(t.status, t.updatedAt),
  ],
);

export const postMedia = sqliteTable(
  "post_media",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    itemIndex: integer("item_index").notNull(),
    position: integer("position").notNull(),
    mediaId: integer("media_id")
      .notNull()
      .references(() => media.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.itemIndex, t.position] }),
    index("post_media_media_id_idx").on(t.mediaId),
  ],
);

// One row per target account of a post: the API's "platform row".
export const postPlatforms = sqliteTable(
  "post_platforms",
  {
    id: id(),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
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
    // The lease of the attempt in flight: a consumer publishes a row only while it holds it, and a lease
    // older than the attempt timeout is taken over (the worker died).
    attemptId: text("attempt_id"),
    attemptStartedAt: integer("attempt_started_at", { mode: "timestamp_ms" }),
    analyticsSyncedAt: integer("analytics_synced_at", { mode: "timestamp_ms" }),
    // Auto-plug: claimed once per row (plugged_at), then the reply's id once the platform has it.
    pluggedAt: integer("plugged_at", { mode: "timestamp_ms" }),
    plugPostId: text("plug_post_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("post_platforms_post_id_idx").on(t.postId),
    index("post_platforms_account_id_idx").on(t.accountId, t.platformPostId),
    index("post_platforms_sync_idx").on(t.status, t.analyticsSyncedAt),
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

export const folders = sqliteTable(
  "folders",
  {
    id: id(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    parentId: integer("parent_id"),
    name: text("name").notNull(),
    color: text("color").notNull().default(DEFAULTS.folderColor),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // Maintained by triggers (migrations/0005), like the workspace's counts.
    mediaCount: integer("media_count").notNull().default(0),
  },
  (t) => [
    index("folders_workspace_id_idx").on(t.workspaceId, t.id),
    index("folders_parent_id_idx").on(t.parentId),
  ],
);

export const media = sqliteTable(
  "media",
  {
    id: id(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    folderId: integer("folder_id").references(() => folders.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    // Internal R2 object key; never shown to clients.
    r2Key: text("r2_key").notNull(),
    mimeType: text("mime_type").notNull(),
    type: text("type", { enum: MEDIA_KINDS }).notNull(),
    size: integer("size").notNull().default(0),
    state: text("state", { enum: MEDIA_STATES }).notNull().default("ready"),
    progress: integer("progress").notNull().default(100),
    sourceUrl: text("source_url"),
    error: text("error"),
    alt: text("alt"),
    aiGeneratedId: integer("ai_generated_id"),
    isReference: integer("is_reference", { mode: "boolean" }).notNull().default(false),
    etag: text("etag"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("media_workspace_id_idx").on(t.workspaceId, t.folderId, t.id),
    uniqueIndex("media_r2_key_unique").on(t.r2Key),
  ],
);

export const comments = sqliteTable(
  "comments",
  {
    id: id(),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    platform: text("platform", { enum: PLATFORMS }).notNull(),
    platformCommentId: text("platform_comment_id"),
    content: text("content").notNull(),
    authorName: text("author_name").notNull(),
    // CRM contact of the author when known: {name, username, profile_url, ...}.
    contact: text("contact", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("comments_post_id_idx").on(t.postId, t.id),
    // Sync stores each platform comment once, however often it runs.
    uniqueIndex("comments_platform_comment_unique").on(t.postId, t.platform, t.platformCommentId),
  ],
);

// Webhooks (src/webhooks): the endpoints a workspace registered, the events that happened, and one
// delivery per (event, endpoint) with its attempts.
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: id(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<WebhookEventType[]>().notNull(),
    // The signing secret (`whsec_…`), AES-GCM encrypted under ENCRYPTION_KEY; shown once.
    secretEnc: text("secret_enc").notNull(),
    // The secret a roll replaced: deliveries are signed with it too until it expires (24 hours).
    previousSecretEnc: text("previous_secret_enc"),
    previousSecretExpiresAt: integer("previous_secret_expires_at", { mode: "timestamp_ms" }),
    // The first failed attempt since the last success; null while the endpoint answers.
    failingSince: integer("failing_since", { mode: "timestamp_ms" }),
    disabledAt: integer("disabled_at", { mode: "timestamp_ms" }),
    disabledReason: text("disabled_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_workspace_id_idx").on(t.workspaceId, t.id)],
);

export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    // Deterministic (`evt_<type>_<record>_<version>`), so an event emitted twice is stored once.
    id: text("id").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    type: text("type", { enum: WEBHOOK_EVENT_TYPES }).notNull(),
    // The exact JSON body every endpoint receives (signed as is): `{id, type, created_at, data}`.
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_events_workspace_created_idx").on(t.workspaceId, t.createdAt)],
);

/** One attempt of a delivery, as GET /webhooks/{id}/deliveries shows it. */
export type DeliveryAttempt = {
  attempt: number;
  at: number;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
};

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    // Every attempt, oldest first (at most MAX_ATTEMPTS).
    log: text("log", { mode: "json" }).$type<DeliveryAttempt[]>().notNull().default(sql`'[]'`),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    // The lease of the attempt in flight, so two copies of a message do not post at once.
    attemptStartedAt: integer("attempt_started_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint_idx").on(t.eventId, t.endpointId),
    index("webhook_deliveries_endpoint_id_idx").on(t.endpointId, t.id),
  ],
);

// A post's settlement waiting to be told to the webhooks: written in the batch that settles the post
// (src/publishing/post-status.ts), deleted once its event is recorded and queued; what a crash between
// the two leaves behind, the cron emits (src/webhooks/outbox.ts). `at` is the settlement's time.
export const webhookOutbox = sqliteTable(
  "webhook_outbox",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    at: integer("at").notNull(),
    status: text("status", { enum: POST_STATUSES }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.at] }), index("webhook_outbox_at_idx").on(t.at)],
);

/** A platform row's last failure, as its platform reported it. */
export type RowError = { code: string; message: string } | null;

export type User = typeof users.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type Workspace = typeof workspaces.$inferSelect;
export type Account = typeof accounts.$inferSelect;
export type Post = typeof posts.$inferSelect;
export type PostPlatform = typeof postPlatforms.$inferSelect;
export type Label = typeof labels.$inferSelect;
export type Folder = typeof folders.$inferSelect;
export type Media = typeof media.$inferSelect;
export type Comment = typeof comments.$inferSelect;
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookEvent = typeof webhookEvents.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
