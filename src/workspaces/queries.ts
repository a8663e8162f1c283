// The workspaces list's query.
import { asc } from "drizzle-orm";
import type { Database } from "../db/client";
import { workspaces } from "../db/schema";
import { inUserWorkspaces } from "../db/tenancy";

/** The user's workspaces, oldest first; usable inside a batch. */
export const workspacesOfUser = (db: Database, userId: number) =>
  db
    .select()
    .from(workspaces)
    .where(inUserWorkspaces(db, workspaces.id, userId))
    .orderBy(asc(workspaces.id));
