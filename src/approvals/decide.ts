// Approving or rejecting a post waiting for approval (ARCHITECTURE "Approvals"), exactly once: one batch
// reads the post as it was, then writes the review entry, the rows, the post and the event's record, each
// conditional on the post still waiting at the version the reviewer saw, and reads the post back. D1 runs
// a batch as one transaction, so of parallel decisions on one version exactly one finds the post waiting;
// the others change nothing and are told why (409: another version; 422: not waiting).
//
// Approving a post whose time has come (publish_now, or `scheduled_at` passed while it waited) publishes
// it at once; otherwise it is SCHEDULED and woken at its time. Rejecting makes it a DRAFT again: its time
// (and a queue slot it held) is released.
import { and, eq, exists, ne, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { postPlatforms, posts } from "../db/schema";
import { announce } from "../events/announce";
import { type OutboxKey, recordPostReviewed } from "../events/record";
import { conflict, invalidField, notFound } from "../http/errors";
import type { PresentedPost } from "../posts/present";
import { writeLoadAndAnswer } from "../posts/queries";
import { insertReview, type Reviewer } from "../posts/reviews";
import type { SaveContext } from "../posts/save";
import { enqueuePublish, sendWakeUps } from "../publishing/messages";

export type Decision = "approve" | "reject";

/** What a decision names: the post (found within the caller's scope), the version seen, and a note. */
export type DecisionInput = {
  /** The post's condition: the tenant's post (the API), or the post a review link names. */
  post: SQL;
  postId: number;
  version: number;
  note?: string | null;
  by: Reviewer;
};

/** The status an approval leaves (in the post's UPDATE): PUBLISHING when its time has come, else SCHEDULED. */
const approvedStatus = (now: number) =>
  sql<"SCHEDULED">`CASE WHEN publish_now = 1 OR scheduled_at <= ${now} THEN 'PUBLISHING' ELSE 'SCHEDULED' END`;

/** Why a decision changed nothing, from the post as the batch read it before its writes. */
function refusal(
  found: { status: string; version: number } | undefined,
  version: number,
  decision: Decision,
) {
  if (!found) return notFound("Post");
  if (found.status !== "PENDING_APPROVAL")
    return invalidField(
      "status",
      `Only a post waiting for approval can be ${decision === "approve" ? "approved" : "rejected"}; this one is ${found.status}.`,
    );
  return conflict(
    `The post is at version ${found.version}, not ${version}: it changed since it was read. Review it again and send its current version.`,
  );
}

/**
 * Approves or rejects the post; the post as it now is. 404 when the scope finds no post, 422 when it is
 * not waiting for approval, 409 when it waits at another version.
 */
export async function decide(
  db: Database,
  decision: Decision,
  input: DecisionInput,
  ctx: SaveContext,
): Promise<PresentedPost> {
  const now = new Date();
  const at = now.getTime();
  const { postId, version } = input;
  // The post, in the caller's scope, still waiting at the version the reviewer saw: every write's condition.
  const waiting = exists(
    db
      .select({ one: sql`1` })
      .from(posts)
      .where(and(input.post, eq(posts.status, "PENDING_APPROVAL"), eq(posts.version, version))),
  );
  const rowsOfWaitingPost = and(
    eq(postPlatforms.postId, postId),
    // A row published before (a retried post's) keeps its status, as on an edit.
    ne(postPlatforms.status, "PUBLISHED"),
    waiting,
  );
  const approve = decision === "approve";
  const rowStatus = approve
    ? sql`(SELECT CASE WHEN p.publish_now = 1 OR p.scheduled_at <= ${at} THEN 'PUBLISHING' ELSE 'SCHEDULED' END
        FROM ${posts} p WHERE p.id = ${postId})`
    : sql`'DRAFT'`;
  const writes = [
    db
      .select({ status: posts.status, version: posts.version, scheduledAt: posts.scheduledAt })
      .from(posts)
      .where(input.post),
    insertReview(
      db,
      {
        postId,
        action: approve ? "approved" : "rejected",
        version,
        note: input.note,
        by: input.by,
        at: now,
      },
      waiting,
    ),
    db
      .update(postPlatforms)
      .set({ status: rowStatus as SQL<"DRAFT">, updatedAt: now })
      .where(rowsOfWaitingPost),
    db
      .update(posts)
      .set(
        approve
          ? { status: approvedStatus(at), updatedAt: now }
          : { status: "DRAFT", scheduledAt: null, publishNow: false, updatedAt: now },
      )
      .where(and(input.post, eq(posts.status, "PENDING_APPROVAL"), eq(posts.version, version)))
      .returning({ status: posts.status }),
    recordPostReviewed(db, approve ? "post.approved" : "post.rejected", postId, version, at),
  ] as const;
  // Read back within the scope too: another tenant's post is never read.
  const scoped = sql<number>`(SELECT ${posts.id} FROM ${posts} WHERE ${input.post})`;
  const { post, written } = await writeLoadAndAnswer(db, [...writes], scoped, {
    ...ctx,
    includeComments: false,
  });
  const [before, , , changed, recorded] = written as [
    Array<{ status: string; version: number; scheduledAt: Date | null }>,
    unknown,
    unknown,
    Array<{ status: string }>,
    OutboxKey[],
  ];
  const [decided] = changed;
  if (!decided) throw refusal(before[0], version, decision);
  await announce(ctx.env, recorded);
  if (decided.status === "PUBLISHING") await enqueuePublish(ctx.queue, [postId]);
  if (decided.status === "SCHEDULED")
    await sendWakeUps(ctx.queue, [{ postId, due: before[0]!.scheduledAt!.getTime() }]);
  return post;
}
