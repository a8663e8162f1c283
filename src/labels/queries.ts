import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import { insertWhere } from "../db/batch";
import type { Database } from "../db/client";
import { labels, workspaces } from "../db/schema";
import { inUserWorkspaces, ownedId, ownedWorkspace, type Tenant } from "../db/tenancy";
import type { CreateLabelBody, UpdateLabelBody } from "./schemas";

/**
 * The label if the user can access its workspace, found through the user's workspaces (`ownedId`), so
 * another tenant's label is never read; usable inside a batch.
 */
export const labelOfUser = (_db: Database, tenant: Tenant, id: number) =>
  eq(labels.id, ownedId(labels, tenant, id));

/** The user's workspaces (or the one asked for) and their labels, in one batch. */
export function labelsOfUser(db: Database, tenant: Tenant, workspaceId: number | undefined) {
  // The workspace asked for, through the membership: another tenant's is never read.
  const owned = workspaceId ? ownedWorkspace(tenant, workspaceId) : undefined;
  return [
    db
      .select()
      .from(workspaces)
      .where(owned ? eq(workspaces.id, owned) : inUserWorkspaces(db, workspaces.id, tenant)),
    db
      .select()
      .from(labels)
      .where(
        and(
          inUserWorkspaces(db, labels.workspaceId, tenant),
          owned ? eq(labels.workspaceId, owned) : undefined,
        ),
      )
      .orderBy(asc(labels.id)),
  ] as const;
}

/** How many labels a workspace holds; usable inside a batch. */
export const labelCount = (db: Database, workspaceId: number | SQL) =>
  db.select({ n: count() }).from(labels).where(eq(labels.workspaceId, workspaceId));

/** The workspace of a label of the user's; usable inside a batch. */
export const workspaceOfLabel = (db: Database, tenant: Tenant, id: number) =>
  db
    .select()
    .from(workspaces)
    .where(
      eq(
        workspaces.id,
        db
          .select({ id: labels.workspaceId })
          .from(labels)
          .where(labelOfUser(db, tenant, id)),
      ),
    );

/**
 * Stores a new label in the workspace (checked by the caller) while it holds fewer than `cap` labels,
 * counted in the same statement, so parallel creates cannot pass the cap; answers it, or nothing when
 * the workspace is full.
 */
export const insertLabel = (
  db: Database,
  workspaceId: number,
  body: Pick<CreateLabelBody, "name" | "color">,
  cap: number,
) =>
  insertWhere(
    db,
    labels,
    { workspaceId, name: body.name, color: body.color },
    sql`(${labelCount(db, workspaceId)}) < ${cap}`,
  )
    .returning()
    .get();

/** Renames or recolours the label if the user can access it; answers it (or nothing); usable inside a batch. */
export const updateLabel = (db: Database, tenant: Tenant, id: number, body: UpdateLabelBody) =>
  db
    .update(labels)
    .set({ name: body.name, color: body.color, updatedAt: new Date() })
    .where(labelOfUser(db, tenant, id))
    .returning();

/** Deletes the label if the user can access it; answers its id (or nothing). */
export const deleteLabel = (db: Database, tenant: Tenant, id: number) =>
  db
    .delete(labels)
    .where(labelOfUser(db, tenant, id))
    .returning({ id: labels.id });
