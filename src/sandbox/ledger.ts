// What the emulated platforms remember, in each SandboxStore instance's SQLite storage (one instance per
// platform): the posts the platform published (with the body its API received), the objects it hands out
// before a post exists (uploads, containers, upload sessions, TikTok's publish ids), per-account counters
// (publications, media uploads, token refreshes), the accounts whose users removed the app, attempt
// counts for the failure triggers, and the comments followers left (the follower tool, account-routes.ts).
// Every function is synchronous SQL inside the instance, which runs one call at a time, so counts and
// read-check-writes are exact under any concurrency.
import { digits } from "../platforms/sandbox/ids";

/**
 * What one platform's store keeps at most. Anyone may mint tokens and upload while SANDBOX is on, so
 * every table is bounded: past a cap the oldest rows go (a revoked handle forgotten, an old post's page
 * gone, a spent code id forgotten, which its seal's own 10-minute expiry still bounds), and stored media
 * are bounded in bytes per account and per platform, the oldest files deleted first.
 */
export const SANDBOX_LIMITS = {
  /** Rows of each table of one platform's store. */
  rows: 20_000,
  /** Uploads, containers and upload sessions of one account. */
  objectsPerHandle: 500,
  /** Bytes one upload request may store (the platforms' own caps are checked before, in their format). */
  mediaBytesPerUpload: 32 * 1024 * 1024,
  /** Stored media bytes of one account. */
  mediaBytesPerHandle: 64 * 1024 * 1024,
  /** Stored media bytes of one platform. */
  mediaBytes: 512 * 1024 * 1024,
};
export type SandboxLimits = typeof SANDBOX_LIMITS;

/** The tables bounded by SANDBOX_LIMITS.rows. */
type Table =
  | "publications"
  | "objects"
  | "counters"
  | "revocations"
  | "tries"
  | "spent"
  | "media"
  | "comments";

/**
 * Keeps the `cap` newest rows of `table` (by rowid: a new row takes the next one): one indexed delete,
 * run after each insert.
 */
export function bound(sql: SqlStorage, table: Table, cap: number) {
  sql.exec(`DELETE FROM ${table} WHERE rowid <= (SELECT MAX(rowid) FROM ${table}) - ?`, cap);
}

export type Stat = "publications" | "media_uploads" | "token_refreshes";
export type Stats = Record<Stat, number>;

export type LedgerMedia = { url: string; type: string };
export type LedgerItem = { text: string; media: LedgerMedia[] };

/** A post as its page and `Accept: application/json` show it. */
export type LedgerPost = {
  id: string;
  handle: string;
  text: string[];
  /** Every media of the post, in order; `item` is the index in `text` it belongs to. */
  media: { item: number; url: string; type: string }[];
  replies: { id: string; text: string; published_at: string }[];
  published_at: string;
  /**
   * The body (or bodies, one per call, for a thread or a multi-step publish) the platform's API received,
   * as JSON text: values cross the store's RPC boundary as text (emulator.ts parses them).
   */
  platform_request: string;
  /** The post this one replies to, if it is a reply. */
  parent_id: string | null;
};

export type NewLedgerPost = {
  handle: string;
  items: LedgerItem[];
  /** As JSON text. */
  platformRequest: string;
  parentId?: string | null;
  /** The platform's own id for the post; a fresh 19-digit id when absent. */
  id?: string;
  /** Whether the post shows in the account's public lists (TikTok's private posts do not). */
  visible?: boolean;
};

/** Something the platform handed out before the post: an upload, a container, a publish id. */
export type LedgerObject = {
  id: string;
  handle: string;
  kind: string;
  data: string;
  createdAt: number;
  /** When its processing ends (Unix ms). */
  readyAt: number;
};

type PostRow = {
  id: string;
  handle: string;
  parent_id: string | null;
  items: string;
  request: string;
  published_at: number;
  visible: number;
};

