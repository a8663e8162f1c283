// What the platform handed out for a row's publication before its final call, kept on the row
// (`post_platforms.progress`) so a later attempt resumes it (ARCHITECTURE "Publishing"). It belongs to one
// publication: it is stored with the fingerprint it was recorded under, and a repetition (a new
// fingerprint) starts from nothing. Every write is made under the attempt's lease, before the adapter's
// next call, so what a crash leaves behind is never less than what the platform has. The values are
// sealed with ENCRYPTION_KEY like the account's tokens: some are credentials while they last (a YouTube
// resumable session URL, TikTok's upload URL).
import type { Database } from "../db/client";
import { postPlatforms } from "../db/schema";
import { decryptSecret, encryptSecret } from "../lib/crypto";
import { PlatformError, type Progress } from "../platforms/types";
import { heldBy, type Lease } from "./lease";

/** The column's form: the publication it belongs to, and its values sealed. */
type Stored = { fingerprint: string; sealed: string };

/** What is stored for `fingerprint`, opened; nothing for another publication or an unreadable seal. */
async function opened(env: Pick<Env, "ENCRYPTION_KEY">, stored: unknown, fingerprint: string) {
  const { fingerprint: of, sealed } = (stored ?? {}) as Partial<Stored>;
  if (of !== fingerprint || typeof sealed !== "string") return {};
  try {
    const values = JSON.parse(await decryptSecret(env.ENCRYPTION_KEY, sealed)) as unknown;
    return typeof values === "object" && values !== null ? (values as Record<string, unknown>) : {};
  } catch {
    // Sealed under a key since rotated: the attempt starts over, as with nothing recorded.
    return {};
  }
}

/** The row's progress for the publication `fingerprint` names, written through to D1. */
export async function rowProgress(
  env: Pick<Env, "ENCRYPTION_KEY">,
  db: Database,
  lease: Pick<Lease, "rowId" | "attemptId" | "progress">,
  fingerprint: string,
  now: () => number,
): Promise<Progress> {
  const values = await opened(env, lease.progress, fingerprint);
  return {
    get: (key) => values[key],
    async set(key, value) {
      if (value === undefined) delete values[key];
      else values[key] = value;
      const stored: Stored = {
        fingerprint,
        sealed: await encryptSecret(env.ENCRYPTION_KEY, JSON.stringify(values)),
      };
      const held = await db
        .update(postPlatforms)
        .set({ progress: stored, updatedAt: new Date(now()) })
        .where(heldBy(lease))
        .returning({ id: postPlatforms.id });
      // Another attempt took the row over: what this one does next is no longer its to do.
      if (held.length === 0)
        throw new PlatformError("Another attempt took this row over.", {
          kind: "unknown_outcome",
          code: "lease_lost",
        });
    },
  };
}

/** The stored progress opened (tests and operators reading a row). */
export const openProgress = opened;
