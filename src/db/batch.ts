// The batch idioms, written once. D1 runs a batch as one round trip and one transaction; it has no
// BEGIN, so everything that must commit together goes into one batch.
import { getTableColumns, is, Param, SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";

export type Statement = Parameters<Database["batch"]>[0][number];

/** D1 binds at most 100 parameters per statement. */
export const D1_MAX_PARAMS = 100;

function chunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * Multi-row INSERT statements of `rows` into `table`, each binding at most D1's limit. The parameters
 * a row binds are measured on drizzle's own SQL for the first row: besides the row's keys, drizzle binds
 * the JS defaults of the columns left out.
 */
export function insertInChunks<T extends SQLiteTable>(db: Database, table: T, rows: T["$inferInsert"][]) {
  if (rows.length === 0) return [];
  const perRow = Math.max(1, db.insert(table).values(rows[0]!).toSQL().params.length);
  return chunks(rows, Math.max(1, Math.floor(D1_MAX_PARAMS / perRow))).map((chunk) =>
    db.insert(table).values(chunk),
  );
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

/**
 * `INSERT INTO table (…every column) SELECT <row> WHERE condition`: one statement that inserts the row
 * only while `condition` holds, checked and written under the same write lock, so a cap or a quota
 * read in `condition` cannot be passed by requests racing each other (a count read first and an insert
 * sent after can). A value may be SQL (computed in the same statement); columns the row leaves out
 * take their defaults, as drizzle's own insert gives them.
 * Chain `.returning()`: an empty answer means the condition refused the row.
 */
export function insertWhere<T extends SQLiteTable>(
  db: Database,
  table: T,
  row: { [K in keyof T["$inferInsert"]]?: T["$inferInsert"][K] | SQL },
  condition: SQL,
) {
  const values = row as Record<string, unknown>;
  const fields = Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => {
      let value = values[key];
      if (value === undefined) value = column.default ?? column.defaultFn?.() ?? null;
      const expression = is(value, SQL)
        ? value
        : value === null
          ? sql`NULL`
          : sql`${new Param(value, column)}`;
      return [key, sql`${expression}`.as(column.name)];
    }),
  );
  const select = db.select(fields).from(sql`(SELECT 1)`).where(condition);
  // Every column, in the table's order, as the insert's select needs; typed loosely by construction.
  return db
    .insert(table)
    .select(select as unknown as Parameters<ReturnType<typeof db.insert<T>>["select"]>[0]);
}
