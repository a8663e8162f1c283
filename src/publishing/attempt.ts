// One attempt on one row, under its lease: reconcile first when an earlier attempt may have reached the
// platform (`find` by the fingerprint the service controls), else publish the thread. Every failure
// comes back as an Outcome; nothing here writes to the database.
import { accountAuth, withFreshAuth } from "../accounts/tokens";
import type { Database } from "../db/client";
import { backgroundOrigin } from "../lib/origin";
import { signMediaUrl } from "../media/links";
import { type ByteRange, type DraftItem, PlatformError } from "../platforms/types";
import type { PublishDeps } from "./deps";
import { ATTEMPT_BUDGET_MS, type Lease } from "./lease";
import type { Publishing, PublishingRow } from "./load";
import { type Outcome, outcomeOf } from "./outcome";
import { rowProgress } from "./progress";

/** Streams a media file's bytes (or a range of them) out of R2, for platforms that take bytes. */
export const openMedia =
  (bucket: R2Bucket, key: string) =>
  async (range?: ByteRange): Promise<ReadableStream<Uint8Array>> => {
    const object = await bucket.get(key, range ? { range } : {});
    if (!object) {
      throw new PlatformError("The media file is no longer stored.", {
        kind: "permanent",
        code: "media_missing",
      });
    }
    return object.body;
  };

/**
 * The thread's items in order, each with its media as signed links on the background origin (for
 * platforms that pull) and a way to stream its bytes from R2 (for platforms that take them).
 */
export async function draftItems(env: Env, loaded: Publishing): Promise<DraftItem[]> {
  const origin = backgroundOrigin(env);
  const signed = await Promise.all(
    loaded.media.map(async (m) => ({
      itemIndex: m.itemIndex,
      media: {
        url: await signMediaUrl(env, origin, m.mediaId),
        mime: m.mime,
        kind: m.kind,
        size: m.size,
        name: m.name,
        open: openMedia(env.MEDIA, m.r2Key),
      },
    })),
  );
  return loaded.post.content.map((text, index) => ({
    text,
    media: signed.filter((m) => m.itemIndex === index).map((m) => m.media),
  }));
}

/** `sp-<row id>-<occurrence>`: one fingerprint per publication of a row, stable across its retries. */
export const fingerprintOf = (lease: Pick<Lease, "rowId" | "postedOn">) =>
  `sp-${lease.rowId}-${lease.postedOn.length + 1}`;

export async function attempt(
  env: Env,
  db: Database,
  deps: PublishDeps,
  row: PublishingRow,
  lease: Lease,
  items: DraftItem[],
): Promise<Outcome> {
  try {
    const adapter = deps.adapterFor(env, row.platform, row.mode);
    const auth = await accountAuth(env, row, deps.now());
    const fingerprint = fingerprintOf(lease);
    // What earlier attempts of this publication recorded: the adapter resumes it, reconciles by it.
    const progress = await rowProgress(env, db, lease, fingerprint, deps.now);
    const deadline = lease.startedAt + ATTEMPT_BUDGET_MS;
    // A 401 refreshes the token once and runs the attempt once more (src/accounts/tokens.ts).
    const post = await withFreshAuth(env, row, auth, async (account) => {
      if (lease.attempts > 1) {
        const found = await adapter.find(account, {
          fingerprint,
          text: items[0]?.text ?? "",
          settings: lease.settings,
          progress,
        });
        if (found) return found;
      }
      return adapter.publish(account, { items, settings: lease.settings, fingerprint, progress, deadline });
    });
    return { kind: "published", post };
  } catch (error) {
    if (error instanceof PlatformError) return outcomeOf(error);
    // Not the adapter's own failure (a bug, a fault below it): the call may have gone out, so it is
    // treated as an unknown outcome and reconciled before the next attempt.
    console.error("publish: unexpected failure of an attempt", lease.rowId, error);
    return {
      kind: "retry",
      error: { code: "unexpected_error", message: "The attempt failed unexpectedly; it will be retried." },
    };
  }
}
