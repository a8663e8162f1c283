// Tenant scope: every query of a user's data is limited to the workspaces the user is a member of. It
// lives with the database, below every feature, since every feature's queries use it.
import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";
import { workspaceMembers, workspaces } from "./schema";

/** `column IN (SELECT workspace_id FROM workspace_members WHERE user_id = ?)`, usable inside a batch. */
export function inUserWorkspaces(db: Database, column: SQLiteColumn, userId: number): SQL {
  return inArray(
    column,
    db
      .select({ id: workspaceMembers.workspaceId })
      .from(workspaceMembers)
      .where(eq(workspaceMembers.userId, userId)),
  );
}

/** The workspace, if the user is a member of it (an empty result otherwise); usable inside a batch. */
export function accessibleWorkspace(db: Database, userId: number, workspaceId: number) {
  return db
    .select()
    .from(workspaces)
    .where(and(eq(workspaces.id, workspaceId), inUserWorkspaces(db, workspaces.id, userId)));
}
