import { and, asc, count, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { labels, workspaces } from "../db/schema";
import { inUserWorkspaces } from "../db/tenancy";
import type { CreateLabelBody, UpdateLabelBody } from "./schemas";

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

/** Stores a new label in the workspace (checked by the caller) and answers it. */
export const insertLabel = (
  db: Database,
  workspaceId: number,
  body: Pick<CreateLabelBody, "name" | "color">,
) => db.insert(labels).values({ workspaceId, name: body.name, color: body.color }).returning().get();

/** Renames or recolours the label if the user can access it; answers it (or nothing); usable inside a batch. */
export const updateLabel = (db: Database, userId: number, id: number, body: UpdateLabelBody) =>
  db
    .update(labels)
    .set({ name: body.name, color: body.color, updatedAt: new Date() })
    .where(labelOfUser(db, userId, id))
    .returning();

/** Deletes the label if the user can access it; answers its id (or nothing). */
export const deleteLabel = (db: Database, userId: number, id: number) =>
  db
    .delete(labels)
    .where(labelOfUser(db, userId, id))
    .returning({ id: labels.id });
