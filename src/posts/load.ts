// Reads whole posts in one statement: each post row carries its workspace, platform rows, labels,
// media and comments as JSON built by SQLite (correlated subqueries on the children's post_id indexes),
// so the ids subquery (one post, or a page of posts) is evaluated once per answer, not once per table,
// and the statement fits in any batch. `ids` is a subquery, so the statement is built before it runs.
import { desc, getTableColumns, inArray, type SQLWrapper, sql } from "drizzle-orm";
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

type Row = Pick<
  PostPlatform,
  | "accountId"
  | "platform"
  | "status"
  | "settings"
  | "analytics"
  | "platformPostId"
  | "postUrl"
  | "postedOn"
  | "error"
>;

export type LoadedPost = {
  post: Post;
  workspace: Workspace;
  rows: Row[];
  labels: Array<{ id: number; name: string; color: string }>;
  media: Array<{
    itemIndex: number;
    position: number;
    media: Pick<Media, "id" | "name" | "mimeType" | "size">;
  }>;
  comments: Array<Pick<Comment, "id" | "content" | "authorName" | "platform" | "createdAt" | "contact">>;
};

/** A `SELECT id FROM posts …` subquery naming the posts to load. */
type IdSubquery = SQLWrapper;

/** The workspace as a JSON object (its JSON keys are the drizzle field names). */
const workspaceJson = sql`(SELECT json_object('id', w.id, 'name', w.name, 'slug', w.slug, 'type', w.type,
  'logo', w.logo, 'timezone', w.timezone, 'language', w.language, 'createdAt', w.created_at,
  'updatedAt', w.updated_at, 'postCount', w.post_count, 'mediaCount', w.media_count)
  FROM ${workspaces} w WHERE w.id = ${posts.workspaceId})`;

const rowsJson = sql`(SELECT json_group_array(json_object('accountId', r.account_id, 'platform', r.platform,
  'status', r.status, 'settings', json(r.settings), 'analytics', json(r.analytics),
  'platformPostId', r.platform_post_id, 'postUrl', r.post_url, 'postedOn', json(r.posted_on),
  'error', json(r.error)) ORDER BY r.id)
  FROM ${postPlatforms} r WHERE r.post_id = ${posts.id})`;

const labelsJson = sql`(SELECT json_group_array(json_object('id', l.id, 'name', l.name, 'color', l.color)
  ORDER BY l.id) FROM ${postLabels} pl JOIN ${labels} l ON l.id = pl.label_id WHERE pl.post_id = ${posts.id})`;

// A deleted item's link kept by a post that published it (src/media/queries.ts) shows the summary copied
// into post_media; a link to an item deleted without one is not shown.
const mediaJson = sql`(SELECT json_group_array(json_object('itemIndex', pm.item_index, 'position', pm.position,
  'id', pm.media_id, 'name', coalesce(m.name, pm.name), 'mimeType', coalesce(m.mime_type, pm.mime_type),
  'size', coalesce(m.size, pm.size)) ORDER BY pm.item_index, pm.position)
  FROM ${postMedia} pm LEFT JOIN ${media} m ON m.id = pm.media_id
  WHERE pm.post_id = ${posts.id} AND (m.id IS NOT NULL OR pm.name IS NOT NULL))`;

/** The newest MAX_COMMENTS_PER_POST of the post, oldest first, so a page's size stays bounded. */
const commentsJson = sql`(SELECT json_group_array(json_object('id', c.id, 'content', c.content,
  'authorName', c.author_name, 'platform', c.platform, 'createdAt', c.created_at, 'contact', json(c.contact))
  ORDER BY c.id) FROM (SELECT * FROM ${comments} WHERE post_id = ${posts.id} ORDER BY id DESC
  LIMIT ${MAX_COMMENTS_PER_POST}) c)`;

export function postStatements(db: Database, ids: IdSubquery, includeComments: boolean) {
  return [
    db
      .select({
        ...getTableColumns(posts),
        workspaceJson: sql<string>`${workspaceJson}`.as("workspace_json"),
        rowsJson: sql<string>`${rowsJson}`.as("rows_json"),
        labelsJson: sql<string>`${labelsJson}`.as("labels_json"),
        mediaJson: sql<string>`${mediaJson}`.as("media_json"),
        commentsJson: (includeComments ? sql<string>`${commentsJson}` : sql<string>`'[]'`).as(
          "comments_json",
        ),
      })
      .from(posts)
      .where(inArray(posts.id, ids))
      .orderBy(desc(posts.id)),
  ] as const;
}

type Selected = Post & {
  workspaceJson: string;
  rowsJson: string;
  labelsJson: string;
  mediaJson: string;
  commentsJson: string;
};

export type PostResults = readonly [Selected[]];

const date = (ms: number) => new Date(ms);

export function assemblePosts([selected]: PostResults): LoadedPost[] {
  return selected.map(({ workspaceJson: w, rowsJson, labelsJson, mediaJson, commentsJson, ...post }) => {
    const workspace = JSON.parse(w) as Workspace & { createdAt: number; updatedAt: number };
    const mediaItems = JSON.parse(mediaJson) as Array<
      { itemIndex: number; position: number } & LoadedPost["media"][number]["media"]
    >;
    const postComments = JSON.parse(commentsJson) as Array<
      Omit<LoadedPost["comments"][number], "createdAt"> & { createdAt: number }
    >;
    return {
      post,
      workspace: { ...workspace, createdAt: date(workspace.createdAt), updatedAt: date(workspace.updatedAt) },
      rows: JSON.parse(rowsJson) as Row[],
      labels: JSON.parse(labelsJson) as LoadedPost["labels"],
      media: mediaItems.map(({ itemIndex, position, ...item }) => ({ itemIndex, position, media: item })),
      comments: postComments.map((comment) => ({ ...comment, createdAt: date(comment.createdAt) })),
    };
  });
}
