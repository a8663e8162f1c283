// Tenant scope: every query of a user's data is limited to the workspaces the user is a member of.
import { eq, inArray, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { workspaceMembers } from "../db/schema";
import type { Database } from "../http/types";

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
