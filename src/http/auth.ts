// Bearer API keys: SHA-256 of the key, one indexed lookup, a principal for the rest of the request.
// Lookups are cached per isolate (key-cache.ts); src/http/gate.ts decides when a cached key may be used.
import { eq } from "drizzle-orm";
import { keyDigest } from "../coordinator/key-state";
import type { Database } from "../db/client";
import { apiKeys } from "../db/schema";
import type { Principal } from "./env";

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

/** Keys are far shorter; a longer bearer value is refused before any hashing or lookup. */
export const MAX_KEY_LENGTH = 200;

/** A key as D1 has it now, and the digest its Coordinator compares cached copies against. */
export type LoadedKey = { principal: Principal; digest: string };

/** The key whose SHA-256 is `hash`, or null. One statement, in a batch so D1 reports the rows it read. */
export async function loadKey(db: Database, hash: string): Promise<LoadedKey | null> {
  const [rows] = await db.batch([
    db
      .select({
        userId: apiKeys.userId,
        keyId: apiKeys.id,
        abilities: apiKeys.abilities,
        expiresAt: apiKeys.expiresAt,
        signingSecretEnc: apiKeys.signingSecretEnc,
        callbackOrigins: apiKeys.callbackOrigins,
        mode: apiKeys.mode,
      })
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, hash)),
  ]);
  const principal = rows[0];
  if (!principal) return null;
  return { principal, digest: await keyDigest({ ...principal, keyHash: hash }) };
}
