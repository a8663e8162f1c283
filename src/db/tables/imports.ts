// Bulk imports (src/imports/): an uploaded batch of posts, validated row by row and created on commit.
// Tenant-scoped like posts: the user, the mode and the workspace. Kept 30 days (the publishing sweep
// purges older ones). Ids are random (`imp_` + 128 bits), never guessable.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { MODES } from "../enums";
import { createdAt, updatedAt } from "./columns";
import { users, workspaces } from "./tenants";

// `importing_media`: a commit started the rows' media URL imports; the next commit creates the posts once
// every item has settled.
export const IMPORT_STATUSES = ["validated", "committing", "importing_media", "committed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const imports = sqliteTable(
  "imports",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: MODES }).notNull(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    status: text("status", { enum: IMPORT_STATUSES }).notNull().default("validated"),
    format: text("format", { enum: ["json", "csv"] }).notNull(),
    // `[{row, input, cells?, problems, failedAtCommit?, mediaIds?}]` as src/imports/rows.ts writes it
    // (at most 1,000 rows); `mediaIds` records the items a row's media URLs became.
    rows: text("rows", { mode: "json" }).$type<unknown[]>().notNull(),
    // When a commit claimed the import: another commit may take it over once this lease is old.
    claimedAt: integer("claimed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("imports_created_at_idx").on(t.createdAt)],
);

/**
 * The posts a commit created, one per row: written in the same batch as the post, so a row is created
 * at most once whatever crashes or races (a second insert of the row fails the batch, post and all).
 */
export const importPosts = sqliteTable(
  "import_posts",
  {
    importId: text("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    row: integer("row").notNull(),
    // No foreign key: a post deleted later leaves the import's record of what it created.
    postId: integer("post_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.row] })],
);
