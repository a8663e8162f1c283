// Reads whole posts in one statement answering one JSON string built by SQLite: each post with its
// workspace, platform rows, labels, media and comments (correlated subqueries on the children's post_id
// indexes),
// so the ids subquery (one post, or a page of posts) is evaluated once per answer, not once per table,
// and the statement fits in any batch. `ids` is a subquery, so the statement is built before it runs.
import { getTableColumns, inArray, is, type SQLWrapper, sql } from "drizzle-orm";
import { SQLiteTextJson } from "drizzle-orm/sqlite-core";
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

// Every child is a JSON array of positional arrays, not of objects: the field names would be repeated
// in every row of every post (a third of a 100-post page's bytes), and D1's time grows with the bytes it
// returns. The positions are read back by name in assemblePosts below.

/** The post's workspace: [id, name, slug, type, logo, timezone, language, created_at, updated_at,
 * post_count, media_count, media_bytes, mode, approval], as text: the page lists each workspace once (postStatements). */
const workspaceJson = sql`(SELECT json_array(w.id, w.name, w.slug, w.type, w.logo, w.timezone, w.language,
  w.created_at, w.updated_at, w.post_count, w.media_count, w.media_bytes, w.mode, w.approval)
  FROM ${workspaces} w WHERE w.id = ${posts.workspaceId})`;

/** [account_id, platform, status, settings, analytics, platform_post_id, post_url, posted_on, error] per row. */
const rowsJson = sql`(SELECT json_group_array(json_array(r.account_id, r.platform, r.status, json(r.settings),
  json(r.analytics), r.platform_post_id, r.post_url, json(r.posted_on), json(r.error)) ORDER BY r.id)
  FROM ${postPlatforms} r WHERE r.post_id = ${posts.id})`;

/** [id, name, color] per label. */
const labelsJson = sql`(SELECT json_group_array(json_array(l.id, l.name, l.color)
  ORDER BY l.id) FROM ${postLabels} pl JOIN ${labels} l ON l.id = pl.label_id WHERE pl.post_id = ${posts.id})`;

// A deleted item's link kept by a post that published it (src/media/queries.ts) shows the summary copied
// into post_media; a link to an item deleted without one is not shown.
/** [item_index, position, id, name, mime_type, size] per medium. */
const mediaJson = sql`(SELECT json_group_array(json_array(pm.item_index, pm.position, pm.media_id,
  coalesce(m.name, pm.name), coalesce(m.mime_type, pm.mime_type), coalesce(m.size, pm.size))
  ORDER BY pm.item_index, pm.position)
  FROM ${postMedia} pm LEFT JOIN ${media} m ON m.id = pm.media_id
  WHERE pm.post_id = ${posts.id} AND (m.id IS NOT NULL OR pm.name IS NOT NULL))`;

/**
 * The newest MAX_COMMENTS_PER_POST of the post, oldest first, so a page's size stays bounded:
 * [id, content, author_name, platform, created_at, contact] per comment.
 */
const commentsJson = sql`(SELECT json_group_array(json_array(c.id, c.content, c.author_name, c.platform,
  c.created_at, json(c.contact)) ORDER BY c.id) FROM (SELECT * FROM ${comments} WHERE post_id = ${posts.id}
  ORDER BY id DESC LIMIT ${MAX_COMMENTS_PER_POST}) c)`;

/** The posts table's columns in a fixed order: a post travels as the array of their values. */
const POST_COLUMNS = Object.entries(getTableColumns(posts));

/** JSON columns travel as JSON (`json(col)`), not as text to parse again (and escaped in the string). */
const isJsonColumn = (column: (typeof POST_COLUMNS)[number][1]) => is(column, SQLiteTextJson);

/**
 * How each value is decoded, as drizzle decodes it (timestamps as Dates, booleans), decided once: a
 * JSON column arrives parsed and a plain one as it is (null for both: no decoding).
 */
const POST_DECODERS = POST_COLUMNS.map(([key, column]) => {
  const plain =
    isJsonColumn(column) || column.columnType === "SQLiteInteger" || column.columnType === "SQLiteText";
  return [key, plain ? null : (value: unknown) => column.mapFromDriverValue(value)] as const;
});

/**
 * The posts as one JSON string (one row), `[posts, workspaces]`: the posts newest first, each the values
 * of its columns, then its rows, labels, media and comments; and each of their workspaces once (a page's
 * posts share a few: repeating the workspace in every post was a seventh of the page's bytes). One
 * string instead of a row per post spares D1 the column names of every row (its time grows with the
 * bytes it answers); the ids are still evaluated once.
 */
