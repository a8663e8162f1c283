// Syncing one platform row: read it, ask its platform for the post's metrics and comments, and store
// both. Idempotent: the metrics are overwritten with the platform's latest, and each comment is stored
// once per (post, platform, platform comment id), with its one comment.received, so a redelivered job
// changes nothing twice.
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { accountAuth, withFreshAuth } from "../accounts/tokens";
import { insertInChunks } from "../db/batch";
import type { Database } from "../db/client";
import type { Mode, Platform } from "../db/enums";
import { accounts, comments, type Post, type PostPlatform, postPlatforms, posts } from "../db/schema";
import { announce } from "../events/announce";
import { type OutboxKey, recordAnalyticsSynced, recordCommentsReceived } from "../events/record";
import { publishingAdapter } from "../platforms";
import {
  type AccountAuth,
  type PlatformAdapter,
  type PlatformComment,
  PlatformError,
  type PostMetrics,
} from "../platforms/types";
import { catalogLifetime, insightsOver, type LifetimeOf, publishedAt } from "./lifetime";
import { COUNT_METRICS } from "./queries";

/** What syncing needs from outside the database, injectable so tests can swap in a platform or a clock. */
export type SyncDeps = {
  /** May throw a PlatformError (a platform not configured). */
  adapterFor(env: Env, platform: Platform, mode: Mode): PlatformAdapter;
  now(): number;
  /** How long the platform gives insights for a row (tests give a platform one). */
  lifetimeOf?: LifetimeOf;
};

export const defaultSyncDeps: SyncDeps = { adapterFor: publishingAdapter, now: () => Date.now() };

/** A row being synced, with what its platform calls and the auto-plug need. */
export type SyncTarget = {
  row: PostPlatform & { platformPostId: string };
  post: Post;
  adapter: PlatformAdapter;
  auth: AccountAuth;
};

/** The row, its post and its account, in one batch. */
async function loadRow(db: Database, rowId: number) {
  const ofRow = (column: typeof postPlatforms.postId | typeof postPlatforms.accountId) =>
    db.select({ id: column }).from(postPlatforms).where(eq(postPlatforms.id, rowId));
  const [rows, postRows, accountRows] = await db.batch([
    db.select().from(postPlatforms).where(eq(postPlatforms.id, rowId)),
    db
      .select()
      .from(posts)
      .where(eq(posts.id, ofRow(postPlatforms.postId))),
    db
      .select()
      .from(accounts)
      .where(eq(accounts.id, ofRow(postPlatforms.accountId))),
  ]);
  return { row: rows[0], post: postRows[0], account: accountRows[0] };
}

/** Whole, non-negative counts and a finite rate, whatever the adapter answered. */
export function cleanMetrics(metrics: PostMetrics): PostMetrics {
  const value = (n: unknown) => (typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0);
  const clean = { engagement_rate: Math.round(value(metrics.engagement_rate) * 100) / 100 } as PostMetrics;
  for (const key of COUNT_METRICS) clean[key] = Math.round(value(metrics[key]));
  return clean;
}

/** Whether two metric sets hold the same values (whatever their keys' order). */
export function sameMetrics(a: Partial<PostMetrics>, b: Partial<PostMetrics>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof PostMetrics)[]);
  return [...keys].every((key) => a[key] === b[key]);
}

/** A comment as stored, on the row's post and account; what the platform does not say is null or false. */
const commentRow = (row: PostPlatform, post: Post, comment: PlatformComment, receivedAt: Date) => ({
  workspaceId: post.workspaceId,
  accountId: row.accountId,
  postId: post.id,
  platform: row.platform,
  platformCommentId: comment.id,
  platformParentId: comment.parent_id ?? null,
  content: comment.content,
  authorName: comment.author_name,
  contact: comment.contact,
  url: comment.url ?? null,
  isOwn: comment.is_own ?? false,
  hidden: comment.hidden ?? false,
  receivedAt,
  createdAt: comment.created_at,
});

/** What a sync may change of a stored comment (never its ids, times or tenant). */
const COMMENT_UPDATES = {
  content: "content",
  authorName: "author_name",
  contact: "contact",
  platformParentId: "platform_parent_id",
  url: "url",
  isOwn: "is_own",
  hidden: "hidden",
} as const;

/**
 * Upserts of `found` (every one of which reports `hidden`, or none does): where the platform's read does
 * not report it, the stored value (set from the inbox) is kept. A deleted comment (its tombstone) is
 * never written again.
 */
function upserts(db: Database, row: PostPlatform, post: Post, found: PlatformComment[], now: Date) {
  const reported = found[0]?.hidden !== undefined;
  const updates = Object.entries(COMMENT_UPDATES).filter(([key]) => reported || key !== "hidden");
  return insertInChunks(
    db,
    comments,
    found.map((comment) => commentRow(row, post, comment, now)),
  ).map((statement) =>
    statement.onConflictDoUpdate({
      target: [comments.postId, comments.platform, comments.platformCommentId],
      // An unchanged comment is not written at all, so a redelivered job writes no comment.
      set: Object.fromEntries(updates.map(([key, column]) => [key, sql.raw(`excluded.${column}`)])),
      setWhere: sql`comments.deleted_at IS NULL AND (${sql.join(
        updates.map(([, column]) => sql.raw(`comments.${column} IS NOT excluded.${column}`)),
        sql` OR `,
      )})`,
    }),
  );
}

