import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DEFAULTS, MEDIA_KINDS, MEDIA_STATES } from "../enums";
import { createdAt, id, updatedAt } from "./columns";
import { workspaces } from "./tenants";

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
