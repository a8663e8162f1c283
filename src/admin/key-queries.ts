// API key lifecycle in D1: issue, list, revoke, roll, and the signing secret. Keys and secrets are
// generated in keys.ts; only the key's hash and the secret's ciphertext are written.
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { apiKeys } from "../db/schema";
import { notFound } from "../http/errors";
import { encryptSecret } from "../lib/crypto";
import { generateApiKey, generateSigningSecret } from "./keys";
import { requireUser, userById } from "./queries";
import type { NewApiKey } from "./schemas";

export async function issueKey(db: Database, body: NewApiKey) {
  await requireUser(db, body.user_id);
  const { key, hash, prefix } = await generateApiKey();
  const row = await db
    .insert(apiKeys)
    .values({
      userId: body.user_id,
      name: body.name,
      keyHash: hash,
      keyPrefix: prefix,
      abilities: [...new Set(body.abilities)],
      expiresAt: body.expires_at,
      callbackOrigins: body.callback_origins,
    })
    .returning({ id: apiKeys.id })
    .get();
  return { id: row.id, key };
}

/** A new signing secret for the key, replacing any earlier one; shown once. */
export async function issueSigningSecret(db: Database, encryptionKey: string | undefined, keyId: number) {
  const secret = generateSigningSecret();
  const updated = await db
    .update(apiKeys)
    .set({ signingSecretEnc: await encryptSecret(encryptionKey, secret) })
    .where(eq(apiKeys.id, keyId))
    .returning({ id: apiKeys.id })
    .get();
  if (!updated) throw notFound("API key");
  return secret;
}

/** Replaces the origins the key's delegation callbacks may use. */
export async function setCallbackOrigins(db: Database, keyId: number, origins: string[]) {
  const updated = await db
    .update(apiKeys)
    .set({ callbackOrigins: origins })
    .where(eq(apiKeys.id, keyId))
    .returning({ id: apiKeys.id, callbackOrigins: apiKeys.callbackOrigins })
    .get();
  if (!updated) throw notFound("API key");
  return { id: updated.id, callback_origins: updated.callbackOrigins ?? [] };
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
      })
      .from(apiKeys)
      .where(eq(apiKeys.userId, userId))
      .orderBy(asc(apiKeys.id)),
  ] as const;

/** Deletes the key: authentication reads D1 on every request, so its next request is refused. */
export async function revokeKey(db: Database, keyId: number) {
  const deleted = await db.delete(apiKeys).where(eq(apiKeys.id, keyId)).returning({ id: apiKeys.id });
  if (deleted.length === 0) throw notFound("API key");
}

/**
 * Replaces the key with a new one (new id, new key) of the same user, name, abilities, expiry and
 * signing secret. One batch, so one transaction: the copy is made from the row as it stands when the
 * batch runs (a key revoked meanwhile is not brought back), and no moment has both keys or neither.
 */
export async function rollKey(db: Database, keyId: number) {
  const { key, hash, prefix } = await generateApiKey();
  const [inserted] = await db.batch([
    db
      .insert(apiKeys)
      .select(
        // INSERT … SELECT takes every column, in the table's order.
        db
          .select({
            id: sql<number>`null`.as("id"),
            userId: apiKeys.userId,
            name: apiKeys.name,
            keyHash: sql<string>`${hash}`.as("key_hash"),
            keyPrefix: sql<string>`${prefix}`.as("key_prefix"),
            abilities: apiKeys.abilities,
            expiresAt: apiKeys.expiresAt,
            signingSecretEnc: apiKeys.signingSecretEnc,
            createdAt: sql<number>`${Date.now()}`.as("created_at"),
            callbackOrigins: apiKeys.callbackOrigins,
          })
          .from(apiKeys)
          .where(eq(apiKeys.id, keyId)),
      )
      .returning({ id: apiKeys.id }),
    db.delete(apiKeys).where(eq(apiKeys.id, keyId)),
  ]);
  const row = inserted[0];
  if (!row) throw notFound("API key");
  return { id: row.id, key };
}
