// What makes the sandbox's sealed codes single use and its rotating refresh tokens single use: the ids
// of the spent ones, in the SandboxStore's SQLite storage (one instance per platform), each kept until
// the value it names expires (after that the seal's own expiry refuses it). spend() is one synchronous
// statement inside the instance, so under any concurrency exactly one caller spends a given id.
import { bound, SANDBOX_LIMITS } from "./ledger";

export function createSpentTable(sql: SqlStorage) {
  sql.exec(`CREATE TABLE IF NOT EXISTS spent (
    id TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
  )`);
  sql.exec("CREATE INDEX IF NOT EXISTS spent_expiry_idx ON spent (expires_at)");
}

/**
 * Records `id` as spent; true the first time only. Forgets ids whose value has expired, and past `cap`
 * rows the oldest (SANDBOX_LIMITS: minting is open to anyone while SANDBOX is on).
 */
export function spend(
  sql: SqlStorage,
  id: string,
  expiresAt: number,
  now: number,
  cap = SANDBOX_LIMITS.rows,
): boolean {
  sql.exec("DELETE FROM spent WHERE expires_at <= ?", now);
  const inserted = sql
    .exec(
      "INSERT INTO spent (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING RETURNING id",
      id,
      expiresAt,
    )
    .toArray();
  bound(sql, "spent", cap);
  return inserted.length === 1;
}
