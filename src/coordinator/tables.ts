// The Coordinator's SQLite tables are created by the first call that writes to them, never by one that
// only reads: an instance whose calls only read (an unknown flow, a user never counted) stays empty, so
// nobody can make the service store anything by naming instances.

/** Whether the instance's storage holds table `name`. */
export const hasTable = (sql: SqlStorage, name: string) =>
  sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray().length > 0;
