import { asc } from "drizzle-orm";
import type { Database } from "../db/client";
import { accounts } from "../db/schema";
import { inUserWorkspaces } from "../workspaces/queries";

/** Every account of every workspace the user can access, oldest first; usable inside a batch. */
export const accountsOfUser = (db: Database, userId: number) =>
  db
    .select()
    .from(accounts)
    .where(inUserWorkspaces(db, accounts.workspaceId, userId))
    .orderBy(asc(accounts.id));
