// Committing an import: the valid rows checked again by the dry run (a row that became invalid since the
// upload, an account expired or disconnected, is reported, not created), then their posts, created once,
// in row order, each through createPost (the function POST /api/v1/posts uses; queued rows take slots in
// row order). Each post's
// batch also records its row (import_posts, unique per row), so a commit whose worker died is finished
// by the next commit without creating any row twice, and two racing commits cannot both create a row.
// Rows with media URLs: the first commit starts their imports (the media URL import's own function, so
// its quota, caps, address guard and queue apply), records the items per row while it holds the claim,
// and answers `importing_media`; each later commit answers the progress until every item has settled,
// then creates the rows (one whose media failed is reported `media_import_failed`).
import type { Database } from "../db/client";
import type { Tenant } from "../db/tenancy";
import { ApiError, conflict } from "../http/errors";
import type { ImportGuard } from "../lib/url-guard";
import type { MediaLimits } from "../media/config";
import type { MediaImportMessage } from "../media/import/consumer";
import { startImportByUrl } from "../media/import/start";
import { createPost, type SaveContext } from "../posts/save";
import {
  awaitMedia,
  claimCommit,
  finishCommit,
  handOver,
  isRowRecorded,
  loadImport,
  type MediaState,
  mediaStates,
  recordCreated,
  recordMedia,
  type StoredImport,
} from "./queries";
import {
  type ImportRow,
  mediaUrlField,
  mediaUrlsOf,
  type Problem,
  postOfRow,
  type RowContext,
  validateRows,
  withMediaIds,
} from "./rows";

/**
 * What a commit needs: how to create (as POST /posts), how to check rows (as the dry run), and how to
 * import media URLs (as POST /api/v1/media/upload/url).
 */
export type CommitContext = SaveContext & {
  rows: RowContext;
  media: { queue: Queue<MediaImportMessage>; guard: ImportGuard; limits: MediaLimits };
};

/** The items an import's URLs became, by state; a URL that gave no item counts as failed. */
export type MediaProgress = { ready: number; failed: number; pending: number };

export type CommitAnswer = {
  id: string;
  status: "committing" | "importing_media" | "committed";
  remaining: number;
  created: Array<{ row: number; post_id: number }>;
  failed: Array<{ row: number; problems: Problem[] }>;
  media?: MediaProgress;
};

/** How long a commit that finds another one under way waits for it before answering 409. */
const WAIT_FOR_OTHER_MS = 20_000;
const POLL_MS = 250;

const answerOf = (
  imp: StoredImport,
  created: Array<{ row: number; postId: number }>,
  remaining: number,
  media?: MediaProgress,
): CommitAnswer => ({
  id: imp.id,
  status: imp.status === "importing_media" ? imp.status : remaining > 0 ? "committing" : "committed",
  remaining,
  created: created.map((c) => ({ row: c.row, post_id: c.postId })),
  failed: imp.rows.filter((r) => r.failedAtCommit).map((r) => ({ row: r.row, problems: r.problems })),
  ...(media ? { media } : {}),
});

/** The media ids an import recorded for its rows' URLs. */
const recordedIds = (rows: ImportRow[]) => [
  ...new Set(rows.flatMap((r) => Object.values(r.mediaIds ?? {}).flat())),
];

/** How far an import's media are (undefined for an import without media URLs). */
export async function mediaProgress(db: Database, rows: ImportRow[]): Promise<MediaProgress | undefined> {
  const withMedia = rows.filter((r) => r.mediaIds);
  if (withMedia.length === 0) return undefined;
  return progressOf(withMedia, await mediaStates(db, recordedIds(withMedia)));
}

function progressOf(rows: ImportRow[], states: Map<number, MediaState>): MediaProgress {
  const progress = { ready: 0, failed: 0, pending: 0 };
  for (const id of recordedIds(rows)) {
    const state = states.get(id)?.state ?? "failed";
    progress[state === "ready" ? "ready" : state === "failed" ? "failed" : "pending"]++;
  }
  const empty = new Set(
    rows.flatMap((r) =>
      Object.entries(r.mediaIds ?? {})
        .filter(([, ids]) => ids.length === 0)
        .map(([url]) => url),
    ),
  );
  progress.failed += empty.size;
  return progress;
}

/** Why a row's media keep it from being created: a URL that gave no item, or an item that failed. */
function mediaProblems(row: ImportRow, states: Map<number, MediaState>): Problem[] {
  return Object.entries(row.mediaIds ?? {}).flatMap(([url, ids]): Problem[] => {
    const field = mediaUrlField(row, url);
    if (ids.length === 0)
      return [
        {
          field,
          code: "media_import_failed",
          message: `${url} gave no media to import: unreachable, not an image or a video, over a size cap or the storage quota, or past what one import may fetch.`,
        },
      ];
    return ids.flatMap((id) => {
      const state = states.get(id);
      if (state?.state === "ready") return [];
      return [
        {
          field,
          code: "media_import_failed",
          message: `${url} could not be imported: ${state?.error ?? "the media item was deleted"}.`,
        },
      ];
    });
  });
}

/** The problems of a row createPost refused: its 422's errors by field. */
const refusal = (error: ApiError): Problem[] =>
  Object.entries(error.body.errors ?? { row: [error.body.message] }).flatMap(([field, messages]) =>
    messages.map((message) => ({ field, code: "refused_at_commit", message })),
  );

/**
 * Rows one commit request creates at most: each costs two D1 calls (create's read and write), and a
 * Worker invocation may make 1,000. A larger import answers `committing` with `remaining`; the next
 * commit goes on from there.
 */
export const COMMIT_CHUNK = 300;

/**
 * Commits the import, or answers as the commit that finished it did. While another request holds the
 * commit, waits for it to finish or to hand over (between chunks), then goes on itself.
 */
