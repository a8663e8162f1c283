// Auto-plug: once a published row's metric named by the post's `auto_plug.metric` reaches its
// `threshold`, the plug text is published ONCE as a reply to that row's platform post.
//
// Exactly once: a consumer first claims the row with a conditional UPDATE that sets `plugged_at` only
// while it is null, so of two racing consumers (or a redelivered job, or a second sync past the
// threshold) only one replies; the reply's id is then stored in `plug_post_id`. A claim whose reply
// never got stored (the worker died, the answer was lost, the platform failed) is taken over after
// PLUG_LEASE_MS by a later sync, through the same kind of conditional UPDATE on the claim it saw, and
// that retried attempt first looks the reply up by its fingerprint (`sp-plug-<row id>`), replying again
// only when the platform has none. A failure never fails the sync: it is logged and retried after the
// lease, at the row's next sync, unless the platform refused the reply for good (a permanent error: the
// text breaks its rules), which is recorded in `plug_error` and ends the plug.
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { postPlatforms } from "../db/schema";
import { PlatformError } from "../platforms/types";
import { autoPlugInput } from "../posts/schemas";
import type { SyncTarget } from "./sync";

/** How long a claimed plug may stay without a stored reply before another sync takes it over. */
export const PLUG_LEASE_MS = 10 * 60_000;

export const plugFingerprint = (rowId: number) => `sp-plug-${rowId}`;

export type PlugOutcome = "none" | "busy" | "replied" | "reconciled" | "failed" | "refused";

/** Publishes the row's auto-plug if it is due and nobody has; never throws. */
export async function autoPlug(db: Database, target: SyncTarget, now: number): Promise<PlugOutcome> {
  const { row, post, adapter, auth } = target;
  const plug = autoPlugInput.safeParse(post.autoPlug);
  if (!plug.success || row.plugPostId !== null || row.plugError !== null) return "none";
  const reached = (row.analytics[plug.data.metric] ?? 0) >= plug.data.threshold;
  if (!reached) return "none";
  const retry = row.pluggedAt !== null;
  if (row.pluggedAt && now - row.pluggedAt.getTime() < PLUG_LEASE_MS) return "busy";

  const fingerprint = plugFingerprint(row.id);
  try {
    const claimed = await db
      .update(postPlatforms)
      .set({ pluggedAt: new Date(now) })
      .where(
        and(
          eq(postPlatforms.id, row.id),
          eq(postPlatforms.status, "PUBLISHED"),
          isNull(postPlatforms.plugPostId),
          row.pluggedAt ? eq(postPlatforms.pluggedAt, row.pluggedAt) : isNull(postPlatforms.pluggedAt),
        ),
      )
      .returning({ id: postPlatforms.id });
    if (claimed.length === 0) return "busy";

    const earlier = retry
      ? await adapter.find(auth, { fingerprint, text: plug.data.text, replyTo: row.platformPostId })
      : null;
    if (!earlier && !adapter.reply)
      throw new PlatformError(
        "This platform's API cannot post a reply, so there is no auto-plug to publish.",
        {
          kind: "permanent",
          code: "not_supported",
        },
      );
    const reply = earlier ?? (await adapter.reply!(auth, row.platformPostId, plug.data.text, fingerprint));
    await db
      .update(postPlatforms)
      .set({ plugPostId: reply.id })
      .where(and(eq(postPlatforms.id, row.id), isNull(postPlatforms.plugPostId)));
    return earlier ? "reconciled" : "replied";
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof PlatformError && error.kind === "permanent") {
      console.warn(`auto-plug of row ${row.id} refused for good (${error.code}): ${reason}`);
      // Only while this claim still stands: a reply stored meanwhile by a takeover wins.
      await db
        .update(postPlatforms)
        .set({ plugError: { code: error.code, message: reason } })
        .where(and(eq(postPlatforms.id, row.id), isNull(postPlatforms.plugPostId)))
        .catch(() => undefined);
      return "refused";
    }
    console.warn(`auto-plug of row ${row.id} failed (retried after the lease): ${reason}`);
    return "failed";
  }
}
