// A fixed rate window that opens at its first request (Laravel's throttle), kept in the Coordinator's
// SQLite storage. Refused requests neither extend nor consume the window. The tables are created by the
// first request counted, never by a read (tables.ts).
import { ensureTable, hasTable } from "./tables";

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix ms at which the current window closes. */
  resetAt: number;
};

export type Window = { start: number; count: number };

export function loadWindow(sql: SqlStorage): Window | null {
  if (!hasTable(sql, "rate_window")) return null;
  const row = sql.exec<{ start: number; count: number }>("SELECT start, count FROM rate_window").toArray()[0];
  return row ? { start: row.start, count: row.count } : null;
}

/** Counts one request; returns the decision and the window to keep (persisted when it changed). */
export function hitWindow(
  sql: SqlStorage,
  current: Window | null,
  limit: number,
  windowMs: number,
  now: number,
): { decision: RateDecision; window: Window } {
  const window = !current || now >= current.start + windowMs ? { start: now, count: 0 } : current;
  const resetAt = window.start + windowMs;
  if (window.count >= limit) return { decision: { allowed: false, limit, remaining: 0, resetAt }, window };
  window.count += 1;
  ensureTable(
    sql,
    "rate_window",
    "CREATE TABLE IF NOT EXISTS rate_window (id INTEGER PRIMARY KEY CHECK (id = 1), start INTEGER NOT NULL, count INTEGER NOT NULL)",
  );
  sql.exec(
    "INSERT INTO rate_window (id, start, count) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET start = excluded.start, count = excluded.count",
    window.start,
    window.count,
  );
  return { decision: { allowed: true, limit, remaining: limit - window.count, resetAt }, window };
}

/**
 * When each of the user's keys was last used: recorded here, with the rate window the request already
 * visits, so that no request pays a D1 write for it.
 */
export function recordKeyUse(sql: SqlStorage, keyId: number, now: number) {
  ensureTable(
    sql,
    "key_use",
    "CREATE TABLE IF NOT EXISTS key_use (key_id INTEGER PRIMARY KEY, last_used_at INTEGER NOT NULL)",
  );
  sql.exec(
    "INSERT INTO key_use (key_id, last_used_at) VALUES (?, ?) ON CONFLICT (key_id) DO UPDATE SET last_used_at = excluded.last_used_at",
    keyId,
    now,
  );
}

export function keyUses(sql: SqlStorage): Record<number, number> {
  const uses: Record<number, number> = {};
  if (!hasTable(sql, "key_use")) return uses;
  for (const row of sql.exec<{ key_id: number; last_used_at: number }>(
    "SELECT key_id, last_used_at FROM key_use",
  ))
    uses[row.key_id] = row.last_used_at;
  return uses;
}
