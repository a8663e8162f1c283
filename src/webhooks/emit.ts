// The events, one per outbox family (src/events/record.ts says where each is recorded: a post settling,
// a scheduled post moved, an account found expired, an import settling, a row's analytics synced, a comment stored). Each says how its event id is
// made deterministic from the outbox row's key and reads its record, as the API answers it, only when an
// endpoint listens.
import { desc, eq, sql } from "drizzle-orm";
import { presentAccount } from "../accounts/present";
import { presentPostAnalytics } from "../analytics/present";
import { postReport } from "../analytics/queries";
import { presentComment } from "../comments/present";
import type { Database } from "../db/client";
import {
  accounts,
  comments,
  media,
  type OutboxRow,
  postPlatforms,
  posts,
  workspaceMembers,
  workspaces,
} from "../db/schema";
import { backgroundOrigin } from "../lib/origin";
import { presentMediaList } from "../media/present";
import { assemblePosts, postStatements } from "../posts/load";
import { presentPosts } from "../posts/present";
import type { EventSpec } from "./events";

type EmitEnv = Pick<Env, "WEBHOOKS_QUEUE" | "ENCRYPTION_KEY" | "PUBLIC_BASE_URL">;

/** The workspace of a record, as a subquery: what the check that anyone listens needs. */
const workspaceOf = (
  db: Database,
  table: typeof posts | typeof accounts | typeof media | typeof comments,
  id: number,
) => sql`(${db.select({ id: table.workspaceId }).from(table).where(eq(table.id, id))})`;

/** The event an outbox row stands for. */
export function eventOf(env: EmitEnv, db: Database, row: OutboxRow): EventSpec {
  switch (row.type) {
    case "post.published":
    case "post.failed":
      return postSettled(env, db, row.recordId, row.type === "post.failed", Number(row.version));
    case "post.rescheduled":
      return postRescheduled(env, db, row.recordId, Number(row.version));
    case "account.expired":
      return accountExpired(env, db, row.recordId, Number(row.version));
    case "media.settled":
      return mediaSettled(env, db, row.recordId, row.createdAt.getTime());
    case "analytics.synced":
      return analyticsSynced(env, db, row.recordId, row.version, row.createdAt.getTime());
    case "comment.received":
      return commentReceived(db, row.recordId, row.createdAt.getTime());
    case "post.approval_requested":
    case "post.approved":
    case "post.rejected":
      return postReviewed(env, db, row.type, row.recordId, row.version, row.createdAt.getTime());
  }
}

/**
 * A post left PUBLISHING at `at`: PUBLISHED (or a repeat's occurrence published everywhere and put
 * back to SCHEDULED) is `post.published`; FAILED is `post.partially_published` when a row published,
 * else `post.failed`. One settlement per post and time, so `<post>_<at>` names it.
 */
const postSettled = (env: EmitEnv, db: Database, postId: number, failed: boolean, at: number): EventSpec => ({
  workspace: workspaceOf(db, posts, postId),
  types: failed ? ["post.failed", "post.partially_published"] : ["post.published"],
  key: `${postId}_${at}`,
  at,
  build: async () => {
    const found = await presentedPost(env, db, postId);
    if (!found) return null;
    const { loaded, data } = found;
    const partly = loaded.rows.some((row) => row.status === "PUBLISHED");
    const type = !failed ? "post.published" : partly ? "post.partially_published" : "post.failed";
    return { workspaceId: loaded.post.workspaceId, type, data };
  },
});

/** The post as it is now, presented as the API answers it; null when it is gone. */
async function presentedPost(env: EmitEnv, db: Database, postId: number) {
  const ids = db.select({ id: posts.id }).from(posts).where(eq(posts.id, postId));
  const [loaded] = assemblePosts(await db.batch(postStatements(db, ids, false)));
  if (!loaded) return null;
  const [data] = await presentPosts([loaded], { env, origin: backgroundOrigin(env), includeComments: false });
  return { loaded, data };
}

/**
 * A SCHEDULED post moved by the update of `at` (its `updated_at`): one move per update, so `<post>_<at>`
 * names it. Told only while the post is still as that update left it: a later change is its own event.
 */
const postRescheduled = (env: EmitEnv, db: Database, postId: number, at: number): EventSpec => ({
  workspace: workspaceOf(db, posts, postId),
  types: ["post.rescheduled"],
  key: `${postId}_${at}`,
  at,
  build: async () => {
    const found = await presentedPost(env, db, postId);
    if (!found) return null;
    return { workspaceId: found.loaded.post.workspaceId, type: "post.rescheduled", data: found.data };
  },
});

