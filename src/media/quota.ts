// The per-workspace storage quota, exact under concurrency. What a workspace holds is the bytes of its
// items (failed ones aside; an import still running counts with the bytes it holds), kept on the
// workspace by triggers (`workspaces.media_bytes`, migrations/0013), plus the live reservations of its
// uploads (`media_reservations`). Every check is made in the statement that takes the bytes, so requests
// racing each other cannot all pass it on the same stale reading:
//
// - an upload reserves up to what its file can be before a byte is stored (`reserveUpload`), stores at
//   most what it got, and swaps the reservation for the item's exact size in the batch that inserts the
//   item (`releaseReservation`), or just drops it when it fails;
// - an import's items are inserted only while their announced sizes fit (`fitsQuota`), and the queue
//   consumer makes an item's hold exact (a Content-Length) or takes what is left (no length) before it
//   stores a byte (`holdForDownload`); a failed item holds nothing (its size is set to 0).
import { and, eq, exists, lte, type SQLWrapper, sql } from "drizzle-orm";
import { insertWhere } from "../db/batch";
import type { Database } from "../db/client";
import { media, mediaReservations, workspaces } from "../db/schema";
import { accessibleWorkspace, ownedWorkspace, type Tenant } from "../db/tenancy";
import { folderOfWorkspace } from "../folders/queries";

/**
 * How long a reservation holds its bytes when its upload never says how it ended (the worker was
 * stopped mid-upload): past this it counts for nothing, and the workspace's next reservation deletes it.
 */
export const RESERVATION_TTL_MS = 60 * 60_000;

/** The bytes the workspace holds, items and live reservations: SQL usable in any statement. */
export const heldBytes = (workspaceId: number | SQLWrapper, now: number) =>
  sql<number>`(coalesce((SELECT ${workspaces.mediaBytes} FROM ${workspaces} WHERE ${workspaces.id} = ${workspaceId}), 0)
    + (SELECT coalesce(sum(${mediaReservations.bytes}), 0) FROM ${mediaReservations}
      WHERE ${mediaReservations.workspaceId} = ${workspaceId} AND ${mediaReservations.expiresAt} > ${now}))`;

/** The bytes the workspace holds as one value (a statement for a batch). */
export const workspaceHeld = (db: Database, workspaceId: number | SQLWrapper, now: number) =>
  db.select({ bytes: heldBytes(workspaceId, now).mapWith(Number) }).from(sql`(SELECT 1)`);

export type Reservation = { id: number; bytes: number };

/**
 * Reserves up to `want` bytes for an upload into the workspace (all that is left when less is), in one
 * statement, only if the user can write into the workspace and the folder (when given) is one of it.
 * Answers the reservation, or nothing when there is no such target or nothing is left.
 */
export function reserveUpload(
  db: Database,
  target: { tenant: Tenant; workspaceId: number; folderId: number | null | undefined },
  want: number,
  quota: number,
  now: number,
) {
  const { tenant, workspaceId, folderId } = target;
  // Through the membership: another tenant's workspace, folders and reservations are never read.
  const owned = ownedWorkspace(tenant, workspaceId);
  const held = heldBytes(owned, now);
  return insertWhere(
    db,
    mediaReservations,
    {
      workspaceId,
      bytes: sql`min(${want}, ${quota} - ${held})`,
      expiresAt: new Date(now + RESERVATION_TTL_MS),
      createdAt: new Date(now),
    },
    and(
      exists(accessibleWorkspace(db, tenant, workspaceId)),
      folderId ? exists(folderOfWorkspace(db, owned, folderId)) : undefined,
      sql`${held} < ${quota}`,
    )!,
  ).returning({ id: mediaReservations.id, bytes: mediaReservations.bytes });
}

/**
 * Drops a reservation (its upload stored its item, or failed), and the workspace's expired ones with it;
 * a statement for the batch that inserts the item, so the bytes are never counted twice nor dropped early.
 */
export const releaseReservation = (db: Database, reservation: number, workspaceId: number, now: number) =>
  db
    .delete(mediaReservations)
    .where(
      sql`${mediaReservations.id} = ${reservation} OR (${mediaReservations.workspaceId} = ${workspaceId} AND ${mediaReservations.expiresAt} <= ${now})`,
    );

/** The condition an import's new item is inserted under: its announced size fits what is left. */
export const fitsQuota = (workspaceId: number, size: number, quota: number, now: number) => {
  const held = heldBytes(workspaceId, now);
  return sql`(${held} + ${size} <= ${quota} AND ${held} < ${quota})`;
};

/**
 * What a download may take, held in the item's `size` while it runs (the consumer): exactly `length`
 * when the origin promised one and it fits, else (no length) what is left of the quota, at most `cap`.
 * One conditional statement on an item still processing; answers the bytes held, or nothing when they
 * do not fit (or the item is no longer processing).
 */
export function holdForDownload(
  db: Database,
  id: number,
  length: number | null,
  cap: number,
  quota: number,
  now: number,
) {
  // What the rest of the workspace holds: everything but this item's own current hold.
  const others = sql`(${heldBytes(media.workspaceId, now)} - ${media.size})`;
  const bytes = length === null ? sql`min(${cap}, ${quota} - ${others})` : sql`${length}`;
  return db
    .update(media)
    .set({ size: bytes })
    .where(
      and(
        eq(media.id, id),
        eq(media.state, "processing"),
        length === null ? sql`${others} < ${quota}` : lte(sql`${others} + ${length}`, quota),
      ),
    )
    .returning({ bytes: media.size });
}
