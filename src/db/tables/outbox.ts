// The outbox of events (src/events/): one row per change a feature must tell, written in the batch that
// makes the change and deleted once the event is recorded (src/webhooks/outbox.ts). The key names the
// change: its family, its record (whose id names its shard) and its version (the post's settlement time,
// the account's expired_at in ms, '' for a media item or a comment, the sync job's message id, a rescheduled post's update time, a reviewed post's version), so recording it twice
// stores one row. No AUTOINCREMENT id: a shard's id ranges (src/db/shards.ts) are not needed here.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

/** The event families: `post.failed` turns out failed or partially published when it is told. */
export const OUTBOX_TYPES = [
  "post.published",
  "post.failed",
  "account.expired",
  "media.settled",
  "analytics.synced",
  "comment.received",
  "post.rescheduled",
  "post.approval_requested",
  "post.approved",
  "post.rejected",
] as const;
export type OutboxType = (typeof OUTBOX_TYPES)[number];

export const outbox = sqliteTable(
  "outbox",
  {
    type: text("type", { enum: OUTBOX_TYPES }).notNull(),
    recordId: integer("record_id").notNull(),
    version: text("version").notNull(),
    // When the change happened; the cron's sweep takes rows older than a minute.
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.type, t.recordId, t.version] }),
    index("outbox_created_at_idx").on(t.createdAt),
  ],
);
