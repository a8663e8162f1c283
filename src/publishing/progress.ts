// What the platform handed out for a row's publication before its final call, kept on the row
// (`post_platforms.progress`) so a later attempt resumes it (ARCHITECTURE "Publishing"). It belongs to one
// publication: it is stored with the fingerprint it was recorded under, and a repetition (a new
// fingerprint) starts from nothing. Every write is made under the attempt's lease, before the adapter's
// next call, so what a crash leaves behind is never less than what the platform has; the write that
// settles the row (PUBLISHED, FAILED: outcome.ts, exhausted.ts) clears it, as nothing resumes a settled
// publication. The values are sealed with ENCRYPTION_KEY like the account's tokens (some are credentials
// while they last: a YouTube resumable session URL, TikTok's upload URL), with the row and the
// publication as associated data: copied onto another row, or under another fingerprint, they do not open.
import type { Database } from "../db/client";
import { postPlatforms } from "../db/schema";
import { openBytes, sealBytes } from "../lib/crypto";
import { fromBase64, toBase64, utf8 } from "../lib/encoding";
import { PlatformError, type Progress } from "../platforms/types";
import { heldBy, type Lease } from "./lease";

/** The column's form: the publication it belongs to, and its values sealed. */
export type StoredProgress = { fingerprint: string; sealed: string };

/** The key's purpose, and the associated data that binds a seal to its row and publication. */
const PURPOSE = "publishing-progress";
const boundTo = (rowId: number, fingerprint: string) => `post_platforms:${rowId}:${fingerprint}`;

/** Seals `values` for the row's publication `fingerprint`: the column's value. */
export async function sealProgress(
  env: Pick<Env, "ENCRYPTION_KEY">,
  rowId: number,
  fingerprint: string,
  values: Record<string, unknown>,
): Promise<StoredProgress> {
  const plain = utf8(JSON.stringify(values));
  const sealed = await sealBytes(env.ENCRYPTION_KEY, PURPOSE, plain, boundTo(rowId, fingerprint));
  return { fingerprint, sealed: toBase64(sealed) };
}

/**
 * What is stored on row `rowId` for `fingerprint`, opened; nothing for another publication, a seal made
 * for another row, or an unreadable one.
 */
async function opened(env: Pick<Env, "ENCRYPTION_KEY">, stored: unknown, rowId: number, fingerprint: string) {
  const { fingerprint: of, sealed } = (stored ?? {}) as Partial<StoredProgress>;
  if (of !== fingerprint || typeof sealed !== "string") return {};
  try {
    const plain = await openBytes(
      env.ENCRYPTION_KEY,
      PURPOSE,
      fromBase64(sealed),
      boundTo(rowId, fingerprint),
    );
    const values = JSON.parse(new TextDecoder().decode(plain)) as unknown;
    return typeof values === "object" && values !== null ? (values as Record<string, unknown>) : {};
  } catch {
    // Sealed for another row, or under a key since rotated (or before seals were bound to their row):
    // the attempt starts over, as with nothing recorded.
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
  const values = await opened(env, lease.progress, lease.rowId, fingerprint);
  return {
    get: (key) => values[key],
    async set(key, value) {
      if (value === undefined) delete values[key];
      else values[key] = value;
      const stored = await sealProgress(env, lease.rowId, fingerprint, values);
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
