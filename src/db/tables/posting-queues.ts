// Posting queues (src/posting-queues/): weekly slots in wall-clock time. One row per account that has a
// queue of its own, and one per workspace for the default its accounts inherit (`account_id` 0: ids
// start at 1). Slots stay local times (`{day, time}`), never instants, so a DST change moves nothing.
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { workspaces } from "./tenants";

/** `account_id` of a workspace's default queue. */
export const WORKSPACE_DEFAULT = 0;

export const postingQueues = sqliteTable(
  "posting_queues",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    // No foreign key: 0 names the workspace's default. Accounts are detached, never deleted; they go with
    // their workspace, and so does this row.
    accountId: integer("account_id").notNull(),
    // IANA zone; null: the workspace's own.
    timezone: text("timezone"),
    // `[{day, time}]`: ISO day of the week (1 = Monday) and `HH:MM`, sorted.
    slots: text("slots", { mode: "json" }).$type<Array<{ day: number; time: string }>>().notNull(),
    paused: integer("paused", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.accountId] })],
);