export function createLedgerTables(sql: SqlStorage) {
  sql.exec(`CREATE TABLE IF NOT EXISTS publications (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    handle TEXT NOT NULL,
    parent_id TEXT,
    items TEXT NOT NULL,
    request TEXT NOT NULL,
    published_at INTEGER NOT NULL,
    visible INTEGER NOT NULL DEFAULT 1
  )`);
  sql.exec("CREATE INDEX IF NOT EXISTS publications_account_idx ON publications (handle, parent_id, seq)");
  sql.exec("CREATE INDEX IF NOT EXISTS publications_parent_idx ON publications (parent_id, seq)");
  sql.exec(`CREATE TABLE IF NOT EXISTS objects (
    id TEXT PRIMARY KEY,
    handle TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    ready_at INTEGER NOT NULL
  )`);
  sql.exec(`CREATE TABLE IF NOT EXISTS counters (
    handle TEXT NOT NULL,
    stat TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (handle, stat)
  )`);
  sql.exec(`CREATE TABLE IF NOT EXISTS revocations (
    handle TEXT PRIMARY KEY,
    revoked_at INTEGER NOT NULL
  )`);
  sql.exec("CREATE INDEX IF NOT EXISTS objects_account_idx ON objects (handle)");
  // Stored media (R2 keys under sandbox/<platform>/), by account, for the bounds of SANDBOX_LIMITS.
  sql.exec(`CREATE TABLE IF NOT EXISTS media (
    key TEXT PRIMARY KEY,
    handle TEXT NOT NULL,
    bytes INTEGER NOT NULL
  )`);
  sql.exec("CREATE INDEX IF NOT EXISTS media_account_idx ON media (handle)");
  // Comments followers left on a post (or on one of its comments: parent_id), the platform's made-up ones
  // aside (metrics.ts): ids drawn like theirs, so an emulator shows both the same way.
  sql.exec(`CREATE TABLE IF NOT EXISTS comments (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    post_id TEXT NOT NULL,
    parent_id TEXT,
    name TEXT NOT NULL,
    username TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    hidden INTEGER NOT NULL DEFAULT 0
  )`);
  sql.exec("CREATE INDEX IF NOT EXISTS comments_post_idx ON comments (post_id, seq)");
  sql.exec(`CREATE TABLE IF NOT EXISTS tries (
    handle TEXT NOT NULL,
    key TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (handle, key)
  )`);
}

/** Counts one attempt of (handle, key) and returns its number, from 1. */
export function countTry(
  sql: SqlStorage,
  handle: string,
  key: string,
  limits: SandboxLimits = SANDBOX_LIMITS,
): number {
  const { count } = sql
    .exec<{ count: number }>(
      `INSERT INTO tries (handle, key, count) VALUES (?, ?, 1)
       ON CONFLICT (handle, key) DO UPDATE SET count = count + 1 RETURNING count`,
      handle,
      key,
    )
    .one();
  bound(sql, "tries", limits.rows);
  return count;
}

export function bump(
  sql: SqlStorage,
  handle: string,
  stat: Stat,
  by = 1,
  limits: SandboxLimits = SANDBOX_LIMITS,
) {
  sql.exec(
    `INSERT INTO counters (handle, stat, count) VALUES (?, ?, ?)
     ON CONFLICT (handle, stat) DO UPDATE SET count = count + excluded.count`,
    handle,
    stat,
    by,
  );
  bound(sql, "counters", limits.rows);
}

export function statsOf(sql: SqlStorage, handle: string): Stats {
  const stats: Stats = { publications: 0, media_uploads: 0, token_refreshes: 0 };
  for (const row of sql
    .exec<{ stat: Stat; count: number }>("SELECT stat, count FROM counters WHERE handle = ?", handle)
    .toArray())
    if (row.stat in stats) stats[row.stat] = row.count;
  return stats;
}

export function revoke(sql: SqlStorage, handle: string, now: number, limits: SandboxLimits = SANDBOX_LIMITS) {
  sql.exec(
    `INSERT INTO revocations (handle, revoked_at) VALUES (?, ?)
     ON CONFLICT (handle) DO UPDATE SET revoked_at = excluded.revoked_at`,
    handle,
    now,
  );
  bound(sql, "revocations", limits.rows);
}

export function revokedAt(sql: SqlStorage, handle: string): number | null {
  return (
    sql
      .exec<{ revoked_at: number }>("SELECT revoked_at FROM revocations WHERE handle = ?", handle)
      .toArray()[0]?.revoked_at ?? null
  );
}

type IdTable = "publications" | "objects" | "comments";

const exists = (sql: SqlStorage, table: IdTable, id: string) =>
  sql.exec(`SELECT 1 FROM ${table} WHERE id = ?`, id).toArray().length > 0;

/** A fresh id of `length` digits, unused in `table`. */
export function freshId(sql: SqlStorage, table: IdTable, length = 19): string {
  for (;;) {
    const id = digits(crypto.getRandomValues(new Uint8Array(16)), length);
    if (!exists(sql, table, id)) return id;
  }
}

