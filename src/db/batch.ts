// The batch idioms, written once. D1 runs a batch as one round trip and one transaction; it has no
// BEGIN, so everything that must commit together goes into one batch.
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";

export type Statement = Parameters<Database["batch"]>[0][number];

/** D1 binds at most 100 parameters per statement. */
export const D1_MAX_PARAMS = 100;

/**
 * Splits rows for multi-row inserts so that no statement binds more than D1 allows. Every key of a row
 * is one bound parameter (columns left out take their SQL default and bind nothing).
 */
export function chunkForD1<T extends object>(rows: readonly T[]): T[][] {
  const perRow = Math.max(1, ...rows.map((row) => Object.keys(row).length));
  const size = Math.max(1, Math.floor(D1_MAX_PARAMS / perRow));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/** Runs statements in one batch; an empty list costs no round trip. */
export async function runBatch<T extends Statement>(db: Database, statements: readonly T[]) {
  if (statements.length === 0) return [];
  const [first, ...rest] = statements;
  return db.batch([first!, ...rest]);
}

/**
 * The id of the row an earlier statement of the same batch inserted into `table`. Ids are
 * AUTOINCREMENT and a batch is one transaction, so the newest id is that row's, whatever other tables
 * the batch wrote in between (which `last_insert_rowid()` would not survive).
 */
export const insertedId = (table: SQLiteTable): SQL<number> => sql<number>`(SELECT max(id) FROM ${table})`;
