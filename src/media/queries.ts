// Media queries: the workspace/folder check every write starts with, chunked inserts, the paginated
// list, the tenant-scoped delete, and the lookup behind a signed link.
import { and, desc, eq, lt, ne, type SQL, sql, sum } from "drizzle-orm";
import { insertInChunks, runBatch } from "../db/batch";
import type { Database } from "../db/client";
import { folders, type Media, media, workspaces } from "../db/schema";
import { accessibleWorkspace, inUserWorkspaces } from "../db/tenancy";
import { folderOfWorkspace } from "../folders/queries";
import { invalidField, notFound } from "../http/errors";

/** Bytes a workspace's items take (or will take, for imports still running); usable inside a batch. */
export const workspaceUsage = (db: Database, workspaceId: number | SQL, except?: number) =>
  db
    .select({ bytes: sum(media.size).mapWith(Number) })
    .from(media)
    .where(
      and(
        eq(media.workspaceId, workspaceId),
        ne(media.state, "failed"),
        except ? ne(media.id, except) : undefined,
      ),
    );

/**
 * 404 `Workspace not found.` unless the user can access it; 422 on `folder_id` unless it is a folder of
 * it. Answers the bytes the workspace already stores, read in the same round trip.
 */
export async function requireTarget(
  db: Database,
  userId: number,
  workspaceId: number,
  folderId: number | null | undefined,
): Promise<{ usage: number }> {
  const [workspaceRows, usageRows, folderRows] = await db.batch([
    accessibleWorkspace(db, userId, workspaceId),
    workspaceUsage(db, workspaceId),
    folderOfWorkspace(db, workspaceId, folderId ?? 0),
  ]);
  if (workspaceRows.length === 0) throw notFound("Workspace");
  if (folderId && folderRows.length === 0) {
    throw invalidField("folder_id", "The selected folder id is invalid.");
  }
  return { usage: usageRows[0]?.bytes ?? 0 };
}

export type NewMedia = typeof media.$inferInsert;

/** Inserts rows in one batch (one round trip), in order, and returns them with their ids. */
export async function insertMedia(db: Database, rows: NewMedia[]): Promise<Media[]> {
  const now = new Date();
  const full = rows.map((row) => ({ createdAt: now, updatedAt: now, ...row }));
  const results = await runBatch(
    db,
    insertInChunks(db, media, full).map((statement) => statement.returning()),
  );
  // One transaction, so ids grow in insertion order; RETURNING itself promises no order.
  return results.flat().sort((a, b) => a.id - b.id);
}

/** `beforeId`: the page starts below it (a followed `next_page_url`), instead of at its offset. */
export type MediaFilter = {
  workspaceId?: number;
  folderId?: number;
  page: number;
  perPage: number;
  beforeId?: number;
};

/**
 * One page of the user's items, newest first, and their total, in one round trip; 404 when the
 * workspace asked for is not one of the user's (checked in the same batch).
 */
export async function mediaPage(db: Database, userId: number, filter: MediaFilter) {
  const scope = and(
    inUserWorkspaces(db, media.workspaceId, userId),
    filter.workspaceId ? eq(media.workspaceId, filter.workspaceId) : undefined,
    filter.folderId ? eq(media.folderId, filter.folderId) : undefined,
    filter.beforeId ? lt(media.id, filter.beforeId) : undefined,
  );
  // The total from the maintained counters (migrations/0005): a folder's, a workspace's, or the sum
  // over the user's workspaces; never a count of the items.
  const total = filter.folderId
    ? db
        .select({ total: folders.mediaCount })
        .from(folders)
        .where(
          and(
            eq(folders.id, filter.folderId),
            inUserWorkspaces(db, folders.workspaceId, userId),
            filter.workspaceId ? eq(folders.workspaceId, filter.workspaceId) : undefined,
          ),
        )
    : db
        .select({ total: sql<number>`coalesce(sum(${workspaces.mediaCount}), 0)` })
        .from(workspaces)
        .where(
          and(
            inUserWorkspaces(db, workspaces.id, userId),
            filter.workspaceId ? eq(workspaces.id, filter.workspaceId) : undefined,
          ),
        );
  const [totals, rows, workspace] = await db.batch([
    total,
    db
      .select()
      .from(media)
      .where(scope)
      .orderBy(desc(media.id))
      .limit(filter.perPage)
      .offset(filter.beforeId ? 0 : (filter.page - 1) * filter.perPage),
    accessibleWorkspace(db, userId, filter.workspaceId ?? 0),
  ]);
  if (filter.workspaceId && workspace.length === 0) throw notFound("Workspace");
  return { rows, total: totals[0]?.total ?? 0 };
}

/** Deletes the item if the user can access it; answers its R2 key, or null when there was none. */
export async function deleteMediaOfUser(db: Database, userId: number, id: number): Promise<string | null> {
  const [deleted] = await db
    .delete(media)
    .where(and(eq(media.id, id), inUserWorkspaces(db, media.workspaceId, userId)))
    .returning({ r2Key: media.r2Key });
  return deleted?.r2Key ?? null;
}

/** What a signed link needs of an item (the signature already stands for the tenant check). */
export const mediaToServe = (db: Database, id: number) =>
  db
    .select({
      state: media.state,
      r2Key: media.r2Key,
      mimeType: media.mimeType,
      name: media.name,
      size: media.size,
      etag: media.etag,
    })
    .from(media)
    .where(eq(media.id, id))
    .get();
