// What lets an isolate trust its cached API keys without asking D1 on every request: the user's
// Coordinator holds, for every key the operator changed (revoked, rolled, abilities, expiry, signing
// secret, callback origins), the digest of the key as it now stands in D1 ("revoked" once it is gone).
// A request served from an isolate's cache presents the digest of the key it cached; a different
// stored digest means the cache is stale, and the request goes back to D1 (src/http/gate.ts). Keys never
// changed have no entry, and any cached copy of them is current.
import { sha256Hex } from "../lib/crypto";
import { ensureTable, hasTable } from "./tables";

export const REVOKED = "revoked";

/** The fields of a key a request acts on: a change to any of them changes the digest. */
export type KeyFields = {
  keyId: number;
  userId: number;
  keyHash: string;
  abilities: readonly string[];
  expiresAt: Date | null;
  signingSecretEnc: string | null;
  callbackOrigins: readonly string[] | null;
};

export const keyDigest = (key: KeyFields) =>
  sha256Hex(
    JSON.stringify([
      key.keyId,
      key.userId,
      key.keyHash,
      key.abilities,
      key.expiresAt?.getTime() ?? null,
      key.signingSecretEnc,
      key.callbackOrigins,
    ]),
  );

function table(sql: SqlStorage) {
  ensureTable(
    sql,
    "key_state",
    "CREATE TABLE IF NOT EXISTS key_state (key_id INTEGER PRIMARY KEY, digest TEXT NOT NULL)",
  );
  return sql;
}

/** Whether a cached key with this digest is out of date. */
export function isStale(sql: SqlStorage, keyId: number, digest: string): boolean {
  if (!hasTable(sql, "key_state")) return false;
  const row = sql
    .exec<{ digest: string }>("SELECT digest FROM key_state WHERE key_id = ?", keyId)
    .toArray()[0];
  return row !== undefined && row.digest !== digest;
}

export function recordKeyState(sql: SqlStorage, keyId: number, digest: string) {
  table(sql).exec(
    "INSERT INTO key_state (key_id, digest) VALUES (?, ?) ON CONFLICT (key_id) DO UPDATE SET digest = excluded.digest",
    keyId,
    digest,
  );
}
