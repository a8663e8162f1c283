// Builds the statements that write a post and its children. Callers run them in one db.batch, which
// D1 executes as one transaction.
import { and, eq, exists, isNull, ne, notExists, notInArray, type SQL, sql } from "drizzle-orm";
import { insertedId, insertInChunks, type Statement } from "../db/batch";
import type { Database } from "../db/client";
import type { Platform, PostStatus } from "../db/enums";
import { type Post, postLabels, postMedia, postPlatforms, posts } from "../db/schema";
import { settingsFor } from "../platforms/settings";
import type { References, TargetAccount } from "./references";
import type { PostState } from "./rules";
import type { CreatePostInput, PostInput } from "./schemas";

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
  return insertInChunks(db, postPlatforms, values);
}

export function insertMedia(
  db: Database,
  postId: number | SQL,
  content: Array<{ media: number[] }>,
): Statement[] {
  const values = content.flatMap((item, itemIndex) =>
    item.media.map((mediaId, position) => ({ postId: postId as number, itemIndex, position, mediaId })),
  );
  return insertInChunks(db, postMedia, values);
}

export function insertLabels(db: Database, postId: number | SQL, labelIds: number[]): Statement[] {
  const values = labelIds.map((labelId) => ({ postId: postId as number, labelId }));
  return insertInChunks(db, postLabels, values);
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

/**
 * The first statement of an update's batch: it makes the batch fail (a NOT NULL violation rolls every
 * statement back) unless the post still has the status and `updated_at` the update was checked
 * against, so a post the publisher claimed, or another request changed, in between is never written.
 */
export function unchangedSince(db: Database, stored: Post): Statement {
  const asRead = db
    .select({ one: sql`1` })
    .from(posts)
    .where(
      and(eq(posts.id, stored.id), eq(posts.status, stored.status), eq(posts.updatedAt, stored.updatedAt)),
    );
  return failIf(db, notExists(asRead));
}

/** A statement that makes its batch fail (a NOT NULL violation rolls it all back) when `condition` holds. */
const failIf = (db: Database, condition: SQL): Statement =>
  db.insert(postLabels).select(
    db
      .select({ postId: sql<number>`NULL`.as("post_id"), labelId: sql<number>`NULL`.as("label_id") })
      .from(sql`(SELECT 1)`)
      .where(condition),
  );

/** The message of the failure `failIf` causes: how a caller tells it from a real fault. */
export const isGuardFailure = (error: unknown) =>
  String((error as Error | undefined)?.message ?? error).includes("NOT NULL constraint failed: post_labels");

/**
 * After a queue claim (`claimedSlot` in src/posting-queues/queries.ts): fails the batch when the post got
 * no slot (every candidate was taken meanwhile), so no SCHEDULED post is ever left without a time.
 */
export const slotClaimed = (db: Database, postId: number | SQL): Statement =>
  failIf(
    db,
    exists(
      db
        .select({ one: sql`1` })
        .from(posts)
        .where(and(eq(posts.id, postId as number), isNull(posts.scheduledAt))),
    ),
  );

/**
 * The post's columns that follow from its merged state; `claim` (a queue's slot, chosen by the write
 * itself) replaces `scheduled_at`.
 */
const stateFields = (state: PostState, status: PostStatus, claim?: SQL<Date>) => ({
  status,
  scheduledAt: claim ?? state.scheduledAt,
  publishNow: state.publishNow,
  repeatable: state.repeatable,
  repeatableTimes: state.repeatableTimes,
  repeatableGap: state.repeatableGap,
  repeatableGapUnit: state.repeatableGapUnit,
});

/**
 * Inserts a post with its rows, media links and labels. The children name the new post by
 * `insertedId(posts)`, which is also the id to read it back by in the same batch.
 */
export function createStatements(
  db: Database,
  userId: number,
  input: CreatePostInput,
  refs: References,
  state: PostState,
  status: PostStatus,
  claim?: SQL<Date>,
): Statement[] {
  const postId = insertedId(posts);
  return [
    db.insert(posts).values({
      workspaceId: input.workspace_id,
      userId,
      content: input.content.map((item) => item.text),
      ...stateFields(state, status, claim),
      remainingPosts: state.repeatable ? state.repeatableTimes : null,
      autoPlug: input.auto_plug ?? null,
    }),
    ...insertRows(db, postId, refs.accounts, status, input.settings),
    ...insertMedia(db, postId, input.content),
    ...insertLabels(db, postId, input.labels ?? []),
    ...(claim ? [slotClaimed(db, postId)] : []),
  ];
}

/**
 * Applies a partial update: the fields the request gives replace the stored ones (lists wholesale),
 * the others stay; every platform row takes the post's new status.
 */
export function updateStatements(
  db: Database,
  stored: Post,
  existingRows: Array<{ accountId: number }>,
  input: PostInput,
  refs: References,
  state: PostState,
  status: PostStatus,
  now: Date,
  claim?: SQL<Date>,
  bumpVersion = false,
): Statement[] {
  const id = stored.id;
  // remaining_posts restarts from repeatable_times when the request sets either repeat flag or count.
  const repeatChanged =
    input.repeatable !== undefined ||
    input.repeatable_times !== undefined ||
    stored.repeatable !== state.repeatable;
  return [
    db
      .update(posts)
      .set({
        ...stateFields(state, status, claim),
        ...(input.content ? { content: input.content.map((item) => item.text) } : {}),
        ...(repeatChanged ? { remainingPosts: state.repeatable ? state.repeatableTimes : null } : {}),
        ...(input.auto_plug !== undefined ? { autoPlug: input.auto_plug } : {}),
        ...(bumpVersion ? { version: sql`${posts.version} + 1` } : {}),
        updatedAt: now,
      })
      .where(eq(posts.id, id)),
    ...(input.accounts ? replaceRows(db, id, existingRows, refs.accounts, status, input.settings) : []),
    ...(input.settings ? updateRowSettings(db, id, input.settings) : []),
    // A row already published keeps its status: editing a partly failed post never publishes it twice.
    // New content or settings make what the platform holds from an earlier attempt (an upload, a
    // container) stale: the next attempt starts over.
    db
      .update(postPlatforms)
      .set({ status, ...(input.content || input.settings ? { progress: null } : {}), updatedAt: now })
      .where(and(eq(postPlatforms.postId, id), ne(postPlatforms.status, "PUBLISHED"))),
    ...(input.content
      ? [db.delete(postMedia).where(eq(postMedia.postId, id)), ...insertMedia(db, id, input.content)]
      : []),
    ...(input.labels
      ? [db.delete(postLabels).where(eq(postLabels.postId, id)), ...insertLabels(db, id, input.labels)]
      : []),
    ...(claim ? [slotClaimed(db, id)] : []),
  ];
}
