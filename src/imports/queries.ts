// Storing and finding imports, always within the tenant (user + mode, and a workspace the user is a
// member of): another tenant's import id, or the other mode's, is a 404 like an absent one.
import { and, asc, eq, inArray, lt, or } from "drizzle-orm";
import type { Database } from "../db/client";
import { type ImportStatus, importPosts, imports, media } from "../db/schema";
import { eachShard } from "../db/shards";
import { inUserWorkspaces, type Tenant } from "../db/tenancy";
import { invalidField, notFound } from "../http/errors";
import { toHex } from "../lib/encoding";
import type { ImportRow } from "./rows";

/** How long imports are kept (the publishing sweep deletes older ones). */
export const IMPORT_KEPT_MS = 30 * 24 * 3600_000;

/** A commit that has not finished within this long is taken over by the next commit (its worker died). */
export const COMMIT_LEASE_MS = 60_000;

export type StoredImport = {
  id: string;
  workspaceId: number;
  status: ImportStatus;
  format: "json" | "csv";
  rows: ImportRow[];
};

/** 128 random bits: an import id cannot be guessed. */
export const newImportId = () => `imp_${toHex(crypto.getRandomValues(new Uint8Array(16)))}`;

const ofTenant = (db: Database, tenant: Tenant, id: string) =>
  and(
    eq(imports.id, id),
    eq(imports.userId, tenant.userId),
    eq(imports.mode, tenant.mode),
    inUserWorkspaces(db, imports.workspaceId, tenant),
  );

const stored = (row: typeof imports.$inferSelect): StoredImport => ({
  id: row.id,
  workspaceId: row.workspaceId,
  status: row.status,
  format: row.format,
  rows: row.rows as ImportRow[],
});

/** Below D1's 2 MB per row, with room for the problems a commit adds. */
const MAX_STORED_BYTES = 1_800_000;

export async function insertImport(
  db: Database,
  tenant: Tenant,
  value: Omit<StoredImport, "id" | "status">,
): Promise<StoredImport> {
  // Rows whose every line has many problems can outgrow the upload's 1 MiB: refused, never a 500.
  if (new TextEncoder().encode(JSON.stringify(value.rows)).byteLength > MAX_STORED_BYTES)
    throw invalidField(
      "posts",
      "The rows with their problems are too large to keep: upload fewer rows at a time.",
    );
  const id = newImportId();
  await db.insert(imports).values({ id, userId: tenant.userId, mode: tenant.mode, ...value });
  return { id, status: "validated", ...value };
}

/** The import and the posts its commit created so far (404 outside the tenant). */
export async function loadImport(db: Database, tenant: Tenant, id: string) {
  const [found, created] = await db.batch([
    db
      .select()
      .from(imports)
      .where(ofTenant(db, tenant, id)),
    db
      .select({ row: importPosts.row, postId: importPosts.postId })
      .from(importPosts)
      .where(eq(importPosts.importId, id))
      .orderBy(importPosts.row),
  ]);
  if (!found[0]) throw notFound("Import");
  return { stored: stored(found[0]), created };
}

/**
 * The one conditional claim of a commit: a validated import, one waiting for its media, or one whose
 * commit stopped (its lease is older than COMMIT_LEASE_MS), becomes `committing` for this request only.
 */
export async function claimCommit(
  db: Database,
  tenant: Tenant,
  id: string,
  now: Date,
): Promise<StoredImport | null> {
  const [row] = await db
    .update(imports)
    .set({ status: "committing", claimedAt: now, updatedAt: now })
    .where(
      and(
        ofTenant(db, tenant, id),
        or(
          inArray(imports.status, ["validated", "importing_media"]),
          and(
            eq(imports.status, "committing"),
            lt(imports.claimedAt, new Date(now.getTime() - COMMIT_LEASE_MS)),
          ),
        ),
      ),
    )
    .returning();
  return row ? stored(row) : null;
}

/** The end of a commit: the rows (those refused at commit marked) and `committed`. */
export async function finishCommit(db: Database, id: string, rows: ImportRow[], now: Date) {
  await db.update(imports).set({ status: "committed", rows, updatedAt: now }).where(eq(imports.id, id));
}

/** A chunk done, rows left: the rows so far, and the lease released so the next commit goes on at once. */
export async function handOver(db: Database, id: string, rows: ImportRow[], now: Date) {
  await db
    .update(imports)
    .set({ rows, claimedAt: new Date(0), updatedAt: now })
    .where(eq(imports.id, id));
}

/**
 * The claim's holder records the media its rows' URLs became (still holding the claim: a commit that
 * dies now leaves them recorded, and the next one starts nothing again).
 */
export async function recordMedia(db: Database, id: string, rows: ImportRow[], now: Date) {
  await db.update(imports).set({ rows, updatedAt: now }).where(eq(imports.id, id));
}

/** Media still downloading: the claim released, the import waiting for the next commit. */
export async function awaitMedia(db: Database, id: string, now: Date) {
  await db
    .update(imports)
    .set({ status: "importing_media", claimedAt: null, updatedAt: now })
    .where(eq(imports.id, id));
}

export type MediaState = { state: "processing" | "ready" | "failed"; error: string | null };

/** The states of the media an import's URLs became (ids it recorded itself, so of its workspace). */
export async function mediaStates(db: Database, ids: number[]): Promise<Map<number, MediaState>> {
  const reads = [];
  for (let i = 0; i < ids.length; i += 90)
    reads.push(
      db
        .select({ id: media.id, state: media.state, error: media.error })
        .from(media)
        .where(inArray(media.id, ids.slice(i, i + 90))),
    );
  if (reads.length === 0) return new Map();
  const found = (await db.batch(reads as [(typeof reads)[0], ...typeof reads])).flat();
  return new Map(found.map((m) => [m.id, { state: m.state, error: m.error }]));
}

/** The statement a created post's batch carries: the row's record, unique per import and row. */
export const recordCreated = (db: Database, importId: string, row: number, postId: unknown) =>
  db.insert(importPosts).values({ importId, row, postId: postId as number });

export const isRowRecorded = (error: unknown) =>
  String((error as Error | undefined)?.message ?? error).includes("UNIQUE constraint failed: import_posts");

/** Imports a shard deletes per cron run at most (the cron runs every minute). */
const PURGE_LIMIT = 200;

/**
 * Deletes imports older than IMPORT_KEPT_MS, oldest first through the index on `created_at` (their
 * records of created posts go with them; the posts stay).
 */
export async function purgeImports(db: Database, now: Date): Promise<void> {
  const old = db
    .select({ id: imports.id })
    .from(imports)
    .where(lt(imports.createdAt, new Date(now.getTime() - IMPORT_KEPT_MS)))
    .orderBy(asc(imports.createdAt))
    .limit(PURGE_LIMIT);
  await db.delete(imports).where(inArray(imports.id, old));
}

/** The cron's part: every shard's old imports. */
export const sweepImports = (env: Env, now: Date) => eachShard(env, (db) => purgeImports(db, now));
