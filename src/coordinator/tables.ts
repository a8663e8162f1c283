// The Coordinator's SQLite tables are created by the first call that writes to them, never by one that
// only reads: an instance whose calls only read (an unknown flow, a user never counted) stays empty, so
// nobody can make the service store anything by naming instances.

/**
 * The tables each instance's storage is known to hold, so that a request's count (a user's busiest
 * path: the rate window and the key's use, on every request) runs its writes alone instead of two
 * `CREATE TABLE IF NOT EXISTS` and a look into `sqlite_master` besides. Forgotten with the storage.
 */
const known = new WeakMap<SqlStorage, Set<string>>();

const remember = (sql: SqlStorage, name: string) => {
  const names = known.get(sql) ?? new Set<string>();
  known.set(sql, names.add(name));
};

/** Whether the instance's storage holds table `name`. */
export function hasTable(sql: SqlStorage, name: string): boolean {
  if (known.get(sql)?.has(name)) return true;
  const found =
    sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray().length > 0;
  if (found) remember(sql, name);
  return found;
}

/** Creates table `name` with `ddl` (`CREATE TABLE IF NOT EXISTS …`) unless the instance is known to have it. */
export function ensureTable(sql: SqlStorage, name: string, ddl: string) {
  if (known.get(sql)?.has(name)) return;
  sql.exec(ddl);
  remember(sql, name);
}

/** The instance's storage was deleted (`deleteAll`): its tables are gone. */
export const forgetTables = (sql: SqlStorage) => void known.delete(sql);
