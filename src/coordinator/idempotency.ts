// Idempotency keys (docs/guide.md, "Idempotency keys"), held in the user's Coordinator (`user:<id>`),
// so a key is scoped to its user and "the first request with a key wins" is exact: the instance runs
// one call at a time and every read-check-write below is synchronous SQL. A key's record is in flight
// while its first request runs, then holds that request's answer for IDEMPOTENCY_TTL_MS; expired
// records are deleted on the next begin and by the instance's alarm. The claim is made by the gate's
// admission call (index.ts `admit`), so it costs no call of its own.
//
// At most once: a record in flight is never taken over, however old. Its first request may still be
// running (an upload can outlast any lease: a Worker has no wall-time bound while its client sends), or
// may have finished and lost its answer (the Coordinator call storing it failed), and nothing here can
// tell those from a request that died before doing anything. So a repeat is refused (409) until the
// first finishes or releases the key, or the record expires with the TTL; past IN_FLIGHT_LEASE_MS the
// refusal says the first did not report back, and to look the result up or use a new key.
//
// Answers are kept sealed: the worker encrypts them (AES-GCM under a key derived from ENCRYPTION_KEY,
// src/http/idempotency.ts) before they get here, so this storage never holds an answer's secrets (a
// webhook's signing secret, an authorize link) in plain text. A success whose answer is too large to
// keep is recorded all the same, without it: a repeat is told so (409) instead of running again.
import { hasTable } from "./tables";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A record still in flight after this long probably belongs to a request that will not report back (an
 * evicted isolate, a lost Coordinator call), or to a very long upload: a repeat is still refused, but
 * told so instead of "retry in a second" (`stalled`). The key is never taken over (see above).
 */
export const IN_FLIGHT_LEASE_MS = 5 * 60 * 1000;

export type BeginIdempotent = {
  key: string;
  /** SHA-256 of the request (src/http/idempotency.ts): the same key with another one is a mismatch. */
  fingerprint: string;
  /** `POST /api/v1/posts`, kept for whoever reads the storage. */
  request: string;
  now?: number;
};

export type BeginResult =
  | { kind: "proceed"; token: string }
  /** The kept answer, as the worker sealed it: only the worker can open it. */
  | { kind: "replay"; status: number; sealed: ArrayBuffer }
  /** The first request finished with `status`, but its answer was not kept (too large). */
  | { kind: "unreplayable"; status: number }
  | { kind: "in_flight" }
  /** In flight for longer than IN_FLIGHT_LEASE_MS: its outcome is unknown, and it is not run again. */
  | { kind: "stalled" }
  | { kind: "mismatch" };

/** The answer of the request holding `token`; without `sealed` when it was too large to keep. */
export type FinishIdempotent = { key: string; token: string; status: number; sealed?: ArrayBuffer };

type Row = {
  fingerprint: string;
  state: "in_flight" | "done";
  started_at: number;
  status: number | null;
  sealed: ArrayBuffer | null;
};

/** Created by the first claim, never by a read (tables.ts); a table of an earlier version is upgraded. */
function table(sql: SqlStorage) {
  sql.exec(`CREATE TABLE IF NOT EXISTS idempotency (
    key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    request TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
    token TEXT NOT NULL,
    status INTEGER,
    sealed BLOB,
    created_at INTEGER NOT NULL,
    started_at INTEGER NOT NULL
  )`);
  sql.exec("CREATE INDEX IF NOT EXISTS idempotency_created_at ON idempotency (created_at)");
  upgrade(sql);
  return sql;
}

/**
 * Tables written before answers were sealed kept them in plain text (`body`, `headers`): those are
 * erased, and their records stay as answers not kept, so a repeat is refused (409), never run again.
 */
function upgrade(sql: SqlStorage) {
  const { sql: definition } = sql
    .exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'idempotency'")
    .one();
  if (/\bsealed\b/.test(definition)) return;
  sql.exec("ALTER TABLE idempotency ADD COLUMN sealed BLOB");
  sql.exec("UPDATE idempotency SET body = NULL, headers = NULL");
}