/** How much earlier than the inbox's attempt a platform may date the reply it created (clock skew). */
export const REPLY_CLOCK_SKEW_MS = 60_000;

/**
 * The account's reply that the inbox sent but whose answer was lost (its row still pending: no platform
 * id) takes the id of the comment read that is that reply (own, under the same comment, or under that
 * comment's own parent where the platform nests one level only (LinkedIn, YouTube, Facebook, Instagram:
 * an answer to an answer joins the thread's top comment), the same text, not older than the attempt), so the upsert after it finds it stored: no second row, no comment.received.
 */
function adoptions(db: Database, row: PostPlatform, post: Post, found: PlatformComment[]) {
  return found
    .filter((comment) => comment.is_own && comment.parent_id)
    .map((comment) =>
      db
        .update(comments)
        .set({ platformCommentId: comment.id, url: comment.url ?? null })
        .where(
          sql`${comments.id} = (SELECT p.id FROM ${comments} p INDEXED BY comments_post_id_idx
            WHERE p.post_id = ${post.id} AND p.platform = ${row.platform} AND p.platform_comment_id IS NULL
            AND p.is_own = 1 AND (p.platform_parent_id = ${comment.parent_id}
              OR EXISTS (SELECT 1 FROM ${comments} n WHERE n.post_id = p.post_id AND n.platform = p.platform
                AND n.platform_comment_id = p.platform_parent_id AND n.platform_parent_id = ${comment.parent_id}))
            AND p.content = ${comment.content} AND p.deleted_at IS NULL
            AND p.created_at <= ${comment.created_at.getTime() + REPLY_CLOCK_SKEW_MS}
            ORDER BY p.id LIMIT 1)
          AND NOT EXISTS (SELECT 1 FROM ${comments} q WHERE q.post_id = ${post.id}
            AND q.platform = ${row.platform} AND q.platform_comment_id = ${comment.id})`,
        ),
    );
}

/**
 * Stores the comments read: a new one once, with `received_at` = this batch's time (which its
 * comment.received record finds), a known one updated only when the platform shows it changed (no
 * event), a pending reply of the inbox adopted (adoptions). Then each comment of the post whose parent
 * is stored takes that parent's id.
 */
function storeComments(db: Database, row: PostPlatform, post: Post, found: PlatformComment[], now: Date) {
  // Consecutive comments that report `hidden` alike share their statements (stored in the read's order).
  const runs: PlatformComment[][] = [];
  for (const comment of found) {
    const last = runs.at(-1);
    if (last && (last[0]!.hidden === undefined) === (comment.hidden === undefined)) last.push(comment);
    else runs.push([comment]);
  }
  const inserts = [
    ...adoptions(db, row, post, found),
    ...runs.flatMap((run) => upserts(db, row, post, run, now)),
  ];
  if (inserts.length === 0 || found.every((comment) => !comment.parent_id)) return inserts;
  // A reply read before its parent is stored takes the parent's id on the sync that stores it.
  const parent = db
    .select({ id: sql<number>`parent.id` })
    .from(sql`${comments} AS parent`)
    .where(
      sql`parent.post_id = ${comments.postId} AND parent.platform = ${comments.platform}
        AND parent.platform_comment_id = ${comments.platformParentId}`,
    );
  return [
    ...inserts,
    db
      .update(comments)
      .set({ parentId: sql`(${parent})` })
      .where(
        and(
          eq(comments.postId, post.id),
          eq(comments.platform, row.platform),
          isNull(comments.parentId),
          isNotNull(comments.platformParentId),
        ),
      ),
  ];
}

/**
 * Syncs the row, recording its analytics.synced event (named by the job's id) with it. Returns null when
 * there is nothing to sync (the row is gone, no longer PUBLISHED, has no platform post, or its account
 * is disconnected), else the target for the auto-plug. Platform failures throw PlatformError.
 */
