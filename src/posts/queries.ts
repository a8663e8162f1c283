// The read side of the posts API: a page of the user's posts, one post, a post read back in the batch
// that wrote it, and delete. Each reads whole posts in a single batch (load.ts), so every answer costs
// one D1 round trip after authentication.
import { and, count, desc, eq, gte, inArray, lt, lte, type SQL, sql } from "drizzle-orm";
import { runBatch, type Statement } from "../db/batch";
import type { Database } from "../db/client";
import type { PostStatus } from "../db/enums";
import { accounts, postPlatforms, posts, workspaceMembers, workspaces } from "../db/schema";
import { inUserWorkspaces, ownedId, type Tenant } from "../db/tenancy";
import { conflict, notFound } from "../http/errors";
import { assemblePosts, type PostResults, postStatements } from "./load";
import { type PresentContext, type PresentedPost, presentPosts } from "./present";
import type { ListPostsQuery } from "./schemas";

/**
 * The condition "this post is the user's": found through the user's workspaces only (`ownedId`), so
 * another tenant's post is never read. (`db` kept for the callers' symmetry with the other conditions.)
 */
export const postOfUser = (_db: Database, tenant: Tenant, id: number) =>
  eq(posts.id, ownedId(posts, tenant, id));

/**
 * The ids of one page of the user's posts, newest first, reading a bounded number of index entries
 * whatever the tenant's size: for each of the user's workspaces, the id of its (skip + perPage)th newest
 * post (a walk down `posts_workspace_id_idx`), below which none of its posts can be on the page; then
 * only the posts above those floors are merged and sorted. Page 1 reads about perPage entries per
 * workspace; page n about n × perPage (deep pages cost what their offset says, never the tenant's total).
 */
export function pageIdsOfUser(tenant: Tenant, page: PostPage) {
  // From a cursor (the id the previous page ended with), the page starts right below it: no offset.
  const skip = page.beforeId === undefined ? (page.page - 1) * page.perPage : 0;
  const below = (column: SQL) =>
    page.beforeId === undefined ? sql`` : sql` AND ${column} < ${page.beforeId}`;
  return sql`(WITH floors AS MATERIALIZED (
      SELECT ${workspaceMembers.workspaceId} AS workspace_id,
        coalesce((SELECT f.id FROM ${posts} f WHERE f.workspace_id = ${workspaceMembers.workspaceId}${below(sql`f.id`)}
          ORDER BY f.id DESC LIMIT 1 OFFSET ${skip + page.perPage - 1}), 0) AS floor
      FROM ${workspaceMembers} WHERE ${workspaceMembers.userId} = ${tenant.userId}
        AND ${workspaceMembers.mode} = ${tenant.mode})
    SELECT p.id FROM floors JOIN ${posts} p ON p.workspace_id = floors.workspace_id AND p.id >= floors.floor${below(sql`p.id`)}
    ORDER BY p.id DESC LIMIT ${page.perPage} OFFSET ${skip})`;
}

/**
 * A page of the list: its number and size, and, when the client followed a `next_page_url`, the id
 * the previous page ended with (`before_id`), so the page is read from there instead of by its offset.
 */
export type PostPage = { page: number; perPage: number; beforeId?: number; filters?: PostFilters };

/** The list's filters, all optional, combined with AND. */
export type PostFilters = {
  status?: PostStatus;
  workspaceId?: number;
  accountId?: number;
  scheduledFrom?: Date;
  scheduledTo?: Date;
};

/** The list query's filters (the REST list's and the console's), by their domain names. */
export const filtersOfQuery = (query: ListPostsQuery): PostFilters => ({
  status: query.status,
  workspaceId: query.workspace_id,
  accountId: query.account_id,
  scheduledFrom: query.scheduled_from,
  scheduledTo: query.scheduled_to,
});

const hasFilters = (filters: PostFilters | undefined): filters is PostFilters =>
  filters !== undefined && Object.values(filters).some((value) => value !== undefined);

