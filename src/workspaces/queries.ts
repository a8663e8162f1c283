// The workspaces list's query.
import { asc } from "drizzle-orm";
import type { Database } from "../db/client";
import { workspaces } from "../db/schema";
import { inUserWorkspaces, type Tenant } from "../db/tenancy";

/** The user's workspaces, oldest first; usable inside a batch. */
export const workspacesOfUser = (db: Database, tenant: Tenant) =>
  db
    .select()
    .from(workspaces)
    .where(inUserWorkspaces(db, workspaces.id, tenant))
    .orderBy(asc(workspaces.id));
