// The database reads of a delegation: the signing secret a proof is signed with.
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { apiKeys } from "../db/schema";
import { decryptSecret } from "../lib/crypto";

/**
 * The signing secret of the key that created the flow, read when the proof is signed (not when the
 * session was created): a regenerated secret applies at once, and a key that expired or lost its
 * secret meanwhile signs nothing (null).
 */
export async function currentSigningSecret(
  db: Database,
  encryptionKey: string | undefined,
  keyId: number,
): Promise<string | null> {
  const key = await db
    .select({ secret: apiKeys.signingSecretEnc, expiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .where(eq(apiKeys.id, keyId))
    .get();
  if (!key?.secret || (key.expiresAt && key.expiresAt.getTime() <= Date.now())) return null;
  return decryptSecret(encryptionKey, key.secret);
}