/** Stores a published post (or reply) and counts the publication; its id and time. */
export function insertPost(
  sql: SqlStorage,
  post: NewLedgerPost,
  now: number,
  limits: SandboxLimits = SANDBOX_LIMITS,
) {
  const id = post.id && !exists(sql, "publications", post.id) ? post.id : freshId(sql, "publications");
  sql.exec(
    `INSERT INTO publications (id, handle, parent_id, items, request, published_at, visible)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    id,
    post.handle,
    post.parentId ?? null,
    JSON.stringify(post.items),
    post.platformRequest,
    now,
    post.visible === false ? 0 : 1,
  );
  bound(sql, "publications", limits.rows);
  bump(sql, post.handle, "publications", 1, limits);
  return { id, publishedAt: now };
}

const iso = (ms: number) => new Date(ms).toISOString();

function viewOf(sql: SqlStorage, row: PostRow): LedgerPost {
  const items = JSON.parse(row.items) as LedgerItem[];
  const replies = sql
    .exec<Pick<PostRow, "id" | "items" | "published_at">>(
      "SELECT id, items, published_at FROM publications WHERE parent_id = ? ORDER BY seq",
      row.id,
    )
    .toArray()
    .map((reply) => ({
      id: reply.id,
      text: (JSON.parse(reply.items) as LedgerItem[]).map((item) => item.text).join("\n"),
      published_at: iso(reply.published_at),
    }));
  return {
    id: row.id,
    handle: row.handle,
    text: items.map((item) => item.text),
    media: items.flatMap((item, index) => item.media.map((m) => ({ item: index, url: m.url, type: m.type }))),
    replies,
    published_at: iso(row.published_at),
    platform_request: row.request,
    parent_id: row.parent_id,
  };
}

export function viewPost(sql: SqlStorage, id: string): LedgerPost | null {
  const row = sql.exec<PostRow>("SELECT * FROM publications WHERE id = ?", id).toArray()[0];
  return row ? viewOf(sql, row) : null;
}

/**
 * The account's posts, oldest first: top-level ones (or the replies to `parentId`), public ones only
 * unless `all` (the sandbox's own listing shows every one).
 */
export function listPosts(
  sql: SqlStorage,
  handle: string,
  options: { parentId?: string | null; all?: boolean } = {},
): LedgerPost[] {
  const parent = options.parentId ?? null;
  const rows = sql
    .exec<PostRow>(
      `SELECT * FROM publications WHERE handle = ? AND parent_id IS ? ${options.all ? "" : "AND visible = 1"}
       ORDER BY seq`,
      handle,
      parent,
    )
    .toArray();
  return rows.map((row) => viewOf(sql, row));
}

/** Every reply to a post, whoever wrote it, oldest first. */
export function repliesTo(sql: SqlStorage, parentId: string): LedgerPost[] {
  return sql
    .exec<PostRow>("SELECT * FROM publications WHERE parent_id = ? ORDER BY seq", parentId)
    .toArray()
    .map((row) => viewOf(sql, row));
}

type ObjectRow = {
  id: string;
  handle: string;
  kind: string;
  data: string;
  created_at: number;
  ready_at: number;
};

const objectOf = (row: ObjectRow): LedgerObject => ({
  id: row.id,
  handle: row.handle,
  kind: row.kind,
  data: row.data,
  createdAt: row.created_at,
  readyAt: row.ready_at,
});

export function createObject(
  sql: SqlStorage,
  object: { id?: string; handle: string; kind: string; data: string; readyAt: number },
  now: number,
  limits: SandboxLimits = SANDBOX_LIMITS,
): LedgerObject {
  const id = object.id && !exists(sql, "objects", object.id) ? object.id : freshId(sql, "objects", 17);
  sql.exec(
    "INSERT INTO objects (id, handle, kind, data, created_at, ready_at) VALUES (?, ?, ?, ?, ?, ?)",
    id,
    object.handle,
    object.kind,
    object.data,
    now,
    object.readyAt,
  );
  // The account's oldest go first, then the store's.
  sql.exec(
    `DELETE FROM objects WHERE handle = ? AND rowid <= (
       SELECT rowid FROM objects WHERE handle = ? ORDER BY rowid DESC LIMIT 1 OFFSET ?)`,
    object.handle,
    object.handle,
    limits.objectsPerHandle,
  );
  bound(sql, "objects", limits.rows);
  return {
    id,
    handle: object.handle,
    kind: object.kind,
    data: object.data,
    createdAt: now,
    readyAt: object.readyAt,
  };
}

export function getObject(sql: SqlStorage, id: string): LedgerObject | null {
  const row = sql.exec<ObjectRow>("SELECT * FROM objects WHERE id = ?", id).toArray()[0];
  return row ? objectOf(row) : null;
}

/** Merges `patch` (JSON text of an object) into the object's data (and moves its ready time if given); the object after, if any. */
export function updateObject(
  sql: SqlStorage,
  id: string,
  patch: string,
  readyAt?: number,
): LedgerObject | null {
  const current = getObject(sql, id);
  if (!current) return null;
  const data = JSON.stringify({ ...JSON.parse(current.data), ...JSON.parse(patch) });
  sql.exec("UPDATE objects SET data = ?, ready_at = ? WHERE id = ?", data, readyAt ?? current.readyAt, id);
  return { ...current, data, readyAt: readyAt ?? current.readyAt };
}

/** The account's objects of a kind, oldest first. */
export function listObjects(sql: SqlStorage, handle: string, kind: string): LedgerObject[] {
  return sql
    .exec<ObjectRow>(
      "SELECT * FROM objects WHERE handle = ? AND kind = ? ORDER BY created_at, id",
      handle,
      kind,
    )
    .toArray()
    .map(objectOf);
}

/**
 * Records `bytes` stored at `key` for the account, then forgets the oldest media (never `key`) until the
 * account and the platform are within SANDBOX_LIMITS; the keys forgotten, whose files the caller deletes.
 */
export function keepMedia(
  sql: SqlStorage,
  handle: string,
  key: string,
  bytes: number,
  limits: SandboxLimits = SANDBOX_LIMITS,
): string[] {
  sql.exec(
    `INSERT INTO media (key, handle, bytes) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET handle = excluded.handle, bytes = excluded.bytes`,
    key,
    handle,
    bytes,
  );
  const evicted: string[] = [];
  const evict = (where: string, args: string[], cap: number, count: number) => {
    for (;;) {
      const { total, rows } = sql
        .exec<{ total: number; rows: number }>(
          `SELECT COALESCE(SUM(bytes), 0) AS total, COUNT(*) AS rows FROM media WHERE ${where}`,
          ...args,
        )
        .one();
      if (total <= cap && rows <= count) return;
      const oldest = sql
        .exec<{ key: string }>(
          `SELECT key FROM media WHERE ${where} AND key != ? ORDER BY rowid LIMIT 1`,
          ...args,
          key,
        )
        .toArray()[0];
      if (!oldest) return;
      sql.exec("DELETE FROM media WHERE key = ?", oldest.key);
      evicted.push(oldest.key);
    }
  };
  evict("handle = ?", [handle], limits.mediaBytesPerHandle, limits.objectsPerHandle);
  evict("1 = 1", [], limits.mediaBytes, limits.rows);
  return evicted;
}

/** Forgets media whose files were deleted (X's segments once put together). */
export function dropMedia(sql: SqlStorage, keys: string[]) {
  for (const key of keys) sql.exec("DELETE FROM media WHERE key = ?", key);
}

/** A comment a follower leaves (the follower tool): on `postId`, answering `parentId` if given. */
export type NewLedgerComment = {
  postId: string;
  parentId: string | null;
  author: { name: string; username: string };
  text: string;
};

type CommentRow = {
  id: string;
  parent_id: string | null;
  name: string;
  username: string;
  text: string;
  created_at: number;
  hidden: number;
};

/** Stores a follower's comment; its fresh 19-digit id (the made-up comments' form). */
export function insertComment(
  sql: SqlStorage,
  comment: NewLedgerComment,
  now: number,
  limits: SandboxLimits = SANDBOX_LIMITS,
): string {
  const id = freshId(sql, "comments");
  sql.exec(
    `INSERT INTO comments (id, post_id, parent_id, name, username, text, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    id,
    comment.postId,
    comment.parentId,
    comment.author.name,
    comment.author.username,
    comment.text,
    now,
  );
  bound(sql, "comments", limits.rows);
  return id;
}

/** The followers' comments on a post (replies to its comments included), oldest first. */
export function storedComments(sql: SqlStorage, postId: string) {
  return sql
    .exec<CommentRow>(
      "SELECT id, parent_id, name, username, text, created_at, hidden FROM comments WHERE post_id = ? ORDER BY seq",
      postId,
    )
    .toArray()
    .map((row) => ({
      id: row.id,
      text: row.text,
      author: { name: row.name, username: row.username },
      created_at: row.created_at,
      parent_id: row.parent_id,
      hidden: row.hidden === 1,
    }));
}

/** A follower's (or the account's) stored comment by its id, with the post it is on; null when gone. */
export function storedComment(sql: SqlStorage, id: string) {
  const row = sql
    .exec<CommentRow & { post_id: string }>(
      "SELECT id, post_id, parent_id, name, username, text, created_at, hidden FROM comments WHERE id = ?",
      id,
    )
    .toArray()[0];
  return row
    ? {
        id: row.id,
        post_id: row.post_id,
        parent_id: row.parent_id,
        text: row.text,
        author: { name: row.name, username: row.username },
        created_at: row.created_at,
        hidden: row.hidden === 1,
      }
    : null;
}

/** Hides or shows again a stored comment. */
export function setCommentHidden(sql: SqlStorage, id: string, hidden: boolean): void {
  sql.exec("UPDATE comments SET hidden = ? WHERE id = ?", hidden ? 1 : 0, id);
}

/** Deletes a stored comment (its replies stay, as a platform keeps answers to a deleted comment). */
export function deleteStoredComment(sql: SqlStorage, id: string): void {
  sql.exec("DELETE FROM comments WHERE id = ?", id);
}
