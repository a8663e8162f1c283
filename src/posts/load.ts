// Reads whole posts in one D1 batch. `ids` is a subquery (one post, or one page of posts), so every
// statement of the batch can be built before any of them runs: one round trip for any page size.
import { and, asc, desc, eq, inArray, type SQLWrapper, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import {
  type Comment,
  comments,
  labels,
  type Media,
  media,
  type Post,
  type PostPlatform,
  postLabels,
  postMedia,
  postPlatforms,
  posts,
  type Workspace,
  workspaces,
} from "../db/schema";

/** Comments a post shows (its newest) when `include_comments` asks for them. */
export const MAX_COMMENTS_PER_POST = 100;

export type LoadedPost = {
  post: Post;
  workspace: Workspace;
  rows: PostPlatform[];
  labels: Array<{ id: number; name: string; color: string }>;
  media: Array<{ itemIndex: number; position: number; media: Media }>;
  comments: Comment[];
};

/** A `SELECT id FROM posts …` subquery naming the posts to load. */
type IdSubquery = SQLWrapper;

export function postStatements(db: Database, ids: IdSubquery, includeComments: boolean) {
  return [
    // Two statements, not a join: D1 batch results are keyed by column name, and both tables have
    // `name`, `created_at`, … that would overwrite each other.
    db.select().from(posts).where(inArray(posts.id, ids)).orderBy(desc(posts.id)),
    db
      .select()
      .from(workspaces)
      .where(
        inArray(
          workspaces.id,
          db.select({ id: posts.workspaceId }).from(posts).where(inArray(posts.id, ids)),
        ),
      ),
    db.select().from(postPlatforms).where(inArray(postPlatforms.postId, ids)).orderBy(asc(postPlatforms.id)),
    db
      .select({ postId: postLabels.postId, id: labels.id, name: labels.name, color: labels.color })
      .from(postLabels)
      .innerJoin(labels, eq(postLabels.labelId, labels.id))
      .where(inArray(postLabels.postId, ids))
      .orderBy(asc(labels.id)),
    db
      .select({
        postId: postMedia.postId,
        itemIndex: postMedia.itemIndex,
        position: postMedia.position,
        media,
      })
      .from(postMedia)
      .innerJoin(media, eq(postMedia.mediaId, media.id))
      .where(inArray(postMedia.postId, ids))
      .orderBy(asc(postMedia.postId), asc(postMedia.itemIndex), asc(postMedia.position)),
    db
      .select()
      .from(comments)
      .where(
        includeComments
          ? and(
              inArray(comments.postId, ids),
              // The newest MAX_COMMENTS_PER_POST of each post, so a page's size stays bounded.
              inArray(
                comments.id,
                sql`(SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY post_id ORDER BY id DESC) AS n FROM ${comments} WHERE post_id IN ${ids}) WHERE n <= ${MAX_COMMENTS_PER_POST})`,
              ),
            )
          : sql`0`,
      )
      .orderBy(asc(comments.id)),
  ] as const;
}

export type PostResults = readonly [
  Post[],
  Workspace[],
  PostPlatform[],
  Array<{ postId: number; id: number; name: string; color: string }>,
  Array<{ postId: number; itemIndex: number; position: number; media: Media }>,
  Comment[],
];

export function assemblePosts([
  postRows,
  workspaceRows,
  rows,
  labelRows,
  mediaRows,
  commentRows,
]: PostResults): LoadedPost[] {
  const workspaceById = new Map(workspaceRows.map((w) => [w.id, w]));
  const byPost = <T extends { postId: number }>(items: T[]) => Map.groupBy(items, (item) => item.postId);
  const rowsBy = byPost(rows);
  const labelsBy = byPost(labelRows);
  const mediaBy = byPost(mediaRows);
  const commentsBy = byPost(commentRows);
  return postRows.map((post) => ({
    post,
    workspace: workspaceById.get(post.workspaceId)!,
    rows: rowsBy.get(post.id) ?? [],
    labels: (labelsBy.get(post.id) ?? []).map(({ id, name, color }) => ({ id, name, color })),
    media: (mediaBy.get(post.id) ?? []).map(({ itemIndex, position, media }) => ({
      itemIndex,
      position,
      media,
    })),
    comments: commentsBy.get(post.id) ?? [],
  }));
}
