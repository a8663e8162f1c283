// The read side of the posts API: a page of the user's posts, one post, a post read back in the batch
// that wrote it, and delete. Each reads whole posts in a single batch (load.ts), so every answer costs
// one D1 round trip after authentication.
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { runBatch, type Statement } from "../db/batch";
import type { Database } from "../db/client";
import { postPlatforms, posts } from "../db/schema";
import { notFound } from "../http/errors";
import { inUserWorkspaces } from "../workspaces/queries";
import { assemblePosts, type PostResults, postStatements } from "./load";
import { type PresentContext, type PresentedPost, presentPosts } from "./present";

/** The condition "this post is the user's": its workspace is one the user is a member of. */
export const postOfUser = (db: Database, userId: number, id: number) =>
  and(eq(posts.id, id), inUserWorkspaces(db, posts.workspaceId, userId));

/** One page of the posts of every workspace the user can access, newest first, and their total. */
export async function pageOfPosts(
  db: Database,
  userId: number,
  page: { page: number; perPage: number },
  ctx: PresentContext,
): Promise<{ data: PresentedPost[]; total: number }> {
  const mine = inUserWorkspaces(db, posts.workspaceId, userId);
  const pageIds = db
    .select({ id: posts.id })
    .from(posts)
    .where(mine)
    .orderBy(desc(posts.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage);
  const [[totals], ...results] = await db.batch([
    db.select({ total: count() }).from(posts).where(mine),
    ...postStatements(db, pageIds, ctx.includeComments),
  ]);
  return { data: await presentPosts(assemblePosts(results), ctx), total: totals?.total ?? 0 };
}

/** The post, if the user can access it; 404 otherwise. */
export async function loadPost(db: Database, userId: number, id: number, ctx: PresentContext) {
  const ids = db
    .select({ id: posts.id })
    .from(posts)
    .where(postOfUser(db, userId, id));
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
  const ids = db.select({ id: posts.id }).from(posts).where(eq(posts.id, postId));
  const reads = postStatements(db, ids, ctx.includeComments);
  const results = await runBatch(db, [...writes, ...reads]);
  const [presented] = await presentPosts(
    assemblePosts(results.slice(-reads.length) as unknown as PostResults),
    ctx,
  );
  return presented!;
}

/**
 * Deletes the post if the user can access it; 404 otherwise. Rows, media links, labels and comments go
 * with it (ON DELETE CASCADE); a queued publish job or a cron claim then finds no post and publishes
 * nothing.
 */
export async function deletePost(db: Database, userId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(posts)
    .where(postOfUser(db, userId, id))
    .returning({ id: posts.id });
  if (deleted.length === 0) throw notFound("Post");
}

/** The stored post (if the user can access it) and its rows' accounts, for an update; usable in a batch. */
export const storedPostStatements = (db: Database, userId: number, id: number) =>
  [
    db
      .select()
      .from(posts)
      .where(postOfUser(db, userId, id)),
    db
      .select({ accountId: postPlatforms.accountId, platform: postPlatforms.platform })
      .from(postPlatforms)
      .where(eq(postPlatforms.postId, id)),
  ] as const;
