// The sandbox platform's posts, in its SandboxStore's SQLite storage (one instance per platform). A post
// keeps its thread items with their media as given (never fetched), the fingerprint it was published
// with, its account handle and time; a reply is a post with a parent. Attempts are counted per
// (handle, fingerprint) for the failure triggers. The instance runs one call at a time and each
// read-check-write below is synchronous SQL, so attempt counts are exact under any concurrency.
import { digits } from "../platforms/sandbox/ids";
import { type Decision, decide, triggerOf } from "./triggers";

export type SandboxMedia = { url: string; type: string };
export type SandboxItem = { text: string; media: SandboxMedia[] };

/** A post as its page and `Accept: application/json` show it. */
export type PostView = {
  id: string;
  handle: string;
  text: string[];
  /** Every media of the thread, in order; `item` is the index in `text` it belongs to. */
  media: { item: number; url: string; type: string }[];
  replies: { id: string; text: string; published_at: string }[];
  published_at: string;
};

export type NewPost = { handle: string; fingerprint: string; items: SandboxItem[]; parentId?: string };

/** What one publication attempt came to; `publish_lost` posts exist, their answer is to be lost. */
export type Attempt =
  | { kind: "publish" | "publish_lost"; id: string; publishedAt: number }
  | Exclude<Decision, { kind: "publish" | "publish_lost" }>;

/** The post an earlier attempt published, for `find`. */
export type Found = { id: string; publishedAt: number };

type Row = {
  id: string;
  handle: string;
  fingerprint: string;
  parent_id: string | null;
  items: string;
  published_at: number;
};

/** Creates the tables (once per instance, before any call runs). */
export function createTables(sql: SqlStorage) {
  sql.exec(`CREATE TABLE IF NOT EXISTS posts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    handle TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    parent_id TEXT,
    items TEXT NOT NULL,
    published_at INTEGER NOT NULL
  )`);
  sql.exec("CREATE INDEX IF NOT EXISTS posts_fingerprint_idx ON posts (handle, fingerprint, seq)");
  sql.exec("CREATE INDEX IF NOT EXISTS posts_account_idx ON posts (handle, parent_id, seq)");
  sql.exec("CREATE INDEX IF NOT EXISTS posts_parent_idx ON posts (parent_id, seq)");
  sql.exec(`CREATE TABLE IF NOT EXISTS attempts (
    handle TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (handle, fingerprint)
  )`);
}

/** Counts one attempt for (handle, fingerprint) and returns its number, from 1. */
function countAttempt(sql: SqlStorage, handle: string, fingerprint: string): number {
  const row = sql
    .exec<{ count: number }>(
      `INSERT INTO attempts (handle, fingerprint, count) VALUES (?, ?, 1)
       ON CONFLICT (handle, fingerprint) DO UPDATE SET count = count + 1 RETURNING count`,
      handle,
      fingerprint,
    )
    .one();
  return row.count;
}

/** A fresh post id: 18 digits, like a snowflake id. */
function newId(sql: SqlStorage): string {
  for (;;) {
    const id = digits(crypto.getRandomValues(new Uint8Array(16)), 18);
    if (sql.exec("SELECT 1 FROM posts WHERE id = ?", id).toArray().length === 0) return id;
  }
}

/** One publication attempt: the trigger in the first item decides, the attempt number counts. */
export function attemptPublish(sql: SqlStorage, post: NewPost, now: number): Attempt {
  const attempt = countAttempt(sql, post.handle, post.fingerprint);
  const decision = decide(triggerOf(post.items[0]?.text ?? ""), attempt);
  if (decision.kind !== "publish" && decision.kind !== "publish_lost") return decision;
  const id = newId(sql);
  sql.exec(
    "INSERT INTO posts (id, handle, fingerprint, parent_id, items, published_at) VALUES (?, ?, ?, ?, ?, ?)",
    id,
    post.handle,
    post.fingerprint,
    post.parentId ?? null,
    JSON.stringify(post.items),
    now,
  );
  return { kind: decision.kind, id, publishedAt: now };
}

/** The oldest post of the account published with this fingerprint, if any. */
export function findByFingerprint(sql: SqlStorage, handle: string, fingerprint: string): Found | null {
  const row = sql
    .exec<Pick<Row, "id" | "published_at">>(
      "SELECT id, published_at FROM posts WHERE handle = ? AND fingerprint = ? ORDER BY seq LIMIT 1",
      handle,
      fingerprint,
    )
    .toArray()[0];
  return row ? { id: row.id, publishedAt: row.published_at } : null;
}

/** Who published a post and when, if the store knows it. */
export function postOwner(sql: SqlStorage, id: string): { handle: string; publishedAt: number } | null {
  const row = sql
    .exec<Pick<Row, "handle" | "published_at">>("SELECT handle, published_at FROM posts WHERE id = ?", id)
    .toArray()[0];
  return row ? { handle: row.handle, publishedAt: row.published_at } : null;
}

const iso = (ms: number) => new Date(ms).toISOString();

function viewOf(sql: SqlStorage, row: Row): PostView {
  const items = JSON.parse(row.items) as SandboxItem[];
  const replies = sql
    .exec<Pick<Row, "id" | "items" | "published_at">>(
      "SELECT id, items, published_at FROM posts WHERE parent_id = ? ORDER BY seq",
      row.id,
    )
    .toArray()
    .map((reply) => ({
      id: reply.id,
      text: (JSON.parse(reply.items) as SandboxItem[]).map((item) => item.text).join("\n"),
      published_at: iso(reply.published_at),
    }));
  return {
    id: row.id,
    handle: row.handle,
    text: items.map((item) => item.text),
    media: items.flatMap((item, index) => item.media.map((m) => ({ item: index, url: m.url, type: m.type }))),
    replies,
    published_at: iso(row.published_at),
  };
}

/** A post (or a reply) as shown, else null. */
export function viewPost(sql: SqlStorage, id: string): PostView | null {
  const row = sql.exec<Row>("SELECT * FROM posts WHERE id = ?", id).toArray()[0];
  return row ? viewOf(sql, row) : null;
}

/** Every post (not reply) published on the account, oldest first. */
export function accountPosts(sql: SqlStorage, handle: string): PostView[] {
  return sql
    .exec<Row>("SELECT * FROM posts WHERE handle = ? AND parent_id IS NULL ORDER BY seq", handle)
    .toArray()
    .map((row) => viewOf(sql, row));
}
