// A post's review history (ARCHITECTURE "Approvals"): the statement that adds an entry, written into the
// batch of the change it records, and the approval rule a create or an update applies to its status.
// The decisions themselves (approve, reject) and the history's route live in src/approvals/.
import { type SQL, sql } from "drizzle-orm";
import { insertWhere } from "../db/batch";
import type { Database } from "../db/client";
import type { ApprovalPolicy, PostStatus, ReviewAction } from "../db/enums";
import { apiKeys, postReviews, users } from "../db/schema";

/**
 * Who a review entry is by: an API key (named by its name at the time), a console user (their name), or
 * a review link (its label).
 */
export type Reviewer =
  | { type: "key"; keyId: number }
  | { type: "user"; userId: number }
  | { type: "link"; name: string };

/** The reviewer of a request: its key when it has one (the API, MCP), else its signed-in user. */
export const reviewerOf = (tenant: { userId: number; keyId?: number }): Reviewer =>
  tenant.keyId !== undefined ? { type: "key", keyId: tenant.keyId } : { type: "user", userId: tenant.userId };

/** The reviewer's name as the entry keeps it, read in the statement itself. */
function nameOf(reviewer: Reviewer): SQL<string> | string {
  switch (reviewer.type) {
    case "key":
      return sql<string>`coalesce((SELECT ${apiKeys.name} FROM ${apiKeys} WHERE ${apiKeys.id} = ${reviewer.keyId}), 'API key')`;
    case "user":
      return sql<string>`coalesce((SELECT ${users.name} FROM ${users} WHERE ${users.id} = ${reviewer.userId}), 'user')`;
    case "link":
      return reviewer.name;
  }
}

/**
 * Adds a review entry for the post `postId` (SQL: the post the batch inserts) at `version`, only while
 * `when` holds (checked in the same statement, so a decision that lost a race records nothing).
 */
export function insertReview(
  db: Database,
  entry: {
    postId: number | SQL;
    action: ReviewAction;
    version: number;
    note?: string | null;
    by: Reviewer;
    at: Date;
  },
  when: SQL = sql`1`,
) {
  return insertWhere(
    db,
    postReviews,
    {
      postId: entry.postId as number,
      action: entry.action,
      version: entry.version,
      note: entry.note ?? null,
      byType: entry.by.type,
      byName: nameOf(entry.by),
      createdAt: entry.at,
    },
    when,
  );
}

/**
 * The status a post gets in its workspace: with `required` approval, a post that is to publish (SCHEDULED
 * or PUBLISHING) waits in PENDING_APPROVAL, unless it was approved and the change keeps that approval
 * (`approved`: an approved post whose content, targets, time and settings did not change). A draft stays
 * a draft; with `none` nothing waits.
 */
export function statusUnderPolicy(status: PostStatus, policy: ApprovalPolicy, approved = false): PostStatus {
  if (policy !== "required" || status === "DRAFT" || approved) return status;
  return "PENDING_APPROVAL";
}
