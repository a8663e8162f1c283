// Tenants past one database (docs/scaling.md): a user and everything their workspaces hold live in one
// D1 database, a shard. `DB` is shard 0; further shards are the bindings `DB_SHARD_1`, `DB_SHARD_2`, …
// with the same migrations. Nothing needs a directory to find a tenant:
//
// - an id names its shard: shard k's AUTOINCREMENT sequences start at k × 2^40, so a path id, a queue
//   message's id or a signed link's id routes to its database by arithmetic;
// - an API key names its shard: keys minted in shard k > 0 start `spk<k>_` (shard 0's keep `spk_`).
//
// A request behind an API key opens only its user's shard, so every query stays inside one database and
// the request path is unchanged; the operator API and the crons are the only code that sees several.
import { is, sql } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { createDb, type Database } from "./client";
import type { Mode } from "./enums";
import * as schema from "./schema";

/** Ids of shard k are k × SHARD_ID_SPAN and up: a trillion rows per table per shard. */
export const SHARD_ID_SPAN = 2 ** 40;
/** 2^13 shards of 2^40 ids stay below Number.MAX_SAFE_INTEGER. */
export const MAX_SHARDS = 2 ** 13;

export const shardOfId = (id: number) => Math.floor(id / SHARD_ID_SPAN);

/**
 * The shard an API key was minted in (`spk_…`: 0, `spk3_…`: 3; test keys `spk_test_…`: 0,
 * `spk_test3_…`: 3); null for anything else.
 */
export function shardOfKey(token: string): number | null {
  const match = /^spk(?:_test)?([1-9]\d{0,3})?_/.exec(token);
  if (!match) return null;
  const shard = Number(match[1] ?? 0);
  return shard < MAX_SHARDS ? shard : null;
}

/** A key's prefix: its mode (test keys start `spk_test`) and its shard (none for shard 0). */
export const keyPrefixOf = (shard: number, mode: Mode = "live") =>
  `spk${mode === "test" ? "_test" : ""}${shard === 0 ? "" : shard}_`;

/** The shards' D1 bindings, in order: `DB`, then `DB_SHARD_1`, `DB_SHARD_2`, … up to the first gap. */
export function shardBindings(env: Env): D1Database[] {
  const named = env as unknown as Record<string, D1Database | undefined>;
  const list = [env.DB];
  for (let k = 1; k < MAX_SHARDS; k++) {
    const binding = named[`DB_SHARD_${k}`];
    if (!binding) break;
    list.push(binding);
  }
  return list;
}

/**
 * Where new users go: `NEW_USER_SHARD` (default 0), the shard the operator is filling. A value naming no
 * bound shard is a configuration error, reported rather than guessed around.
 */
export function newUserShard(env: Env): number {
  const configured = env.NEW_USER_SHARD?.trim() || "0";
  const shard = Number(configured);
  if (!Number.isInteger(shard) || shard < 0 || shard >= shardBindings(env).length)
    throw new Error(`NEW_USER_SHARD=${configured} names no bound shard (DB, DB_SHARD_1, …)`);
  return shard;
}

/**
 * Databases by shard for background work, which has no request: `of(id)` for a message's id, `all()`
 * for a cron. An id outside every bound shard is looked up in shard 0, where no row has it, so it is
 * simply not found.
 */
export function shardDatabases(
  env: Env,
  open: (d1: D1Database, shard: number) => Database = (d1) => createDb(d1),
) {
  const bindings = shardBindings(env);
  const opened = new Map<number, Database>();
  const at = (shard: number): Database => {
    const index = shard < bindings.length ? shard : 0;
    let db = opened.get(index);
    if (!db) {
      db = open(bindings[index]!, index);
      opened.set(index, db);
    }
    return db;
  };
  return {
    count: bindings.length,
    at,
    of: (id: number) => at(shardOfId(id)),
    all: () => bindings.map((_, shard) => at(shard)),
    /** Every shard but `shard` (the checks that a value is free elsewhere). */
    others: (shard: number) => bindings.flatMap((_, other) => (other === shard ? [] : [at(other)])),
  };
}

export type ShardDatabases = ReturnType<typeof shardDatabases>;

/** Runs a cron's work on every shard concurrently, as on the one database it is; answers each result. */
export const eachShard = <T>(env: Env, work: (db: Database) => Promise<T>): Promise<T[]> =>
  Promise.all(shardDatabases(env).all().map(work));

/** Every table whose id is an AUTOINCREMENT sequence: the ones a shard's id range applies to. */
const SEQUENCED_TABLES = (Object.values(schema) as unknown[])
  .filter((table): table is SQLiteTable => is(table, SQLiteTable))
  .map((table) => getTableConfig(table))
  .filter((config) => config.columns.some((column) => column.primary && column.name === "id"))
  .map((config) => config.name);

/**
 * Moves every sequence of a shard to the start of its range (idempotent; nothing for shard 0). Run before
 * each user a shard gets (src/admin/queries.ts createUser), so no row of a shard exists before its range
 * is set.
 */
export function shardSequenceStatements(db: Database, shard: number) {
  if (shard === 0) return [];
  const base = shard * SHARD_ID_SPAN;
  // Literal SQL: drizzle's D1 batch cannot bind parameters of raw statements. The names are the schema's
  // own table names and the base an integer, so nothing outside the code reaches the text.
  return SEQUENCED_TABLES.flatMap((name) => [
    db.run(
      sql.raw(`INSERT INTO sqlite_sequence (name, seq) SELECT '${name}', ${base}
        WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = '${name}')`),
    ),
    db.run(sql.raw(`UPDATE sqlite_sequence SET seq = ${base} WHERE name = '${name}' AND seq < ${base}`)),
  ]);
}
