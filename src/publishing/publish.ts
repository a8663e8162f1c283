// One post's publishing run: every PUBLISHING row whose lease this run takes gets one attempt, its
// outcome recorded under the lease together with the post's new status (one batch per row). Rows
// another consumer holds are left to it.

import type { Database } from "../db/client";
import { attempt, draftItems } from "./attempt";
import type { PublishDeps } from "./deps";
import { sendFollowUp } from "./follow-up";
import { takeLease } from "./lease";
import { loadForPublishing } from "./load";
import { type Outcome, recordOutcome } from "./outcome";
import { settle } from "./post-status";

/** The outcomes of the attempts this run made (empty when it had nothing to do). */
export async function publishPost(
  env: Env,
  db: Database,
  deps: PublishDeps,
  postId: number,
  due?: number,
): Promise<Outcome[]> {
  const loaded = await loadForPublishing(db, postId);
  if (loaded?.post.status !== "PUBLISHING") return [];
  // A wake-up publishes only the occurrence it was sent for.
  if (due !== undefined && loaded.post.scheduledAt?.getTime() !== due) return [];
  const { post } = loaded;
  if (loaded.rows.length === 0) {
    // Nothing left to publish, yet the post says PUBLISHING (a run that died between the two, or a post
    // from before the engine): it takes the status its rows give it.
    await settle(db, env, post, deps.now());
    return [];
  }
  const items = await draftItems(env, loaded);
  const outcomes = await Promise.all(
    loaded.rows.map(async (row) => {
      const lease = await takeLease(db, row.rowId, deps.now());
      if (!lease) return null;
      const outcome = await attempt(env, db, deps, row, lease, items);
      const now = deps.now();
      await settle(db, env, post, now, [recordOutcome(db, lease, outcome, now)]);
      // Published before the platform gave its public id: a follow-up read fills it in (the analytics
      // sync resolves it first; the cron's refresh is the safety net if this message is lost).
      if (outcome.kind === "published" && outcome.post.awaiting)
        await sendFollowUp(env, row.rowId).catch((error) =>
          console.warn("publish: the follow-up read of row", row.rowId, "was not queued", error),
        );
      return outcome;
    }),
  );
  return outcomes.filter((o): o is Outcome => o !== null);
}
