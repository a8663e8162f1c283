// What a feature adds to its own batch so that the change and the record of its event commit together
// (one transaction): one statement per event family, each an INSERT … SELECT into the outbox that finds
// its row only when the batch did make the change (the record's time column equals the batch's time),
// ON CONFLICT DO NOTHING, RETURNING the key recorded (none when the change did not happen, or when the
// record's workspace has no enabled webhook endpoint: nobody would be told, so nothing is written, queued
// or read). After the batch, the feature hands what came back to announce() (announce.ts). The outbox's
// reader, presenter and deliverer is src/webhooks/: nothing here knows who is told, or how.
import { and, eq, exists, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import type { Platform } from "../db/enums";
import {
  accounts,
  comments,
  media,
  type OutboxType,
  outbox,
  postPlatforms,
  posts,
  webhookEndpoints,
} from "../db/schema";

/** An outbox row's key: what an announcement names. */
export type OutboxKey = { type: OutboxType; record_id: number; version: string };

const recordedKey = { type: outbox.type, record_id: outbox.recordId, version: outbox.version };

/** Whether the workspace has an endpoint that could be told (which events it takes is the emitter's). */
const listening = (db: Database, workspace: SQLiteColumn | SQL) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.workspaceId, sql`${workspace}`), isNull(webhookEndpoints.disabledAt))),
  );

/**
 * The outbox row of `type` for the record `id`, read from its table where `changed` holds and its
 * `workspace` listens.
 */
function record(
  db: Database,
  type: SQL<OutboxType>,
  table: SQLiteTable,
  id: SQLiteColumn,
  workspace: SQLiteColumn | SQL,
  version: string,
  at: number,
  changed: SQL | undefined,
) {
  return db
    .insert(outbox)
    .select(
      // INSERT … SELECT names every column, in the table's order.
      db
        .select({
          type: type.as("type"),
          recordId: sql<number>`${id}`.as("record_id"),
          version: sql<string>`${version}`.as("version"),
          createdAt: sql<number>`${at}`.as("created_at"),
        })
        .from(table)
        .where(and(changed, listening(db, workspace))),
    )
    .onConflictDoNothing()
    .returning(recordedKey);
}

/**
 * A post's settlement at `at`: the batch left PUBLISHING (PUBLISHED or FAILED), or put a repeat's
 * occurrence back to SCHEDULED, with `updated_at = at`. FAILED is `post.failed`, the rest
 * `post.published`; the version is `at`.
 */
export const recordPostSettled = (db: Database, postId: number, at: number) =>
  record(
    db,
    sql<OutboxType>`CASE WHEN ${posts.status} = 'FAILED' THEN 'post.failed' ELSE 'post.published' END`,
    posts,
    posts.id,
    posts.workspaceId,
    String(at),
    at,
    and(
      eq(posts.id, postId),
      eq(posts.updatedAt, new Date(at)),
      sql`${posts.status} IN ('PUBLISHED', 'FAILED', 'SCHEDULED')`,
    ),
  );

/**
 * A SCHEDULED post this batch moved to another time (`updated_at = at`, `scheduled_at` no longer
 * `from`): `post.rescheduled`, versioned by `at`. Recorded only when the time did change, which a
 * queue claim decides inside the batch itself.
 */
export const recordPostRescheduled = (db: Database, postId: number, from: Date, at: number) =>
  record(
    db,
    sql<OutboxType>`'post.rescheduled'`,
    posts,
    posts.id,
    posts.workspaceId,
    String(at),
    at,
    and(
      eq(posts.id, postId),
      eq(posts.updatedAt, new Date(at)),
      eq(posts.status, "SCHEDULED"),
      ne(posts.scheduledAt, from),
    ),
  );

/** An account marked expired at `expiredAt` by this batch; the version is `expired_at` in ms. */
export const recordAccountExpired = (db: Database, accountId: number, expiredAt: number) =>
  record(
    db,
    sql<OutboxType>`'account.expired'`,
    accounts,
    accounts.id,
    accounts.workspaceId,
    String(expiredAt),
    expiredAt,
    and(eq(accounts.id, accountId), eq(accounts.expiredAt, new Date(expiredAt))),
  );

/**
 * A media item this batch settled (ready or failed) with `updated_at = at`. An item settles once, so
 * its version is ''.
 */
export const recordMediaSettled = (db: Database, mediaId: number, at: number) =>
  record(
    db,
    sql<OutboxType>`'media.settled'`,
    media,
    media.id,
    media.workspaceId,
    "",
    at,
    and(eq(media.id, mediaId), eq(media.updatedAt, new Date(at)), ne(media.state, "processing")),
  );

/**
 * A platform row's analytics stored by this batch (`analytics_synced_at = at`); the version is the sync
 * job's queue message id, which its redeliveries keep.
 */
export const recordAnalyticsSynced = (db: Database, rowId: number, jobId: string, at: number) =>
  record(
    db,
    sql<OutboxType>`'analytics.synced'`,
    postPlatforms,
    postPlatforms.id,
    sql`(${db.select({ id: posts.workspaceId }).from(posts).where(eq(posts.id, postPlatforms.postId))})`,
    jobId,
    at,
    and(eq(postPlatforms.id, rowId), eq(postPlatforms.analyticsSyncedAt, new Date(at))),
  );

/**
 * The comments of a post's platform this batch stored for the first time (`received_at = at`), one
 * `comment.received` each. A comment is received once, so its version is '': a redelivered sync finds
 * it stored already (its `received_at` is the first sync's), and its record would collide anyway.
 */
export const recordCommentsReceived = (db: Database, postId: number, platform: Platform, at: number) =>
  record(
    db,
    sql<OutboxType>`'comment.received'`,
    comments,
    comments.id,
    comments.workspaceId,
    "",
    at,
    and(eq(comments.postId, postId), eq(comments.platform, platform), eq(comments.receivedAt, new Date(at))),
  );

/** The approval events a post's review records (src/approvals). */
export type ReviewEventType = "post.approval_requested" | "post.approved" | "post.rejected";

/**
 * A post this batch submitted for approval (PENDING_APPROVAL), approved or rejected at `at` (its
 * `updated_at`; a post the batch inserts is found by its version alone), at its `version`: each happens
 * once per version (a post waits for approval at a version once, and is decided once), so the version
 * names it.
 */
export const recordPostReviewed = (
  db: Database,
  type: ReviewEventType,
  postId: number | SQL,
  version: number,
  at: number,
  inserted = false,
) =>
  record(
    db,
    sql<OutboxType>`${type}`,
    posts,
    posts.id,
    posts.workspaceId,
    String(version),
    at,
    and(
      eq(posts.id, postId as number),
      eq(posts.version, version),
      inserted ? undefined : eq(posts.updatedAt, new Date(at)),
    ),
  );
