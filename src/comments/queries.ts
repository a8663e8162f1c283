// The inbox's read: one page of the comments of the user's workspaces, newest first (by id, so a comment
// that arrives later never lands inside pages already read), in one statement. Every path walks a
// tenant-first index and reads a bounded number of entries whatever the tenant holds: the caller's
// memberships scope it, and a foreign workspace, account or post filter finds nothing through them,
// reading what an absent one does.
import { and, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { accounts, comments, postPlatforms, posts, workspaceMembers, workspaces } from "../db/schema";
import { ownedId, type Tenant } from "../db/tenancy";
import { encodeCursor, type ListCommentsQuery } from "./schemas";

export type CommentPage = Pick<
  ListCommentsQuery,
  "workspace_id" | "account_id" | "post_id" | "platform" | "since" | "hidden" | "replied"
> & {
  page: number;
  perPage: number;
  /** The page starts below this id (a cursor); else at its offset. */
  beforeId?: number;
};

/** The filters that are not an index's key, on the comments aliased `c`; each an AND term. */
function conditions(page: CommentPage, c: string): SQL {
  const column = (name: string) => sql.raw(`${c}.${name}`);
  const terms: SQL[] = [];
  if (page.platform !== undefined) terms.push(sql`${column("platform")} = ${page.platform}`);
  if (page.since !== undefined) terms.push(sql`${column("created_at")} >= ${page.since.getTime()}`);
  if (page.hidden !== undefined) terms.push(sql`${column("hidden")} = ${page.hidden ? 1 : 0}`);
  if (page.replied !== undefined)
    terms.push(
      page.replied ? sql`${column("replied_at")} IS NOT NULL` : sql`${column("replied_at")} IS NULL`,
    );
  if (page.beforeId !== undefined) terms.push(sql`${column("id")} < ${page.beforeId}`);
  // A comment the account deleted is a tombstone (it keeps a stale read from bringing it back).
  return terms.reduce((all, term) => sql`${all} AND ${term}`, sql`${column("deleted_at")} IS NULL`);
}

/** The user's workspaces (one when `workspace_id` names one of them, none when it names another's). */
const memberships = (tenant: Tenant, workspaceId: number | undefined) =>
  sql`SELECT ${sql.identifier(workspaceMembers.workspaceId.name)} FROM ${workspaceMembers}
    WHERE ${sql.identifier(workspaceMembers.userId.name)} = ${tenant.userId}
    AND ${sql.identifier(workspaceMembers.mode.name)} = ${tenant.mode}${
      workspaceId === undefined
        ? sql``
        : sql` AND ${sql.identifier(workspaceMembers.workspaceId.name)} = ${workspaceId}`
    }`;

/**
 * The ids of the page (one more than it holds, to tell whether another follows). A post or account
 * filter walks that record's (…, id) index, the record found only among the user's own (`ownedId`); else,
 * as the posts list does, each of the user's workspaces first finds its floor (the id below which none
 * of its comments can be on the page, a walk of at most offset + page entries down
 * `comments_workspace_id_idx`), and only the comments above the floors are merged.
 */
function pageIds(tenant: Tenant, page: CommentPage): SQL {
  const skip = page.beforeId === undefined ? (page.page - 1) * page.perPage : 0;
  const take = page.perPage + 1;
  const scope = memberships(tenant, page.workspace_id);
  if (page.post_id !== undefined || page.account_id !== undefined) {
    const byPost = page.post_id !== undefined;
    const key = byPost
      ? sql`c.post_id = ${ownedId(posts, tenant, page.post_id!)}`
      : sql`c.account_id = ${ownedId(accounts, tenant, page.account_id!)}`;
    const alsoAccount =
      byPost && page.account_id !== undefined ? sql` AND c.account_id = ${page.account_id}` : sql``;
    const index = byPost ? "comments_post_id_idx" : "comments_account_id_idx";
    return sql`SELECT c.id FROM ${comments} c INDEXED BY ${sql.identifier(index)}
      WHERE ${key}${alsoAccount} AND c.workspace_id IN (${scope}) AND ${conditions(page, "c")}
      ORDER BY c.id DESC LIMIT ${take} OFFSET ${skip}`;
  }
  return sql`WITH floors AS MATERIALIZED (
      SELECT m.workspace_id AS workspace_id,
        coalesce((SELECT f.id FROM ${comments} f INDEXED BY comments_workspace_id_idx
          WHERE f.workspace_id = m.workspace_id AND ${conditions(page, "f")}
          ORDER BY f.id DESC LIMIT 1 OFFSET ${skip + take - 1}), 0) AS floor
      FROM (${scope}) m)
    SELECT c.id FROM floors JOIN ${comments} c INDEXED BY comments_workspace_id_idx
      ON c.workspace_id = floors.workspace_id AND c.id >= floors.floor
    WHERE ${conditions(page, "c")}
    ORDER BY c.id DESC LIMIT ${take} OFFSET ${skip}`;
}

/** The page's comments with their workspace's zone, newest first: one statement. */
export function commentsPage(db: Database, tenant: Tenant, page: CommentPage) {
  return db
    .select({ comment: comments, timezone: workspaces.timezone })
    .from(comments)
    .innerJoin(workspaces, eq(workspaces.id, comments.workspaceId))
    .where(inArray(comments.id, sql`(${pageIds(tenant, page)})`))
    .orderBy(desc(comments.id));
}

/**
 * One page of the list as the REST route and the console show it: the page's rows (with their zone) and
 * the cursor of the next page, null on the last one. One statement, as a batch of one: its answer
 * carries the rows D1 read, which Server-Timing reports.
 */
export async function listComments(db: Database, tenant: Tenant, query: ListCommentsQuery) {
  const { per_page, cursor } = query;
  const [rows] = await db.batch([
    commentsPage(db, tenant, { ...query, perPage: per_page, beforeId: cursor }),
  ]);
  // One row past the page was read: another page follows when it came back.
  const shown = rows.slice(0, per_page);
  const nextCursor = rows.length > per_page ? encodeCursor(shown.at(-1)!.comment.id) : null;
  return { rows: shown, nextCursor };
}

/**
 * A comment the user may act on, with what acting needs: its workspace's zone, its account (tokens and
 * state) and the platform's id of its post. Found through the user's own index entries only (`ownedId`),
 * so another tenant's comment reads what an absent one does; a deleted one is absent. One statement.
 */
export function commentForAction(db: Database, tenant: Tenant, id: number) {
  return db
    .select({
      comment: comments,
      timezone: workspaces.timezone,
      account: accounts,
      platformPostId: postPlatforms.platformPostId,
    })
    .from(comments)
    .innerJoin(workspaces, eq(workspaces.id, comments.workspaceId))
    .innerJoin(accounts, eq(accounts.id, comments.accountId))
    .leftJoin(
      postPlatforms,
      and(
        eq(postPlatforms.postId, comments.postId),
        eq(postPlatforms.accountId, comments.accountId),
        eq(postPlatforms.platform, comments.platform),
      ),
    )
    .where(and(eq(comments.id, ownedId(comments, tenant, id)), isNull(comments.deletedAt)))
    .orderBy(sql`${postPlatforms.status} = 'PUBLISHED' DESC`, desc(postPlatforms.id))
    .limit(1);
}
export type ActionTarget = Awaited<ReturnType<typeof commentForAction>>[number];
