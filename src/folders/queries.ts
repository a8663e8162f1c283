import { and, asc, count, eq, isNull, type SQL, sql } from "drizzle-orm";
import { insertWhere } from "../db/batch";
import type { Database } from "../db/client";
import { folders } from "../db/schema";
import { inUserWorkspaces, ownedId, ownedWorkspace, type Tenant } from "../db/tenancy";
import type { CreateFolderBody } from "./schemas";

/** How many folders a workspace holds; usable inside a batch. */
export const folderCount = (db: Database, workspaceId: number | SQL) =>
  db.select({ n: count() }).from(folders).where(eq(folders.workspaceId, workspaceId));

/** A folder of the workspace, by id (an empty result otherwise); usable inside a batch. */
export const folderOfWorkspace = (db: Database, workspaceId: number | SQL, folderId: number) =>
  db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.workspaceId, workspaceId)));

/** The folders of a workspace the user can access, under `parent` (a folder id, "root", or all). */
export const foldersOfWorkspace = (
  db: Database,
  tenant: Tenant,
  workspaceId: number,
  parent: number | "root" | undefined,
) =>
  db
    .select()
    .from(folders)
    .where(
      and(
        // Through the membership: another tenant's folders are never read.
        eq(folders.workspaceId, ownedWorkspace(tenant, workspaceId)),
        inUserWorkspaces(db, folders.workspaceId, tenant),
        parent === undefined
          ? undefined
          : parent === "root"
            ? isNull(folders.parentId)
            : // The parent through the user's folders too: the planner walks `folders_parent_id_idx`,
              // which would otherwise read another tenant's folder's children (issue 29, 2.2).
              eq(folders.parentId, ownedId(folders, tenant, parent)),
      ),
    )
    .orderBy(asc(folders.name), asc(folders.id));

/**
 * Stores a new folder (its workspace and parent checked by the caller) while the workspace holds fewer
 * than `cap` folders, counted in the same statement, so parallel creates cannot pass the cap; answers
 * it, or nothing when the workspace is full.
 */
export const insertFolder = (db: Database, body: CreateFolderBody, cap: number) =>
  insertWhere(
    db,
    folders,
    { workspaceId: body.workspace_id, name: body.name, color: body.color, parentId: body.parent_id },
    sql`(${folderCount(db, body.workspace_id)}) < ${cap}`,
  )
    .returning()
    .get();