export function postStatements(db: Database, ids: IdSubquery, includeComments: boolean) {
  const values = sql.join(
    POST_COLUMNS.map(([, column]) => (isJsonColumn(column) ? sql`json(${column})` : sql`${column}`)),
    sql`, `,
  );
  // json(): a subquery's JSON text would otherwise be embedded as a string.
  const children = sql.join(
    [rowsJson, labelsJson, mediaJson, includeComments ? commentsJson : sql`'[]'`].map(
      (child) => sql`json(${child})`,
    ),
    sql`, `,
  );
  return [
    db
      .select({
        // The distinct workspaces' texts joined into one array (json(): parsed once, not embedded as a
        // string); no posts, no workspaces.
        page: sql<string>`json_array(json_group_array(json_array(${values}, ${children}) ORDER BY ${posts.id} DESC),
          json('[' || coalesce(group_concat(DISTINCT ${workspaceJson}), '') || ']'))`,
      })
      .from(posts)
      .where(inArray(posts.id, ids)),
  ] as const;
}

export type PostResults = readonly [{ page: string }[]];

const date = (ms: number) => new Date(ms);

type WorkspaceTuple = [
  number,
  string,
  string,
  Workspace["type"],
  string | null,
  string,
  string,
  number,
  number,
  number,
  number,
  number,
  Workspace["mode"],
  Workspace["approval"],
];
type RowTuple = [
  number,
  Row["platform"],
  Row["status"],
  Row["settings"],
  Row["analytics"],
  string | null,
  string | null,
  number[],
  Row["error"],
];
type MediaTuple = [number, number, number, string, string, number];
type CommentTuple = [
  number,
  string,
  string,
  LoadedPost["comments"][number]["platform"],
  number,
  Record<string, unknown> | null,
];

function workspaceOf(tuple: WorkspaceTuple): Workspace {
  const [
    id,
    name,
    slug,
    type,
    logo,
    timezone,
    language,
    createdAt,
    updatedAt,
    postCount,
    mediaCount,
    mediaBytes,
    mode,
    approval,
  ] = tuple;
  return {
    id,
    name,
    slug,
    type,
    logo,
    timezone,
    language,
    createdAt: date(createdAt),
    updatedAt: date(updatedAt),
    postCount,
    mediaCount,
    mediaBytes,
    mode,
    approval,
  };
}

/** A post's columns, decoded as drizzle decodes them (JSON columns parsed, timestamps as Dates). */
function postOf(values: unknown[]): Post {
  const post: Record<string, unknown> = {};
  for (let i = 0; i < POST_DECODERS.length; i++) {
    const [key, decode] = POST_DECODERS[i]!;
    const value = values[i];
    post[key] = value === null || decode === null ? value : decode(value);
  }
  return post as Post;
}

export function assemblePosts([[result]]: PostResults): LoadedPost[] {
  const [tuples, workspaceTuples] = (result ? JSON.parse(result.page) : [[], []]) as [
    unknown[][],
    WorkspaceTuple[],
  ];
  const workspaceById = new Map(workspaceTuples.map((w) => [w[0], workspaceOf(w)]));
  return tuples.map((tuple) => {
    const [rowsJson, labelsJson, mediaJson, commentsJson] = tuple.slice(POST_COLUMNS.length) as [
      RowTuple[],
      [number, string, string][],
      MediaTuple[],
      CommentTuple[],
    ];
    const post = postOf(tuple);
    return {
      post,
      workspace: workspaceById.get(post.workspaceId)!,
      rows: rowsJson.map(
        ([accountId, platform, status, settings, analytics, platformPostId, postUrl, postedOn, error]) => ({
          accountId,
          platform,
          status,
          settings,
          analytics,
          platformPostId,
          postUrl,
          postedOn,
          error,
        }),
      ),
      labels: labelsJson.map(([id, name, color]) => ({ id, name, color })),
      media: mediaJson.map(([itemIndex, position, id, name, mimeType, size]) => ({
        itemIndex,
        position,
        media: { id, name, mimeType, size },
      })),
      comments: commentsJson.map(([id, content, authorName, platform, createdAt, contact]) => ({
        id,
        content,
        authorName,
        platform,
        createdAt: date(createdAt),
        contact,
      })),
    };
  });
}
