// Builds the statements that write a post and its children. Callers run them in one db.batch, which
// D1 executes as one transaction.
import { and, eq, inArray, notInArray, type SQL, sql } from "drizzle-orm";
import { chunkForD1, type Statement } from "../db/batch";
import type { Database } from "../db/client";
import type { Platform, PostStatus } from "../db/enums";
import { postLabels, postMedia, postPlatforms } from "../db/schema";
import { settingsFor } from "./settings";

export type TargetAccount = { id: number; platform: Platform };

/** `postId` may be SQL (the id of the post inserted earlier in the same batch). */
export function insertRows(
  db: Database,
  postId: number | SQL,
  targets: TargetAccount[],
  status: PostStatus,
  settings: Partial<Record<Platform, Record<string, unknown>>> | undefined,
): Statement[] {
  const values = targets.map((account) => ({
    postId: postId as number,
    accountId: account.id,
    platform: account.platform,
    status,
    settings: settingsFor(account.platform, settings?.[account.platform]),
    analytics: {},
    postedOn: [],
  }));
  return chunkForD1(values).map((chunk) => db.insert(postPlatforms).values(chunk));
}

export function insertMedia(
  db: Database,
  postId: number | SQL,
  content: Array<{ media: number[] }>,
): Statement[] {
  const values = content.flatMap((item, itemIndex) =>
    item.media.map((mediaId, position) => ({ postId: postId as number, itemIndex, position, mediaId })),
  );
  return chunkForD1(values).map((chunk) => db.insert(postMedia).values(chunk));
}

export function insertLabels(db: Database, postId: number | SQL, labelIds: number[]): Statement[] {
  const values = labelIds.map((labelId) => ({ postId: postId as number, labelId }));
  return chunkForD1(values).map((chunk) => db.insert(postLabels).values(chunk));
}

/** Replaces the target accounts of a stored post, keeping the rows (and settings) of kept accounts. */
export function replaceRows(
  db: Database,
  postId: number,
  existing: Array<{ accountId: number }>,
  targets: TargetAccount[],
  status: PostStatus,
  settings: Partial<Record<Platform, Record<string, unknown>>> | undefined,
): Statement[] {
  const kept = new Set(existing.map((row) => row.accountId));
  const wanted = targets.map((t) => t.id);
  return [
    db
      .delete(postPlatforms)
      .where(
        and(
          eq(postPlatforms.postId, postId),
          wanted.length ? notInArray(postPlatforms.accountId, wanted) : sql`1`,
        ),
      ),
    ...insertRows(
      db,
      postId,
      targets.filter((t) => !kept.has(t.id)),
      status,
      settings,
    ),
  ];
}

/** New settings for the rows of the platforms the request names. */
export function updateRowSettings(
  db: Database,
  postId: number,
  settings: Partial<Record<Platform, Record<string, unknown>>>,
): Statement[] {
  return Object.entries(settings).map(([platform, value]) =>
    db
      .update(postPlatforms)
      .set({ settings: value, updatedAt: new Date() })
      .where(and(eq(postPlatforms.postId, postId), eq(postPlatforms.platform, platform as Platform))),
  );
}

export const idsOrNothing = (column: Parameters<typeof inArray>[0], ids: number[]) =>
  ids.length ? inArray(column, ids) : sql`0`;
