// The relational model of the whole service, one module per area in src/db/tables/ (drizzle-kit reads
// them there). Times are UTC instants stored as integer milliseconds (`timestamp_ms`); they are rendered
// in the owning workspace's zone by the presenters.

import type { folders, media } from "./tables/media";
import type { outbox } from "./tables/outbox";
import type { postingQueues } from "./tables/posting-queues";
import type { accounts, comments, labels, postPlatforms, postReviews, posts } from "./tables/posts";
import type { apiKeys, users, workspaces } from "./tables/tenants";
import type { webhookDeliveries, webhookEndpoints, webhookEvents } from "./tables/webhooks";

export * from "./tables/imports";
export * from "./tables/media";
export * from "./tables/outbox";
export * from "./tables/posting-queues";
export * from "./tables/posts";
export * from "./tables/tenants";
export * from "./tables/webhooks";

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
export type OutboxRow = typeof outbox.$inferSelect;
export type PostingQueue = typeof postingQueues.$inferSelect;
export type PostReview = typeof postReviews.$inferSelect;
