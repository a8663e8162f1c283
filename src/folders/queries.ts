import { and, asc, count, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { folders } from "../db/schema";
import { inUserWorkspaces } from "../db/tenancy";
import type { CreateFolderBody } from "./schemas";

/** How many folders a workspace holds; usable inside a batch. */
export const folderCount = (db: Database, workspaceId: number) =>
  db.select({ n: count() }).from(folders).where(eq(folders.workspaceId, workspaceId));

/** A folder of the workspace, by id (an empty result otherwise); usable inside a batch. */
export const folderOfWorkspace = (db: Database, workspaceId: number, folderId: number) =>
  db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.workspaceId, workspaceId)));

/** The folders of a workspace the user can access, under `parent` (a folder id, "root", or all). */
export const foldersOfWorkspace = (
  db: Database,
  userId: number,
  workspaceId: number,
  parent: number | "root" | undefined,
) =>
  db
    .select()
    .from(folders)
    .where(
      and(
        eq(folders.workspaceId, workspaceId),
        inUserWorkspaces(db, folders.workspaceId, userId),
        parent === undefined
          ? undefined
          : parent === "root"
            ? isNull(folders.parentId)
            : eq(folders.parentId, parent),
      ),
    )
    .orderBy(asc(folders.name), asc(folders.id));

/** Stores a new folder (its workspace and parent checked by the caller) and answers it. */
export const insertFolder = (db: Database, body: CreateFolderBody) =>
  db
    .insert(folders)
    .values({ workspaceId: body.workspace_id, name: body.name, color: body.color, parentId: body.parent_id })
    .returning()
    .get();
