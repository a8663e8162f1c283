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
    // An item looked up by id within the caller's workspaces (src/db/tenancy.ts, `scopedId`).
    index("media_workspace_item_idx").on(t.workspaceId, t.id),
    uniqueIndex("media_r2_key_unique").on(t.r2Key),
  ],
);

/**
 * Bytes an upload holds against its workspace's storage quota while its file streams into R2
 * (src/media/quota.ts): taken by one conditional statement before a byte is stored, dropped when the item
 * is inserted (its `size` then counts) or the upload fails. A reservation whose request died is ignored
 * once `expires_at` has passed, and deleted by the next reservation of its workspace.
 */
export const mediaReservations = sqliteTable(
  "media_reservations",
  {
    id: id(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    bytes: integer("bytes").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("media_reservations_workspace_idx").on(t.workspaceId, t.expiresAt)],
);
