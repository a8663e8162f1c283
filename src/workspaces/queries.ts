// The workspaces list's query, the change of a workspace's zone (the console's workspaces page) and of
// its settings (PATCH /api/v1/workspaces/{id}).
import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import type { ApprovalPolicy } from "../db/enums";
import { workspaces } from "../db/schema";
import { inUserWorkspaces, ownedWorkspace, type Tenant } from "../db/tenancy";

/** The user's workspaces, oldest first; usable inside a batch. */
export const workspacesOfUser = (db: Database, tenant: Tenant) =>
  db
    .select()
    .from(workspaces)
    .where(inUserWorkspaces(db, workspaces.id, tenant))
    .orderBy(asc(workspaces.id));

/** Sets the user's workspace's settings; the workspace as it now is, or undefined when it is not theirs. */
export async function updateWorkspace(
  db: Database,
  tenant: Tenant,
  workspaceId: number,
  changes: { approval?: ApprovalPolicy; timezone?: string },
) {
  const [updated] = await db
    .update(workspaces)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(workspaces.id, ownedWorkspace(tenant, workspaceId)))
    .returning();
  return updated;
}
