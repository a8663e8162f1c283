// API key lifecycle in D1: issue, list, revoke, roll, and the signing secret. Keys and secrets are
// generated in keys.ts; only the key's hash and the secret's ciphertext are written. Every change is
// logged (security_events, with the `actor` the caller names) in the batch that makes it.
import { asc, eq, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { keyDigest, REVOKED } from "../coordinator/key-state";
import { userCoordinator } from "../coordinator/names";
import { insertedId } from "../db/batch";
import type { Database } from "../db/client";
import { apiKeys } from "../db/schema";
import { type Actor, keyEvent, type SecurityEventKind } from "../db/security-events";
import { shardOfId } from "../db/shards";
import { notFound } from "../http/errors";
import { encryptSecret } from "../lib/crypto";
import { generateApiKey, generateSigningSecret } from "./keys";
import { requireUser, userById } from "./queries";
import type { NewApiKey } from "./schemas";

export async function issueKey(db: Database, body: NewApiKey, actor: Actor) {
  await requireUser(db, body.user_id);
  const { key, hash, prefix } = await generateApiKey(shardOfId(body.user_id), body.mode);
  const [[row]] = await db.batch([
    db
      .insert(apiKeys)
      .values({
        mode: body.mode,
        userId: body.user_id,
        name: body.name,
        keyHash: hash,
        keyPrefix: prefix,
        abilities: [...new Set(body.abilities)],
        expiresAt: body.expires_at,
        callbackOrigins: body.callback_origins,
      })
      .returning({ id: apiKeys.id }),
    keyEvent(db, "key_created", insertedId(apiKeys), actor),
  ]);
  return { id: row!.id, key };
}

/** Everything a key change announces (announceKeyChange). */
const keyRow = {
  id: apiKeys.id,
  userId: apiKeys.userId,
  mode: apiKeys.mode,
  keyHash: apiKeys.keyHash,
  abilities: apiKeys.abilities,
  expiresAt: apiKeys.expiresAt,
  signingSecretEnc: apiKeys.signingSecretEnc,
  callbackOrigins: apiKeys.callbackOrigins,
};
type KeyRow = { [K in keyof typeof keyRow]: (typeof apiKeys.$inferSelect)[K extends "id" ? "id" : K] };

/**
 * Tells the key's user's Coordinator that the key changed (or, with `revoked`, is gone), after D1 has
 * the change: isolates that cached it see the change on its very next request (src/http/gate.ts).
 */
export async function announceKeyChange(env: Env, key: KeyRow, revoked = false) {
  const digest = revoked ? REVOKED : await keyDigest({ ...key, keyId: key.id });
  await env.COORDINATOR.getByName(userCoordinator(key)).keyChanged(key.id, digest);
}

/** announceKeyChange as a route makes it (through its meter). */
export type Announce = (key: KeyRow, revoked?: boolean) => Promise<void>;

/** Updates the key and logs `kind` in one batch; the key as `keyRow` reads it, or a 404. */
async function changeKey(
  db: Database,
  keyId: number,
  values: SQLiteUpdateSetSource<typeof apiKeys>,
  kind: SecurityEventKind,
  actor: Actor,
) {
  const [[updated]] = await db.batch([
    db
      .update(apiKeys)
      .set(values)
      .where(eq(apiKeys.id, keyId))
      .returning({
        ...keyRow,
        name: apiKeys.name,
        keyPrefix: apiKeys.keyPrefix,
        createdAt: apiKeys.createdAt,
      }),
    keyEvent(db, kind, keyId, actor),
  ]);
  if (!updated) throw notFound("API key");
  return updated;
}

/** A new signing secret for the key, replacing any earlier one; shown once. */
export async function issueSigningSecret(
  db: Database,
  announce: Announce,
  encryptionKey: string | undefined,
  keyId: number,
  actor: Actor,
) {
  const secret = generateSigningSecret();
  const signingSecretEnc = await encryptSecret(encryptionKey, secret);
  await announce(await changeKey(db, keyId, { signingSecretEnc }, "signing_secret_generated", actor));
  return secret;
}

/** Replaces the origins the key's delegation callbacks may use. */
export async function setCallbackOrigins(
  db: Database,
  announce: Announce,
  keyId: number,
  origins: string[],
  actor: Actor,
) {
  const updated = await changeKey(db, keyId, { callbackOrigins: origins }, "callback_origins_changed", actor);
  await announce(updated);
  return { id: updated.id, callback_origins: updated.callbackOrigins ?? [] };
}

/** Changes a key's abilities and/or expiry; the answer is the key as listed. */
export async function updateKey(
  db: Database,
  announce: Announce,
  keyId: number,
  change: { abilities?: NewApiKey["abilities"]; expires_at?: Date | null },
  actor: Actor,
) {
  const updated = await changeKey(
    db,
    keyId,
    {
      ...(change.abilities ? { abilities: [...new Set(change.abilities)] } : {}),
      ...(change.expires_at !== undefined ? { expiresAt: change.expires_at } : {}),
    },
    "key_changed",
    actor,
  );
  await announce(updated);
  return updated;
}

/** The user (to tell an unknown one) and the user's keys, oldest first, in one batch. */
export const keysOfUser = (db: Database, userId: number) =>
  [
    userById(db, userId),
    db
      .select({
        id: apiKeys.id,
        name: apiKeys.name,
        keyPrefix: apiKeys.keyPrefix,
        abilities: apiKeys.abilities,
        expiresAt: apiKeys.expiresAt,
        createdAt: apiKeys.createdAt,
        callbackOrigins: apiKeys.callbackOrigins,
        mode: apiKeys.mode,
      })
      .from(apiKeys)
      .where(eq(apiKeys.userId, userId))
      .orderBy(asc(apiKeys.id)),
  ] as const;

/** Deletes the key; its Coordinator learns it is gone, so its very next request is refused. */
export async function revokeKey(db: Database, announce: Announce, keyId: number, actor: Actor) {
  // The event first: it reads the key's user, name and prefix before the delete takes the row.
  const [, [deleted]] = await db.batch([
    keyEvent(db, "key_revoked", keyId, actor),
    db.delete(apiKeys).where(eq(apiKeys.id, keyId)).returning(keyRow),
  ]);
  if (!deleted) throw notFound("API key");
  await announce(deleted, true);
}

/**
 * Replaces the key with a new one (new id, new key) of the same user, name, abilities, expiry and
 * signing secret. One batch, so one transaction: the copy is made from the row as it stands when the
 * batch runs (a key revoked meanwhile is not brought back), and no moment has both keys or neither.
 */
export async function rollKey(db: Database, announce: Announce, keyId: number, actor: Actor) {
  // The new key's prefix says its mode, which a key keeps for life: one candidate per mode, and the
  // batch takes the one of the key's mode (no read first: still one round trip).
  const shard = shardOfId(keyId);
  const live = await generateApiKey(shard, "live");
  const test = await generateApiKey(shard, "test");
  const ofMode = (forTest: string, forLive: string) =>
    sql<string>`CASE ${apiKeys.mode} WHEN 'test' THEN ${forTest} ELSE ${forLive} END`;
  const [, inserted, deleted] = await db.batch([
    keyEvent(db, "key_rolled", keyId, actor),
    db
      .insert(apiKeys)
      .select(
        // INSERT … SELECT takes every column, in the table's order.
        db
          .select({
            id: sql<number>`null`.as("id"),
            userId: apiKeys.userId,
            name: apiKeys.name,
            keyHash: ofMode(test.hash, live.hash).as("key_hash"),
            keyPrefix: ofMode(test.prefix, live.prefix).as("key_prefix"),
            abilities: apiKeys.abilities,
            expiresAt: apiKeys.expiresAt,
            signingSecretEnc: apiKeys.signingSecretEnc,
            createdAt: sql<number>`${Date.now()}`.as("created_at"),
            callbackOrigins: apiKeys.callbackOrigins,
            mode: apiKeys.mode,
          })
          .from(apiKeys)
          .where(eq(apiKeys.id, keyId)),
      )
      .returning({ id: apiKeys.id, mode: apiKeys.mode }),
    db.delete(apiKeys).where(eq(apiKeys.id, keyId)).returning(keyRow),
  ]);
  const row = inserted[0];
  if (!row || !deleted[0]) throw notFound("API key");
  await announce(deleted[0], true);
  return { id: row.id, key: row.mode === "test" ? test.key : live.key };
}
