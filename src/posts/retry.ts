// Retrying a FAILED post: only its FAILED rows go back to PUBLISHING (their `error` stays until the new
// outcome), the post with them, in one conditional batch that also reads the post back; then it goes to
// the publish queue. Rows that published stay as they are; a row whose earlier attempt may have reached
// the platform is reconciled before it is published again, so a retry never publishes twice. Two D1
// round trips with authentication.
import { and, eq, exists, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { postPlatforms, posts } from "../db/schema";
import { ownedId, type Tenant } from "../db/tenancy";
import { conflict, notFound } from "../http/errors";
import { enqueuePublish } from "../publishing/messages";
import { assemblePosts, type PostResults, postStatements } from "./load";
import { type PresentedPost, presentPosts } from "./present";
import { postOfUser } from "./queries";
import type { SaveContext } from "./save";

export async function retryPost(
  db: Database,
  tenant: Tenant,
  id: number,
  ctx: SaveContext,
): Promise<PresentedPost> {
  const now = new Date();
  const failedPost = and(postOfUser(db, tenant, id), eq(posts.status, "FAILED"));
  // Every lookup goes through the user's workspaces (ownedId): another tenant's post is never read.
  const rowsOfPost = eq(postPlatforms.postId, ownedId(posts, tenant, id));
  const publishingRow = db
    .select({ one: sql`1` })
    .from(postPlatforms)
    .where(and(rowsOfPost, eq(postPlatforms.status, "PUBLISHING")));
  const reads = postStatements(
    db,
    db
      .select({ id: posts.id })
      .from(posts)
      .where(postOfUser(db, tenant, id)),
    false,
  );
  const [, retried, ...results] = await db.batch([
    db
      .update(postPlatforms)
      .set({ status: "PUBLISHING", attemptId: null, attemptStartedAt: null, updatedAt: now })
      .where(
        and(
          rowsOfPost,
          eq(postPlatforms.status, "FAILED"),
          inArray(postPlatforms.postId, db.select({ id: posts.id }).from(posts).where(failedPost)),
        ),
      ),
    db
      .update(posts)
      .set({ status: "PUBLISHING", updatedAt: now })
      .where(and(failedPost, exists(publishingRow)))
      .returning({ id: posts.id }),
    ...reads,
  ]);
  const [post] = await presentPosts(assemblePosts(results as unknown as PostResults), {
    ...ctx,
    includeComments: false,
  });
  if (!post) throw notFound("Post");
  if (retried.length === 0) {
    throw conflict(
      post.status === "PUBLISHING"
        ? "The post is being published; retry it once it has FAILED."
        : "Nothing to retry: only a FAILED post's failed platform rows are published again.",
    );
  }
  await enqueuePublish(ctx.queue, [id]);
  return post;
}
