// What the platform handed out for a row's publication before its final call, kept on the row
// (`post_platforms.progress`) so a later attempt resumes it (ARCHITECTURE "Publishing"). It belongs to one
// publication: it is stored with the fingerprint it was recorded under, and a repetition (a new
// fingerprint) starts from nothing. Every write is made under the attempt's lease, before the adapter's
// next call, so what a crash leaves behind is never less than what the platform has.
import type { Database } from "../db/client";
import { postPlatforms } from "../db/schema";
import { PlatformError, type Progress } from "../platforms/types";
import { heldBy, type Lease } from "./lease";

/** The row's progress for the publication `fingerprint` names, written through to D1. */
export function rowProgress(
  db: Database,
  lease: Pick<Lease, "rowId" | "attemptId" | "progress">,
  fingerprint: string,
  now: () => number,
): Progress {
  const values: Record<string, unknown> =
    lease.progress?.fingerprint === fingerprint ? { ...lease.progress } : { fingerprint };
  return {
    get: (key) => (key === "fingerprint" ? undefined : values[key]),
    async set(key, value) {
      if (key === "fingerprint") throw new Error("progress: `fingerprint` is the store's own key");
      if (value === undefined) delete values[key];
      else values[key] = value;
      const held = await db
        .update(postPlatforms)
        .set({ progress: { ...values }, updatedAt: new Date(now()) })
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