export async function commitImport(
  db: Database,
  tenant: Tenant,
  id: string,
  ctx: CommitContext,
  chunk = COMMIT_CHUNK,
): Promise<CommitAnswer> {
  const stop = Date.now() + WAIT_FOR_OTHER_MS;
  for (;;) {
    const claimed = await claimCommit(db, tenant, id, new Date());
    if (claimed) return runCommit(db, tenant, claimed, ctx, chunk);
    const { stored, created } = await loadImport(db, tenant, id);
    if (stored.status === "committed")
      return answerOf(stored, created, 0, await mediaProgress(db, stored.rows));
    if (Date.now() >= stop)
      throw conflict("The import is being committed by another request; send the commit again.");
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function runCommit(
  db: Database,
  tenant: Tenant,
  claimed: StoredImport,
  ctx: CommitContext,
  chunk: number,
): Promise<CommitAnswer> {
  const { id } = claimed;
  const started = await startMedia(db, tenant, claimed, ctx);
  const states = await mediaStates(db, recordedIds(started.rows));
  const progress = started.rows.some((r) => r.mediaIds) ? progressOf(started.rows, states) : undefined;
  if (progress && progress.pending > 0) {
    await awaitMedia(db, id, new Date());
    const { stored, created } = await loadImport(db, tenant, id);
    const valid = stored.rows.filter((r) => r.problems.length === 0).length;
    return answerOf(stored, created, valid - created.length, progress);
  }
  const { created: before } = await loadImport(db, tenant, id);
  const done = new Map(before.map((c) => [c.row, c.postId]));
  const pending = started.rows.filter((row) => row.problems.length === 0 && !done.has(row.row));
  const chunkRows = new Set(pending.slice(0, chunk).map((row) => row.row));
  // A row whose media failed is not created; the others get their items' ids in place of the URLs.
  const failedMedia = new Map<number, Problem[]>();
  const inputs = new Map<number, unknown>();
  for (const row of pending.filter((r) => chunkRows.has(r.row))) {
    const problems = mediaProblems(row, states);
    if (problems.length > 0) failedMedia.set(row.row, problems);
    else inputs.set(row.row, row.mediaIds ? withMediaIds(row.input, row.mediaIds) : row.input);
  }
  // The dry run again, on this chunk's rows (a shared read: a few round trips): what changed since the
  // upload (an account expired or disconnected, a label deleted) fails the row before anything is created.
  const now = await validateRows(
    db,
    tenant,
    claimed.workspaceId,
    pending
      .filter((row) => inputs.has(row.row))
      .map(({ problems: _, ...row }) => ({ ...row, input: inputs.get(row.row) })),
    ctx.rows,
  );
  const recheck = new Map(now.map((row) => [row.row, row.problems]));
  const rows: ImportRow[] = [];
  const remaining = pending.length - chunkRows.size;
  for (const row of started.rows) {
    if (!chunkRows.has(row.row)) {
      rows.push(row);
      continue;
    }
    const problems = failedMedia.get(row.row) ?? recheck.get(row.row) ?? [];
    if (problems.length > 0) {
      rows.push({ ...row, problems, failedAtCommit: true });
      continue;
    }
    const input = postOfRow(inputs.get(row.row), claimed.workspaceId);
    if ("code" in input) {
      rows.push({ ...row, problems: [input], failedAtCommit: true });
      continue;
    }
    try {
      await createPost(db, tenant, input, ctx, (postId) => [recordCreated(db, id, row.row, postId)]);
      rows.push(row);
    } catch (error) {
      // Another commit created this row meanwhile (its lease ran out while it still worked): it stands.
      if (isRowRecorded(error)) rows.push(row);
      else if (error instanceof ApiError && error.status === 422)
        rows.push({ ...row, problems: refusal(error), failedAtCommit: true });
      else throw error;
    }
  }
  await (remaining > 0 ? handOver(db, id, rows, new Date()) : finishCommit(db, id, rows, new Date()));
  const { stored, created } = await loadImport(db, tenant, id);
  return answerOf(stored, created, remaining, progress);
}

/**
 * The first commit of an import with media URLs starts their imports, all the valid rows' URLs at once
 * (each URL once, however many rows name it), and records each row's items before anything else: a
 * later commit, or this one's successor after a crash, finds them recorded and starts nothing again.
 * A workspace whose storage quota is used up imports nothing: its URL rows fail.
 */
async function startMedia(
  db: Database,
  tenant: Tenant,
  claimed: StoredImport,
  ctx: CommitContext,
): Promise<StoredImport> {
  const waiting = claimed.rows.filter(
    (r) => r.problems.length === 0 && !r.mediaIds && mediaUrlsOf(r.input).length > 0,
  );
  if (waiting.length === 0) return claimed;
  const urls = [...new Set(waiting.flatMap((r) => mediaUrlsOf(r.input)))];
  let items: number[][];
  try {
    const byUrl = await startImportByUrl({
      db,
      queue: ctx.media.queue,
      guard: ctx.media.guard,
      limits: ctx.media.limits,
      tenant,
      workspaceId: claimed.workspaceId,
      folderId: null,
      urls,
    });
    items = byUrl.map((found) => found.map((m) => m.id));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 422) throw error;
    items = urls.map(() => []);
  }
  const ids = new Map(urls.map((url, i) => [url, items[i]!]));
  const rows = claimed.rows.map((r) =>
    waiting.includes(r)
      ? { ...r, mediaIds: Object.fromEntries(mediaUrlsOf(r.input).map((url) => [url, ids.get(url)!])) }
      : r,
  );
  await recordMedia(db, claimed.id, rows, new Date());
  return { ...claimed, rows };
}