/**
 * The index a filtered page walks, each starting with the tenant (`workspace_id`, then the filter, then
 * the id), named so the planner cannot pick a tenant-wide one instead (`posts_due_idx` starts with
 * `status`: it walked every tenant's drafts). An account filter finds its posts by id (`NOT INDEXED`
 * still allows the rowid) from the account's own rows.
 */
function filterIndex({ accountId, scheduledFrom, scheduledTo, status }: PostFilters): SQL {
  if (accountId !== undefined) return sql`${posts} NOT INDEXED`;
  const index =
    scheduledFrom !== undefined || scheduledTo !== undefined
      ? "posts_workspace_scheduled_idx"
      : status !== undefined
        ? "posts_workspace_status_idx"
        : "posts_workspace_id_idx";
  return sql`${posts} INDEXED BY ${sql.identifier(index)}`;
}

/**
 * The filtered list's condition, every filter inside the user's scope, so what it reads depends on the
 * user's own posts only: a workspace filter narrows the user's memberships (another tenant's workspace
 * is no membership, so none of its posts is read: an empty page, as for an absent one, not a 404), an
 * account filter takes the rows of the account only if it is in one of them (`ownedId`). An account
 * matches the posts with a platform row on it; a scheduled window, the posts whose `scheduled_at` is
 * inside it (bounds included), so drafts never match one.
 */
