// Media queries: the workspace/folder check every write starts with, and chunked inserts.
import { and, eq } from "drizzle-orm";
import { chunkForD1, runBatch } from "../db/batch";
import type { Database } from "../db/client";
import { folders, type Media, media } from "../db/schema";
import { invalidField, notFound } from "../http/errors";
import { accessibleWorkspace } from "../workspaces/queries";

/** 404 `Workspace not found.` unless the user can access it; 422 on `folder_id` unless it is a folder of it. */
export async function requireTarget(
  db: Database,
  userId: number,
  workspaceId: number,
  folderId: number | null | undefined,
): Promise<void> {
  const workspace = accessibleWorkspace(db, userId, workspaceId);
  const folder = db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.id, folderId ?? 0), eq(folders.workspaceId, workspaceId)));
  const [workspaceRows, folderRows] = folderId ? await db.batch([workspace, folder]) : [await workspace, []];
  if (workspaceRows.length === 0) throw notFound("Workspace");
  if (folderId && folderRows.length === 0) {
    throw invalidField("folder_id", "The selected folder id is invalid.");
  }
}

export type NewMedia = typeof media.$inferInsert;

/** Inserts rows in one batch (one round trip), in order, and returns them with their ids. */
export async function insertMedia(db: Database, rows: NewMedia[]): Promise<Media[]> {
  const now = new Date();
  const full = rows.map((row) => ({ createdAt: now, updatedAt: now, ...row }));
  const results = await runBatch(
    db,
    chunkForD1(full).map((chunk) => db.insert(media).values(chunk).returning()),
  );
  // One transaction, so ids grow in insertion order; RETURNING itself promises no order.
  return results.flat().sort((a, b) => a.id - b.id);
}
