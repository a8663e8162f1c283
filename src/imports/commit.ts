// Committing an import: the valid rows checked again by the dry run (a row that became invalid since the
// upload, an account expired or disconnected, is reported, not created), then their posts, created once,
// in row order, each through createPost (the function POST /api/v1/posts uses; queued rows take slots in
// row order). Each post's
// batch also records its row (import_posts, unique per row), so a commit whose worker died is finished
// by the next commit without creating any row twice, and two racing commits cannot both create a row.
import type { Database } from "../db/client";
import type { Tenant } from "../db/tenancy";
import { ApiError, conflict } from "../http/errors";
import { createPost, type SaveContext } from "../posts/save";
import {
  claimCommit,
  finishCommit,
  handOver,
  isRowRecorded,
  loadImport,
  recordCreated,
  type StoredImport,
} from "./queries";
import { type ImportRow, type Problem, postOfRow, type RowContext, validateRows } from "./rows";

/** What a commit needs: how to create (as POST /posts) and how to check rows (as the dry run). */
export type CommitContext = SaveContext & { rows: RowContext };

export type CommitAnswer = {
  id: string;
  status: "committing" | "committed";
  remaining: number;
  created: Array<{ row: number; post_id: number }>;
  failed: Array<{ row: number; problems: Problem[] }>;
};

/** How long a commit that finds another one under way waits for it before answering 409. */
const WAIT_FOR_OTHER_MS = 20_000;
const POLL_MS = 250;

const answerOf = (
  imp: StoredImport,
  created: Array<{ row: number; postId: number }>,
  remaining: number,
): CommitAnswer => ({
  id: imp.id,
  status: remaining > 0 ? "committing" : "committed",
  remaining,
  created: created.map((c) => ({ row: c.row, post_id: c.postId })),
  failed: imp.rows.filter((r) => r.failedAtCommit).map((r) => ({ row: r.row, problems: r.problems })),
});

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
    if (stored.status === "committed") return answerOf(stored, created, 0);
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
  const { created: before } = await loadImport(db, tenant, id);
  const done = new Map(before.map((c) => [c.row, c.postId]));
  const pending = claimed.rows.filter((row) => row.problems.length === 0 && !done.has(row.row));
  const chunkRows = new Set(pending.slice(0, chunk).map((row) => row.row));
  // The dry run again, on this chunk's rows (a shared read: a few round trips): what changed since the
  // upload (an account expired or disconnected, a label deleted) fails the row before anything is created.
  const now = await validateRows(
    db,
    tenant,
    claimed.workspaceId,
    pending.filter((row) => chunkRows.has(row.row)).map(({ problems: _, ...row }) => row),
    ctx.rows,
  );
  const recheck = new Map(now.map((row) => [row.row, row.problems]));
  const rows: ImportRow[] = [];
  const remaining = pending.length - chunkRows.size;
  for (const row of claimed.rows) {
    if (!chunkRows.has(row.row)) {
      rows.push(row);
      continue;
    }
    const problems = recheck.get(row.row) ?? [];
    if (problems.length > 0) {
      rows.push({ ...row, problems, failedAtCommit: true });
      continue;
    }
    const input = postOfRow(row.input, claimed.workspaceId);
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
  return answerOf(stored, created, remaining);
}
