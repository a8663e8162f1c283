// Every enumeration and default the service stores, in one place: the schema, the request validators
// and the response schemas all read them from here.

/**
 * `approvals` (approve or reject a post waiting for approval, create review links) is granted only
 * explicitly: keys created before it existed do not have it (docs/guide.md "Approvals").
 */
export const ABILITIES = ["posts", "workspaces", "accounts", "labels", "approvals"] as const;
export type Ability = (typeof ABILITIES)[number];

/**
 * Live data reaches the platforms; test data only their emulators (ARCHITECTURE "Test mode"). A key and a
 * workspace each have one, fixed at creation; a key sees only its own mode's workspaces.
 */
export const MODES = ["live", "test"] as const;
export type Mode = (typeof MODES)[number];

export const PLATFORMS = [
  "tiktok",
  "instagram",
  "twitter",
  "linkedin",
  "youtube",
  "facebook",
  "pinterest",
  "threads",
] as const;
export type Platform = (typeof PLATFORMS)[number];

export const SUBSCRIPTION_STATUSES = ["active", "trialing", "grace_period", "canceled", "none"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const WORKSPACE_TYPES = ["PERSONAL", "ORGANIZATION"] as const;
export type WorkspaceType = (typeof WORKSPACE_TYPES)[number];

export const POST_STATUSES = [
  "DRAFT",
  "PENDING_APPROVAL",
  "SCHEDULED",
  "PUBLISHING",
  "PUBLISHED",
  "FAILED",
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** A workspace's approval policy: `required` holds every post to publish until someone approves it. */
export const APPROVAL_POLICIES = ["none", "required"] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];

/** What a review history entry records (src/approvals). */
export const REVIEW_ACTIONS = ["submitted", "approved", "rejected", "edited"] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** Who a review entry is by: an API key, a review link, or a console user. */
export const REVIEWER_TYPES = ["key", "link", "user"] as const;
export type ReviewerType = (typeof REVIEWER_TYPES)[number];

export const GAP_UNITS = ["minutes", "hours", "days", "weeks", "months"] as const;
export type GapUnit = (typeof GAP_UNITS)[number];

export const AUTO_PLUG_METRICS = ["likes", "comments", "shares", "impressions"] as const;
export type AutoPlugMetric = (typeof AUTO_PLUG_METRICS)[number];

export const MEDIA_KINDS = ["image", "video"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

export const MEDIA_STATES = ["processing", "ready", "failed"] as const;
export type MediaState = (typeof MEDIA_STATES)[number];

export const DEFAULTS = {
  workspaceType: "PERSONAL",
  timezone: "UTC",
  language: "en",
  folderColor: "#4F46E5",
  apiKeyName: "API key",
} as const satisfies Record<string, string>;

/** What a webhook endpoint can subscribe to (src/webhooks). */
export const WEBHOOK_EVENT_TYPES = [
  "post.published",
  "post.failed",
  "post.partially_published",
  "account.expired",
  "media.ready",
  "media.failed",
  "analytics.synced",
  "comment.received",
  "post.rescheduled",
  "post.approval_requested",
  "post.approved",
  "post.rejected",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/**
 * The event `POST /api/v1/webhooks/{id}/test` sends: to that one endpoint, whatever it subscribes to
 * (nothing subscribes to it).
 */
export const WEBHOOK_TEST_EVENT = "webhook.test";
/** Every type a recorded event (and so a delivery) may have. */
export const DELIVERED_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
export type DeliveredEventType = (typeof DELIVERED_EVENT_TYPES)[number];

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