export async function syncRow(
  env: Env,
  db: Database,
  rowId: number,
  deps: SyncDeps,
  jobId: string,
): Promise<SyncTarget | null> {
  const { row, post, account } = await loadRow(db, rowId);
  if (!row || !post || !account || row.status !== "PUBLISHED" || !row.platformPostId) return null;
  // A disconnected account has no tokens: its rows keep the metrics they last had (src/accounts/queries.ts).
  if (account.disconnectedAt) return null;
  // A post with no public address, and none to come (a TikTok post only its creator sees), has nothing to read.
  if (row.postUrl === null && !row.awaitingPublicId) return null;
  // Past the platform's insights lifetime (a story after its day): ask nothing, keep what is stored, and
  // record the sync as done (the job the sync route counted ran; its metrics are final, so no event).
  if (
    !row.awaitingPublicId &&
    insightsOver(env, (deps.lifetimeOf ?? catalogLifetime)(row.platform), row, deps.now())
  ) {
    await recordSyncFailure(db, row.id, deps.now());
    return null;
  }
  let platformPostId = row.platformPostId;
  const adapter = deps.adapterFor(env, row.platform, account.mode);
  const tokens = { ...account, accountId: account.id };
  let auth = await accountAuth(env, tokens, deps.now());
  if (row.awaitingPublicId) {
    const resolved = await resolvePublicId(env, db, row, platformPostId, adapter, tokens, auth);
    if (resolved === null) return null;
    platformPostId = resolved.id;
    row.platformPostId = resolved.id;
    row.postUrl = resolved.url;
    // A post that turned out never to be public has nothing more to read.
    if (resolved.url === null) return null;
  }
  // A 401 refreshes the token once and asks once more; the auto-plug uses the auth that worked.
  const [fetched, found] = await withFreshAuth(
    env,
    tokens,
    auth,
    (used) =>
      Promise.all([
        adapter.insights(used, platformPostId),
        adapter.comments ? adapter.comments(used, platformPostId) : [],
      ]),
    (used) => {
      auth = used;
    },
  );
  // Nothing to read now (a story past its day, insights the app cannot read): keep what is stored.
  const metrics = fetched === null ? row.analytics : cleanMetrics(fetched);
  const now = new Date(deps.now());
  const inserts = storeComments(db, row, post, found, now);
  // analytics.synced tells of new metrics: a sync that found what was stored records no event (the
  // webhooks of a post read every few minutes would otherwise fire for nothing).
  const changed = !sameMetrics(row.analytics, metrics);
  const received = found.length > 0;
  const [stored, ...rest] = await db.batch([
    // Only while the row still shows this platform post: a repetition published since then has new
    // metrics of its own.
    db
      .update(postPlatforms)
      .set({ analytics: metrics, analyticsSyncedAt: now })
      .where(
        and(
          eq(postPlatforms.id, row.id),
          eq(postPlatforms.status, "PUBLISHED"),
          eq(postPlatforms.platformPostId, platformPostId),
        ),
      )
      .returning({ id: postPlatforms.id }),
    ...inserts,
    ...(changed ? [recordAnalyticsSynced(db, row.id, jobId, now.getTime())] : []),
    ...(received ? [recordCommentsReceived(db, post.id, row.platform, now.getTime())] : []),
  ]);
  // The records, when there are any, are the batch's last statements.
  const records = rest.slice(rest.length - Number(changed) - Number(received)) as OutboxKey[][];
  await announce(env, records.flat());
  if (stored.length === 0) return null;
  return { row: { ...row, platformPostId, analytics: metrics }, post, adapter, auth };
}

/**
 * The follow-up read of a row published before the platform gave its public id: once the platform has
 * it, the row takes it and its URL (only while it still shows the id it was published with: a second
 * sync that raced this one, or a repetition, leaves it be). Null when another sync got there first.
 * Throws a transient `awaiting_public_id` while the platform has not given it, so the job is retried.
 */
async function resolvePublicId(
  env: Env,
  db: Database,
  row: PostPlatform,
  provisionalId: string,
  adapter: PlatformAdapter,
  tokens: Parameters<typeof withFreshAuth>[1],
  auth: AccountAuth,
): Promise<{ id: string; url: string | null } | null> {
  const resolved = await withFreshAuth(env, tokens, auth, (used) =>
    adapter.resolve(used, provisionalId, publishedAt(row)),
  );
  if (!resolved || resolved.awaiting)
    throw new PlatformError("The platform has not given the post's public id yet; it will be read again.", {
      kind: "transient",
      code: "awaiting_public_id",
    });
  const updated = await db
    .update(postPlatforms)
    .set({ platformPostId: resolved.id, postUrl: resolved.url, awaitingPublicId: false })
    .where(
      and(
        eq(postPlatforms.id, row.id),
        eq(postPlatforms.status, "PUBLISHED"),
        eq(postPlatforms.platformPostId, provisionalId),
        eq(postPlatforms.awaitingPublicId, true),
      ),
    )
    .returning({ id: postPlatforms.id });
  return updated.length > 0 ? { id: resolved.id, url: resolved.url } : null;
}

/**
 * Records a sync that read nothing (the platform refused it for good, or the row is past its insights
 * lifetime): the row keeps its metrics and waits a full interval; no event, nothing changed.
 */
export async function recordSyncFailure(db: Database, rowId: number, now: number): Promise<void> {
  await db
    .update(postPlatforms)
    .set({ analyticsSyncedAt: new Date(now) })
    .where(and(eq(postPlatforms.id, rowId), eq(postPlatforms.status, "PUBLISHED")));
}