/**
 * The first request with a key proceeds (and gets the token that finishes or releases it); a repeat
 * with the same fingerprint gets the stored answer (or learns it was not kept), or `in_flight` (then
 * `stalled`) while the first has not finished; a repeat with another fingerprint is a mismatch,
 * whatever the record's state.
 */
export async function beginIdempotent(
  storage: DurableObjectStorage,
  begin: BeginIdempotent,
): Promise<BeginResult> {
  const now = begin.now ?? Date.now();
  const sql = table(storage.sql);
  sql.exec("DELETE FROM idempotency WHERE created_at <= ?", now - IDEMPOTENCY_TTL_MS);
  const row = sql
    .exec<Row>(
      "SELECT fingerprint, state, started_at, status, sealed FROM idempotency WHERE key = ?",
      begin.key,
    )
    .toArray()[0];
  if (row && row.fingerprint !== begin.fingerprint) return { kind: "mismatch" };
  if (row?.state === "done")
    return row.sealed === null
      ? { kind: "unreplayable", status: row.status ?? 200 }
      : { kind: "replay", status: row.status ?? 200, sealed: row.sealed };
  if (row) return now - row.started_at < IN_FLIGHT_LEASE_MS ? { kind: "in_flight" } : { kind: "stalled" };
  // A new key: this request is the one that runs.
  const token = crypto.randomUUID();
  sql.exec(
    `INSERT INTO idempotency (key, fingerprint, request, state, token, created_at, started_at)
     VALUES (?, ?, ?, 'in_flight', ?, ?, ?)`,
    begin.key,
    begin.fingerprint,
    begin.request,
    token,
    now,
    now,
  );
  // After the SQL, so the check-and-claim above stays one synchronous step.
  if ((await storage.getAlarm()) === null) await storage.setAlarm(Date.now() + IDEMPOTENCY_TTL_MS);
  return { kind: "proceed", token };
}

/**
 * Records the answer of the request holding `token` (without `sealed`: it succeeded, but its answer is
 * not kept); false when the key is no longer its own.
 */
export function finishIdempotent(sql: SqlStorage, finish: FinishIdempotent): boolean {
  if (!hasTable(sql, "idempotency")) return false;
  const cursor = table(sql).exec(
    "UPDATE idempotency SET state = 'done', status = ?, sealed = ? WHERE key = ? AND token = ? AND state = 'in_flight'",
    finish.status,
    finish.sealed ?? null,
    finish.key,
    finish.token,
  );
  return cursor.rowsWritten > 0;
}

/** The request holding `token` failed (5xx, thrown, or an answer not worth keeping): the key is free. */
export function releaseIdempotent(sql: SqlStorage, key: string, token: string): boolean {
  if (!hasTable(sql, "idempotency")) return false;
  const cursor = sql.exec(
    "DELETE FROM idempotency WHERE key = ? AND token = ? AND state = 'in_flight'",
    key,
    token,
  );
  return cursor.rowsWritten > 0;
}

/**
 * The alarm of a user's instance: expired records go, and the alarm is set again for the oldest one
 * left. False on an instance that never held a key (a delegation flow's), whose alarm means something
 * else.
 */
export async function sweepIdempotency(storage: DurableObjectStorage, now: number): Promise<boolean> {
  if (!hasTable(storage.sql, "idempotency")) return false;
  const sql = table(storage.sql);
  sql.exec("DELETE FROM idempotency WHERE created_at <= ?", now - IDEMPOTENCY_TTL_MS);
  const oldest = sql.exec<{ at: number | null }>("SELECT MIN(created_at) AS at FROM idempotency").one().at;
  if (oldest !== null) await storage.setAlarm(oldest + IDEMPOTENCY_TTL_MS);
  return true;
}
