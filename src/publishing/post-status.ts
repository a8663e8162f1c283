// A post's status follows its rows (docs/architecture.md): PUBLISHING while any row is, PUBLISHED when
// every row is, FAILED when none is publishing and one failed. Written as conditional statements that
// go into the same batch as the row change that settles them, so the post can never disagree with its
// rows. A repeatable post whose occurrence published on every row goes back to SCHEDULED instead, rows
// included, at its next slot; `remaining_posts` counts the occurrence off then. A partly failed
// occurrence leaves the post FAILED and the repeat paused: retrying its failed rows completes the
// occurrence, and the repeat resumes from there.
import { and, eq, exists, gt, isNull, ne, notExists, type SQL, sql } from "drizzle-orm";
import { runBatch, type Statement } from "../db/batch";
import type { Database } from "../db/client";
import type { PostStatus } from "../db/enums";
import { postPlatforms, posts } from "../db/schema";
import { announce } from "../events/announce";
import { type OutboxKey, recordPostSettled } from "../events/record";
import type { PublishingPost } from "./load";
import { sendWakeUps } from "./messages";
import { nextOccurrence } from "./repeat";

const rowsOf = (db: Database, postId: number, where?: SQL) =>
  db
    .select({ one: sql`1` })
    .from(postPlatforms)
    .where(and(eq(postPlatforms.postId, postId), where));

/** `EXISTS (a row of the post [matching where])`. */
const anyRow = (db: Database, postId: number, where?: SQL) => exists(rowsOf(db, postId, where));
const noRow = (db: Database, postId: number, where: SQL) => notExists(rowsOf(db, postId, where));

/**
 * A row of an account still connected: a disconnected account's rows (only PUBLISHED ones are left,
 * src/accounts/queries.ts) keep their last publication and take no part in a repeat's next occurrence.
 */
const ofConnectedAccount = sql`${postPlatforms.accountId} NOT IN (SELECT id FROM accounts WHERE disconnected_at IS NOT NULL)`;

const scheduledAtIs = (at: Date | null) => (at ? eq(posts.scheduledAt, at) : isNull(posts.scheduledAt));

/** The next occurrence of a repeatable post with occurrences left after this one, else null. */
export function nextSlot(post: PublishingPost, now: number): number | null {
  if (!post.repeatable || (post.remainingPosts ?? 0) <= 1) return null;
  if (!post.repeatableGap || !post.repeatableGapUnit) return null;
  const rule = { gap: post.repeatableGap, unit: post.repeatableGapUnit, zone: post.timezone };
  return nextOccurrence(post.scheduledAt?.getTime() ?? now, rule, now);
}

/**
 * The statements that settle the post after its rows changed. With `rescheduledAt` set, the second one
 * puts the post back to SCHEDULED at that time, and its RETURNING says whether it did.
 */
function settleStatements(db: Database, post: PublishingPost, now: number) {
  const at = new Date(now);
  const id = post.id;
  const publishing = and(eq(posts.id, id), eq(posts.status, "PUBLISHING"));
  const statements: Statement[] = [];
  const next = nextSlot(post, now);
  if (next !== null) {
    const thisOccurrence = and(
      publishing,
      scheduledAtIs(post.scheduledAt),
      eq(posts.repeatable, true),
      gt(posts.remainingPosts, 1),
    );
    statements.push(
      db
        .update(postPlatforms)
        .set({ status: "SCHEDULED", attempts: 0, attemptId: null, attemptStartedAt: null, updatedAt: at })
        .where(
          and(
            eq(postPlatforms.postId, id),
            eq(postPlatforms.status, "PUBLISHED"),
            ofConnectedAccount,
            exists(db.select({ one: sql`1` }).from(posts).where(thisOccurrence)),
            noRow(db, id, ne(postPlatforms.status, "PUBLISHED")),
          ),
        ),
      db
        .update(posts)
        .set({
          status: "SCHEDULED",
          scheduledAt: new Date(next),
          publishNow: false,
          remainingPosts: sql`${posts.remainingPosts} - 1`,
          updatedAt: at,
        })
        .where(
          and(
            thisOccurrence,
            anyRow(db, id, ofConnectedAccount),
            noRow(db, id, and(ne(postPlatforms.status, "SCHEDULED"), ofConnectedAccount)!),
          ),
        )
        .returning({ id: posts.id }),
    );
  }
  const allPublished = sql`(${anyRow(db, id)} AND ${noRow(db, id, ne(postPlatforms.status, "PUBLISHED"))})`;
  statements.push(
    db
      .update(posts)
      .set({
        status: sql<PostStatus>`CASE WHEN ${allPublished} THEN 'PUBLISHED' ELSE 'FAILED' END`,
        // The last occurrence of a repeat is counted off once it published everywhere.
        remainingPosts: sql`CASE WHEN ${posts.repeatable} AND ${posts.remainingPosts} > 0 AND ${allPublished}
          THEN ${posts.remainingPosts} - 1 ELSE ${posts.remainingPosts} END`,
        updatedAt: at,
      })
      .where(and(publishing, noRow(db, id, eq(postPlatforms.status, "PUBLISHING"))))
      .returning({ status: posts.status }),
  );
  return { statements, rescheduledAt: next };
}

/**
 * Runs `changes` (row writes) and the post's settlement in one batch; a repeat put back to SCHEDULED
 * gets its next wake-up, and a post that settled announces its event. Answers the results of `changes`.
 */
export async function settle(
  db: Database,
  env: Env,
  post: PublishingPost,
  now: number,
  changes: Statement[] = [],
): Promise<unknown[]> {
  const { statements, rescheduledAt } = settleStatements(db, post, now);
  // The batch that leaves PUBLISHING records the event, once (a repeat's occurrence published too).
  const results = await runBatch(db, [...changes, ...statements, recordPostSettled(db, post.id, now)]);
  const recorded = results.pop() as OutboxKey[];
  const rescheduled = results[changes.length + 1] as unknown[] | undefined;
  if (rescheduledAt !== null && rescheduled?.length) {
    try {
      await sendWakeUps(env.PUBLISH_QUEUE, [{ postId: post.id, due: rescheduledAt }], now);
    } catch (error) {
      // The post is SCHEDULED in D1 either way: the cron's sweep claims it once it is due.
      console.error("publish: could not send the next wake-up of a repeat", post.id, error);
    }
  }
  await announce(env, recorded);
  return results.slice(0, changes.length);
}