/**
 * A post submitted for approval, approved or rejected at a version: once per version, so
 * `<post>_<version>` names it. `data` is the post as it is now (GET /posts/{id}/reviews has the note).
 */
const postReviewed = (
  env: EmitEnv,
  db: Database,
  type: "post.approval_requested" | "post.approved" | "post.rejected",
  postId: number,
  version: string,
  at: number,
): EventSpec => ({
  workspace: workspaceOf(db, posts, postId),
  types: [type],
  key: `${postId}_${version}`,
  at,
  build: async () => {
    const found = await presentedPost(env, db, postId);
    if (!found) return null;
    return { workspaceId: found.loaded.post.workspaceId, type, data: found.data };
  },
});

/**
 * An account whose token could not be refreshed: once per expiry, so `<account>_<expired_at>`. An
 * account reconnected since (or expired again) is not told this expiry.
 */
const accountExpired = (_env: EmitEnv, db: Database, accountId: number, expiredAt: number): EventSpec => ({
  workspace: workspaceOf(db, accounts, accountId),
  types: ["account.expired"],
  key: `${accountId}_${expiredAt}`,
  at: expiredAt,
  build: async () => {
    const account = await db.select().from(accounts).where(eq(accounts.id, accountId)).get();
    if (account?.expiredAt?.getTime() !== expiredAt) return null;
    return { workspaceId: account.workspaceId, type: "account.expired", data: presentAccount(account) };
  },
});

/** An import that settled, as the item now stands: ready or failed, once, so its id names the event. */
const mediaSettled = (env: EmitEnv, db: Database, mediaId: number, at: number): EventSpec => ({
  workspace: workspaceOf(db, media, mediaId),
  types: ["media.ready", "media.failed"],
  key: String(mediaId),
  at,
  build: async () => {
    const row = await db.select().from(media).where(eq(media.id, mediaId)).get();
    if (!row || row.state === "processing") return null;
    const [data] = await presentMediaList(env, backgroundOrigin(env), [row]);
    return {
      workspaceId: row.workspaceId,
      type: row.state === "ready" ? "media.ready" : "media.failed",
      data,
    };
  },
});

/**
 * A platform row's analytics synced; `data` is the post's analytics report. A sync job redelivered
 * keeps its message id, so `<row>_<message id>` names one job's sync however often it runs.
 */
const analyticsSynced = (
  _env: EmitEnv,
  db: Database,
  rowId: number,
  jobId: string,
  at: number,
): EventSpec => {
  const postOfRow = db
    .select({ id: postPlatforms.postId })
    .from(postPlatforms)
    .where(eq(postPlatforms.id, rowId));
  return {
    workspace: sql`(${db.select({ id: posts.workspaceId }).from(posts).where(eq(posts.id, postOfRow))})`,
    types: ["analytics.synced"],
    key: `${rowId}_${jobId}`,
    at,
    build: async () => {
      // The report is read as a member of the post's workspace would read it (its author first).
      const [member] = await db
        .select({
          userId: workspaceMembers.userId,
          mode: workspaceMembers.mode,
          workspaceId: posts.workspaceId,
          postId: posts.id,
        })
        .from(postPlatforms)
        .innerJoin(posts, eq(posts.id, postPlatforms.postId))
        .innerJoin(workspaceMembers, eq(workspaceMembers.workspaceId, posts.workspaceId))
        .where(eq(postPlatforms.id, rowId))
        .orderBy(desc(sql`${workspaceMembers.userId} = ${posts.userId}`))
        .limit(1);
      if (!member) return null;
      const [found, rows, accountRows, [total]] = await postReport(db, member, member.postId);
      if (found.length === 0) return null;
      return {
        workspaceId: member.workspaceId,
        type: "analytics.synced",
        data: presentPostAnalytics(member.postId, total, rows, accountRows),
      };
    },
  };
};

/** A comment stored for the first time: once per comment, so its id names the event. */
const commentReceived = (db: Database, commentId: number, at: number): EventSpec => ({
  workspace: workspaceOf(db, comments, commentId),
  types: ["comment.received"],
  key: String(commentId),
  at,
  build: async () => {
    const [found] = await db
      .select({ comment: comments, timezone: workspaces.timezone })
      .from(comments)
      .innerJoin(workspaces, eq(workspaces.id, comments.workspaceId))
      .where(eq(comments.id, commentId));
    if (!found) return null;
    return {
      workspaceId: found.comment.workspaceId,
      type: "comment.received",
      data: presentComment(found.comment, found.timezone),
    };
  },
});
