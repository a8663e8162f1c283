import { and, asc, count, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { labels, workspaces } from "../db/schema";
import { inUserWorkspaces } from "../db/tenancy";

/** The label if the user can access its workspace; usable inside a batch. */
export const labelOfUser = (db: Database, userId: number, id: number) =>
  and(eq(labels.id, id), inUserWorkspaces(db, labels.workspaceId, userId));

/** The user's workspaces (or the one asked for) and their labels, in one batch. */
export function labelsOfUser(db: Database, userId: number, workspaceId: number | undefined) {
  const visible = inUserWorkspaces(db, workspaces.id, userId);
  return [
    db
      .select()
      .from(workspaces)
      .where(workspaceId ? and(eq(workspaces.id, workspaceId), visible) : visible),
    db
      .select()
      .from(labels)
      .where(
        and(
          inUserWorkspaces(db, labels.workspaceId, userId),
          workspaceId ? eq(labels.workspaceId, workspaceId) : undefined,
        ),
      )
      .orderBy(asc(labels.id)),
  ] as const;
}

/** How many labels a workspace holds; usable inside a batch. */
export const labelCount = (db: Database, workspaceId: number) =>
  db.select({ n: count() }).from(labels).where(eq(labels.workspaceId, workspaceId));

/** The workspace a label belongs to; usable inside a batch. */
export const workspaceOfLabel = (db: Database, id: number) =>
  db
    .select()
    .from(workspaces)
    .where(eq(workspaces.id, db.select({ id: labels.workspaceId }).from(labels).where(eq(labels.id, id))));