function filteredPosts(db: Database, tenant: Tenant, filters: PostFilters): SQL {
  const { status, workspaceId, accountId, scheduledFrom, scheduledTo } = filters;
  const memberships = db
    .select({ id: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(
      and(
        eq(workspaceMembers.userId, tenant.userId),
        eq(workspaceMembers.mode, tenant.mode),
        workspaceId === undefined ? undefined : eq(workspaceMembers.workspaceId, workspaceId),
      ),
    );
  return and(
    inArray(posts.workspaceId, memberships),
    status === undefined ? undefined : eq(posts.status, status),
    scheduledFrom === undefined ? undefined : gte(posts.scheduledAt, scheduledFrom),
    scheduledTo === undefined ? undefined : lte(posts.scheduledAt, scheduledTo),
    accountId === undefined
      ? undefined
      : inArray(
          posts.id,
          db
            .select({ id: postPlatforms.postId })
            .from(postPlatforms)
            .where(eq(postPlatforms.accountId, ownedId(accounts, tenant, accountId))),
        ),
  )!;
}

/**
 * A filtered page's ids and the filtered total, newest first. Unlike the unfiltered list (whose total is
 * the workspaces' counters and whose page reads per-workspace floors), both are read from the user's
 * posts that match, through a tenant-first index (`filterIndex`): a filter's cost is what it reads of
 * the user's posts, still in the one batch.
 */
export function filteredPage(db: Database, tenant: Tenant, page: PostPage) {
  const filters = page.filters ?? {};
  const where = filteredPosts(db, tenant, filters);
  const from = filterIndex(filters);
  const skip = page.beforeId === undefined ? (page.page - 1) * page.perPage : 0;
  const ids = db
    // A column of a table drizzle does not see in `from` (it is SQL, for the index hint): asked as SQL.
    .select({ id: sql<number>`${posts.id}` })
    .from(from)
    .where(page.beforeId === undefined ? where : and(where, lt(posts.id, page.beforeId)))
    .orderBy(desc(posts.id))
    .limit(page.perPage)
    .offset(skip);
  const total = db.select({ total: count() }).from(from).where(where);
  return { ids, total };
}

/**
 * One page of the posts of every workspace the user can access, newest first, and their total: the
 * total from the workspaces' maintained counters (migrations/0005), never a count of the posts.
 */
export async function pageOfPosts(
  db: Database,
  tenant: Tenant,
  page: PostPage,
  ctx: PresentContext,
): Promise<{ data: PresentedPost[]; total: number }> {
  const filtered = hasFilters(page.filters) ? filteredPage(db, tenant, page) : null;
  const [[totals], ...results] = await db.batch([
    filtered?.total ??
      db
        .select({ total: sql<number>`coalesce(sum(${workspaces.postCount}), 0)` })
        .from(workspaces)
        .where(inUserWorkspaces(db, workspaces.id, tenant)),
    ...postStatements(db, filtered?.ids ?? pageIdsOfUser(tenant, page), ctx.includeComments),
  ]);
  return { data: await presentPosts(assemblePosts(results), ctx), total: totals?.total ?? 0 };
}

/** The post, if the user can access it; 404 otherwise. */
export async function loadPost(db: Database, tenant: Tenant, id: number, ctx: PresentContext) {
  const ids = db
    .select({ id: posts.id })
    .from(posts)
    .where(postOfUser(db, tenant, id));
  const results = await db.batch(postStatements(db, ids, ctx.includeComments));
  const [presented] = await presentPosts(assemblePosts(results), ctx);
  if (!presented) throw notFound("Post");
  return presented;
}

/**
 * Runs a post's writes and reads it back in the same batch (one round trip): `postId` may be SQL, the
 * id of the post the batch itself inserts.
 */
export async function writeAndLoad(
  db: Database,
  writes: Statement[],
  postId: number | SQL,
  ctx: PresentContext,
): Promise<PresentedPost> {
  return (await writeLoadAndAnswer(db, writes, postId, ctx)).post;
}

/** writeAndLoad, also answering what each write returned (in order). */
export async function writeLoadAndAnswer(
  db: Database,
  writes: Statement[],
  postId: number | SQL,
  ctx: PresentContext,
): Promise<{ post: PresentedPost; written: unknown[] }> {
  const ids = db.select({ id: posts.id }).from(posts).where(eq(posts.id, postId));
  const reads = postStatements(db, ids, ctx.includeComments);
  const results = await runBatch(db, [...writes, ...reads]);
  const [presented] = await presentPosts(
    assemblePosts(results.slice(-reads.length) as unknown as PostResults),
    ctx,
  );
  return { post: presented!, written: results.slice(0, writes.length) };
}

/**
 * Deletes the post if the user can access it; 404 otherwise, and 409 while one of its rows is PUBLISHING
 * (the platform may be publishing it right now: the post is kept so its outcome is recorded; the same
 * rule as an update). Rows, media links, labels and comments go with it (ON DELETE CASCADE); a queued
 * publish job or a cron claim then finds no post and publishes nothing. One batch: the check and the
 * delete see the same rows.
 */
export async function deletePost(db: Database, tenant: Tenant, id: number): Promise<void> {
  const publishing = sql`EXISTS (SELECT 1 FROM ${postPlatforms} WHERE ${postPlatforms.postId} = ${posts.id} AND ${postPlatforms.status} = 'PUBLISHING')`;
  const [[found], deleted] = await db.batch([
    db
      .select({ publishing: sql<number>`${publishing}` })
      .from(posts)
      .where(postOfUser(db, tenant, id)),
    db
      .delete(posts)
      .where(and(postOfUser(db, tenant, id), sql`NOT ${publishing}`))
      .returning({ id: posts.id }),
  ]);
  if (!found) throw notFound("Post");
  if (deleted.length === 0)
    throw conflict("A post cannot be deleted while it is being published; send it again once it settled.");
}

/** The stored post (if the user can access it) and its rows' accounts, for an update; usable in a batch. */
export const storedPostStatements = (db: Database, tenant: Tenant, id: number) =>
  [
    db
      .select()
      .from(posts)
      .where(postOfUser(db, tenant, id)),
    db
      .select({ accountId: postPlatforms.accountId, platform: postPlatforms.platform })
      .from(postPlatforms)
      .where(eq(postPlatforms.postId, ownedId(posts, tenant, id))),
  ] as const;
