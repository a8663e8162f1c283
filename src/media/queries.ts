// Media queries: the workspace/folder check every write starts with (an upload's with its quota
// reservation), the paginated list, the tenant-scoped delete, and the lookup behind a signed link.
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { folders, media, postMedia, postPlatforms, posts, workspaces } from "../db/schema";
import { accessibleWorkspace, inUserWorkspaces, ownedId, ownedWorkspace, type Tenant } from "../db/tenancy";
import { folderOfWorkspace } from "../folders/queries";
import { invalidField, notFound } from "../http/errors";
import { type Reservation, reserveUpload, workspaceHeld } from "./quota";

/**
 * 404 `Workspace not found.` unless the user can access it; 422 on `folder_id` unless it is a folder of
 * it. Answers the bytes the workspace already holds (src/media/quota.ts), read in the same round trip.
 */
export async function requireTarget(
  db: Database,
  tenant: Tenant,
  workspaceId: number,
  folderId: number | null | undefined,
  now = Date.now(),
): Promise<{ usage: number }> {
  const [workspaceRows, folderRows, usageRows] = await db.batch([
    accessibleWorkspace(db, tenant, workspaceId),
    // Through the membership: another tenant's workspace and folders are never read.
    folderOfWorkspace(db, ownedWorkspace(tenant, workspaceId), folderId ?? 0),
    workspaceHeld(db, ownedWorkspace(tenant, workspaceId), now),
  ]);
  checkTarget(workspaceRows.length > 0, folderId, folderRows.length > 0);
  return { usage: usageRows[0]?.bytes ?? 0 };
}

function checkTarget(workspace: boolean, folderId: number | null | undefined, folder: boolean) {
  if (!workspace) throw notFound("Workspace");
  if (folderId && !folder) throw invalidField("folder_id", "The selected folder id is invalid.");
}

/**
 * requireTarget for an upload, with its reservation taken in the same round trip (src/media/quota.ts):
 * up to `want` bytes, or what is left of `quota` when less. Answers the reservation, null when nothing
 * is left; nothing is reserved for a workspace or folder refused.
 */
export async function reserveTarget(
  db: Database,
  target: { tenant: Tenant; workspaceId: number; folderId: number | null | undefined },
  want: number,
  quota: number,
  now = Date.now(),
): Promise<Reservation | null> {
  const [workspaceRows, folderRows, reserved] = await db.batch([
    accessibleWorkspace(db, target.tenant, target.workspaceId),
    folderOfWorkspace(db, ownedWorkspace(target.tenant, target.workspaceId), target.folderId ?? 0),
    reserveUpload(db, target, want, quota, now),
  ]);
  checkTarget(workspaceRows.length > 0, target.folderId, folderRows.length > 0);
  return reserved[0] ?? null;
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
export async function mediaPage(db: Database, tenant: Tenant, filter: MediaFilter) {
  // The workspace and folder asked for, through the user's workspaces: another tenant's are never read.
  const owned = filter.workspaceId ? ownedWorkspace(tenant, filter.workspaceId) : undefined;
  const scope = and(
    inUserWorkspaces(db, media.workspaceId, tenant),
    owned ? eq(media.workspaceId, owned) : undefined,
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
            eq(folders.id, ownedId(folders, tenant, filter.folderId)),
            owned ? eq(folders.workspaceId, owned) : undefined,
          ),
        )
    : db
        .select({ total: sql<number>`coalesce(sum(${workspaces.mediaCount}), 0)` })
        .from(workspaces)
        .where(and(owned ? eq(workspaces.id, owned) : inUserWorkspaces(db, workspaces.id, tenant)));
  const [totals, rows, workspace] = await db.batch([
    total,
    db
      .select()
      .from(media)
      .where(scope)
      .orderBy(desc(media.id))
      .limit(filter.perPage)
      .offset(filter.beforeId ? 0 : (filter.page - 1) * filter.perPage),
    accessibleWorkspace(db, tenant, filter.workspaceId ?? 0),
  ]);
  if (filter.workspaceId && workspace.length === 0) throw notFound("Workspace");
  return { rows, total: totals[0]?.total ?? 0 };
}

/**
 * Deletes the item if the user can access it, in one batch (one transaction), unless a post that is not
 * yet published uses it (SCHEDULED, including a repeatable post waiting for its next occurrence, or
 * PUBLISHING): then nothing is written (`in_use`, the route's 409). Posts that published it (a PUBLISHED
 * row) keep their link, with the item's summary (name, type, size) copied into it, so they show what they
 * published; the links of drafts and failed posts that published nothing are deleted with the item.
 * Answers the item's R2 key, `in_use`, or null when there was no such item.
 */
export async function deleteMediaOfUser(
  db: Database,
  tenant: Tenant,
  id: number,
): Promise<{ r2Key: string } | "in_use" | null> {
  // Found through the user's workspaces: another tenant's item is never read.
  const owned = eq(media.id, ownedId(media, tenant, id));
  const ownedItem = db.select({ id: media.id }).from(media).where(owned);
  const unpublishedUse = sql`EXISTS (SELECT 1 FROM ${postMedia} pm JOIN ${posts} p ON p.id = pm.post_id
    WHERE pm.media_id IN ${ownedItem} AND p.status IN ('PENDING_APPROVAL', 'SCHEDULED', 'PUBLISHING'))`;
  const free = sql`NOT ${unpublishedUse}`;
  const published = sql`EXISTS (SELECT 1 FROM ${postPlatforms} r WHERE r.post_id = ${postMedia.postId} AND r.status = 'PUBLISHED')`;
  const ofItem = inArray(postMedia.mediaId, ownedItem);
  const [[found], , , deleted] = await db.batch([
    db
      .select({ inUse: sql<number>`${unpublishedUse}` })
      .from(media)
      .where(owned),
    db
      .update(postMedia)
      .set({
        name: sql`(SELECT m.name FROM ${media} m WHERE m.id = ${postMedia.mediaId})`,
        mimeType: sql`(SELECT m.mime_type FROM ${media} m WHERE m.id = ${postMedia.mediaId})`,
        size: sql`(SELECT m.size FROM ${media} m WHERE m.id = ${postMedia.mediaId})`,
      })
      .where(and(ofItem, published, free)),
    db.delete(postMedia).where(and(ofItem, sql`NOT ${published}`, free)),
    db.delete(media).where(and(owned, free)).returning({ r2Key: media.r2Key }),
  ]);
  if (!found) return null;
  return deleted[0] ?? "in_use";
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
