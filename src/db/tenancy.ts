// Tenant scope: every query of a user's data is limited to the workspaces the user is a member of. It
// lives with the database, below every feature, since every feature's queries use it.
//
// A record named by id is looked up within the user's workspaces, never read first and checked after:
// `ownedId` walks the (workspace_id, id) index of the user's workspaces only, so another tenant's record
// is never read and costs exactly what an absent one does (the rows D1 reads are in Server-Timing).
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { getTableConfig, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";
import type { Mode } from "./enums";
import {
  accounts,
  comments,
  folders,
  labels,
  media,
  posts,
  webhookEndpoints,
  workspaceMembers,
  workspaces,
} from "./schema";

/**
 * Whose data a request sees: a user's, in one mode (a key's principal is one). Test and live workspaces
 * of the same user are different tenants: the other mode's ids are not found.
 */
export type Tenant = { userId: number; mode: Mode };

/** The tenant's memberships: `user_id = ? AND mode = ?`, the index's first two columns. */
const memberOf = (tenant: Tenant) =>
  and(eq(workspaceMembers.userId, tenant.userId), eq(workspaceMembers.mode, tenant.mode))!;

/** `column IN (SELECT workspace_id FROM workspace_members WHERE user_id = ? AND mode = ?)`, usable inside a batch. */
export function inUserWorkspaces(db: Database, column: SQLiteColumn, tenant: Tenant): SQL {
  return inArray(
    column,
    db.select({ id: workspaceMembers.workspaceId }).from(workspaceMembers).where(memberOf(tenant)),
  );
}

/** The tenant's workspace ids, as a subquery (e.g. for a join's condition). */
export const tenantWorkspaceIds = (db: Database, tenant: Tenant) =>
  db.select({ id: workspaceMembers.workspaceId }).from(workspaceMembers).where(memberOf(tenant));

/**
 * `(SELECT workspace_id FROM workspace_members WHERE user_id = ? AND workspace_id = ?)`: the workspace's
 * id if the user is a member of it, else NULL. Only the user's membership is read, never the workspace.
 */
export const ownedWorkspace = (tenant: Tenant, workspaceId: number): SQL<number> =>
  sql<number>`(SELECT ${sql.identifier(workspaceMembers.workspaceId.name)} FROM ${workspaceMembers}
    WHERE ${sql.identifier(workspaceMembers.userId.name)} = ${tenant.userId}
    AND ${sql.identifier(workspaceMembers.mode.name)} = ${tenant.mode}
    AND ${sql.identifier(workspaceMembers.workspaceId.name)} = ${workspaceId})`;

/** The workspace, if the user is a member of it (an empty result otherwise); usable inside a batch. */
export function accessibleWorkspace(db: Database, tenant: Tenant, workspaceId: number) {
  return db
    .select()
    .from(workspaces)
    .where(eq(workspaces.id, ownedWorkspace(tenant, workspaceId)));
}

/** The tables looked up by id, each with its index on (workspace_id, id). */
const BY_WORKSPACE = new Map<SQLiteTable, string>([
  [posts, "posts_workspace_id_idx"],
  [accounts, "accounts_workspace_id_idx"],
  [labels, "labels_workspace_id_idx"],
  [media, "media_workspace_item_idx"],
  [webhookEndpoints, "webhook_endpoints_workspace_id_idx"],
  [folders, "folders_workspace_id_idx"],
  [comments, "comments_workspace_id_idx"],
]);

/** Each table's (workspace_id, id) index, checked against the schema once: a rename fails loudly. */
function indexOf(table: SQLiteTable): string {
  const name = BY_WORKSPACE.get(table);
  const config = getTableConfig(table);
  const index = config.indexes.find((i) => i.config.name === name);
  const columns = index?.config.columns.map((c) => (c as SQLiteColumn).name);
  if (!name || columns?.join() !== "workspace_id,id")
    throw new Error(`${config.name} has no (workspace_id, id) index to look records up by`);
  return name;
}

/**
 * `(SELECT id FROM <table> INDEXED BY <its (workspace_id, id) index> WHERE workspace_id IN (the user's
 * workspaces) AND id = ?)`: the record's id if the user can access it, else NULL. Compare a column with
 * it (`eq(posts.id, ownedId(posts, userId, id))`): the record is then found only through the user's own
 * index entries, so another tenant's record is never read, and a 404 costs the same rows either way.
 */
export function ownedId(table: SQLiteTable, tenant: Tenant, id: number): SQL<number> {
  return sql<number>`(SELECT id FROM ${table} INDEXED BY ${sql.identifier(indexOf(table))}
    WHERE workspace_id IN (SELECT ${sql.identifier(workspaceMembers.workspaceId.name)} FROM ${workspaceMembers}
      WHERE ${sql.identifier(workspaceMembers.userId.name)} = ${tenant.userId}
      AND ${sql.identifier(workspaceMembers.mode.name)} = ${tenant.mode})
    AND id = ${id})`;
}
