// Acting on a comment from the inbox: the account's reply, hiding (or showing again) and deleting,
// each through the platform's own endpoint (the adapter's replyToComment, hideComment, deleteComment).
// An action the comment's `actions` does not offer is a 422 saying why (present.ts refusalOf). A reply
// is exactly once: its row is written first, pending (no platform id), so that an attempt whose answer
// was lost is found on the next one, which reads the post's comments for it before sending again; the
// analytics sync adopts such a reply too (src/analytics/sync.ts), never storing it twice.
import { and, eq, isNull, sql } from "drizzle-orm";
import { accountAuth, withFreshAuth } from "../accounts/tokens";
import type { Database } from "../db/client";
import type { Mode } from "../db/enums";
import { type Comment, comments } from "../db/schema";
import type { Tenant } from "../db/tenancy";
import { ApiError, conflict, notFound, validationFailed } from "../http/errors";
import { publishingAdapter } from "../platforms";
import { SPECS } from "../platforms/catalog";
import {
  type AccountAuth,
  type CommentAction,
  type PlatformAdapter,
  PlatformError,
  type PublishedComment,
} from "../platforms/types";
import { commentRef, refusalOf } from "./present";
import { type ActionTarget, commentForAction } from "./queries";

/** How much earlier than the attempt the platform may date the reply it created (clocks differ). */
const CLOCK_SKEW_MS = 60_000;

export type ActionDeps = {
  adapterFor(env: Env, platform: Comment["platform"], mode: Mode): PlatformAdapter;
  now(): number;
};
export const defaultActionDeps: ActionDeps = { adapterFor: publishingAdapter, now: () => Date.now() };

/** The comment, or the 404 of an absent one (another tenant's alike). */
async function target(db: Database, tenant: Tenant, id: number): Promise<ActionTarget> {
  const [found] = await commentForAction(db, tenant, id);
  if (!found) throw notFound("Comment");
  return found;
}

/** The 422 of an action the comment does not offer. */
function allowed(comment: Comment, action: CommentAction) {
  const refusal = refusalOf(comment, action);
  if (refusal !== null) throw validationFailed({ action: [refusal] });
}

/**
 * The account's auth and the adapter to act with: a disconnected or expired account is a 409 (it can
 * act again once reconnected), as is a post with no platform id.
 */
async function session(env: Env, found: ActionTarget, deps: ActionDeps) {
  const { account } = found;
  if (account.disconnectedAt)
    throw conflict("The comment's account is disconnected: reconnect it to act on its comments.");
  if (account.expiredAt)
    throw conflict("The comment's account needs reconnecting: its authorization has expired.");
  if (!found.platformPostId) throw conflict("The comment's post has no platform post to act on.");
  const tokens = { ...account, accountId: account.id };
  const adapter = deps.adapterFor(env, found.comment.platform, account.mode);
  const auth = await accountAuth(env, tokens, deps.now()).catch(failed);
  const call = <T>(run: (auth: AccountAuth) => Promise<T>) => withFreshAuth(env, tokens, auth, run);
  return { adapter, call, postId: found.platformPostId };
}

/**
 * A platform failure as the route answers it: a refusal for good is a 422 with the platform's words; a
 * rate limit a 429 with its wait; an account to reconnect, or a platform that did not answer (nothing
 * lost: the same request again completes it, never twice), a 409.
 */
function failed(error: unknown): never {
  if (!(error instanceof PlatformError)) throw error;
  if (error.kind === "permanent" && error.code !== "account_expired")
    throw validationFailed({ platform: [error.message] });
  if (error.kind === "rate_limited")
    throw new ApiError(
      429,
      { message: error.message },
      { headers: { "Retry-After": String(error.retryAfterSeconds ?? 60) } },
    );
  if (error.kind === "auth" || error.code === "account_expired")
    throw conflict(`The comment's account needs reconnecting: ${error.message}`);
  throw conflict(`${error.message} Nothing was lost: send the same request again to complete it.`);
}

/**
 * The account's reply under the comment, published once. A pending reply of an earlier attempt with
 * the same text is looked for among the post's comments first (own, under this comment, this text, not
 * older than the attempt) and adopted when found; else it is sent (again).
 */
export async function replyToComment(
  env: Env,
  db: Database,
  tenant: Tenant,
  id: number,
  text: string,
  deps: ActionDeps = defaultActionDeps,
): Promise<{ comment: Comment; timezone: string }> {
  const found = await target(db, tenant, id);
  const { comment, timezone } = found;
  allowed(comment, "reply");
  const limit = SPECS[comment.platform].textLimit;
  if ([...text].length > limit)
    throw validationFailed({ text: [`The text field must not be greater than ${limit} characters.`] });
  const { adapter, call, postId } = await session(env, found, deps);
  const now = deps.now();
  const [pending] = await db
    .select()
    .from(comments)
    .where(
      and(
        eq(comments.parentId, comment.id),
        eq(comments.postId, comment.postId),
        isNull(comments.platformCommentId),
        eq(comments.isOwn, true),
        eq(comments.content, text),
        isNull(comments.deletedAt),
      ),
    )
    .limit(1);
  let replyId = pending?.id;
  if (pending && adapter.comments) {
    // The earlier attempt may have published it: read the post's comments before sending again.
    const read = await call((auth) => adapter.comments!(auth, postId)).catch(failed);
    const published = read.find(
      (other) =>
        other.is_own &&
        // Under this comment, or under its parent where the platform nests one level only.
        (other.parent_id === comment.platformCommentId ||
          (comment.platformParentId !== null && other.parent_id === comment.platformParentId)) &&
        other.content === text &&
        other.created_at.getTime() + CLOCK_SKEW_MS >= pending.createdAt.getTime(),
    );
    if (published) {
      const found = {
        id: published.id,
        url: published.url ?? null,
        parentId: published.parent_id ?? undefined,
      };
      return settle(db, comment, pending.id, found, now, timezone);
    }
  }
  if (replyId === undefined) {
    const [inserted] = await db
      .insert(comments)
      .values({
        workspaceId: comment.workspaceId,
        accountId: comment.accountId,
        postId: comment.postId,
        platform: comment.platform,
        platformCommentId: null,
        platformParentId: comment.platformCommentId,
        parentId: comment.id,
        content: text,
        authorName: found.account.name || found.account.username,
        contact: null,
        isOwn: true,
        receivedAt: new Date(now),
        createdAt: new Date(now),
      })
      .returning({ id: comments.id });
    replyId = inserted!.id;
  }
  try {
    const published = await call((auth) => adapter.replyToComment!(auth, commentRef(comment, postId), text));
    return settle(db, comment, replyId, published, now, timezone);
  } catch (error) {
    // Refused for good, or never sent (a rate limit, an account to reconnect): nothing to find later, so
    // the pending row goes. A platform that may have published it keeps the row for the next attempt.
    const unknown =
      error instanceof PlatformError && (error.kind === "unknown_outcome" || error.kind === "transient");
    if (!unknown)
      await db.delete(comments).where(and(eq(comments.id, replyId), isNull(comments.platformCommentId)));
    return failed(error);
  }
}

/**
 * The pending reply takes its platform id and address, and the platform comment it was filed under
 * where the platform says (an answer to an answer under the thread's top comment: a LinkedIn delete names
 * that comment's collection); its parent is marked replied to. Should the sync have stored that platform
 * comment as a row of its own meanwhile, that row is the reply and the pending one goes.
 */
async function settle(
  db: Database,
  parent: Comment,
  pendingId: number,
  published: PublishedComment,
  now: number,
  timezone: string,
) {
  const platformId = published.id;
  const same = and(
    eq(comments.postId, parent.postId),
    eq(comments.platform, parent.platform),
    eq(comments.platformCommentId, platformId),
  );
  const [, , , [reply]] = await db.batch([
    db
      .update(comments)
      .set({
        platformCommentId: platformId,
        url: published.url,
        ...(published.parentId ? { platformParentId: published.parentId } : {}),
      })
      .where(
        and(
          eq(comments.id, pendingId),
          sql`NOT EXISTS (SELECT 1 FROM ${comments} q WHERE q.post_id = ${parent.postId}
            AND q.platform = ${parent.platform} AND q.platform_comment_id = ${platformId})`,
        ),
      ),
    db.delete(comments).where(and(eq(comments.id, pendingId), isNull(comments.platformCommentId))),
    db
      .update(comments)
      .set({ repliedAt: new Date(now) })
      .where(eq(comments.id, parent.id)),
    db.select().from(comments).where(same),
  ]);
  return { comment: reply!, timezone };
}

/** Hides the comment (`hidden` true) or shows it again, on the platform and here. */
export async function hideComment(
  env: Env,
  db: Database,
  tenant: Tenant,
  id: number,
  hidden: boolean,
  deps: ActionDeps = defaultActionDeps,
): Promise<{ comment: Comment; timezone: string }> {
  const found = await target(db, tenant, id);
  allowed(found.comment, "hide");
  const { adapter, call, postId } = await session(env, found, deps);
  await call((auth) => adapter.hideComment!(auth, commentRef(found.comment, postId), hidden)).catch(failed);
  const [comment] = await db
    .update(comments)
    .set({ hidden })
    .where(eq(comments.id, found.comment.id))
    .returning();
  return { comment: comment!, timezone: found.timezone };
}

/**
 * Deletes the comment on the platform, then marks it deleted here (a tombstone the list leaves out and
 * no sync revives). Its replies stay, their `parent_id` kept.
 */
export async function deleteComment(
  env: Env,
  db: Database,
  tenant: Tenant,
  id: number,
  deps: ActionDeps = defaultActionDeps,
): Promise<void> {
  const found = await target(db, tenant, id);
  allowed(found.comment, "delete");
  const { adapter, call, postId } = await session(env, found, deps);
  await call((auth) => adapter.deleteComment!(auth, commentRef(found.comment, postId))).catch(failed);
  await db
    .update(comments)
    .set({ deletedAt: new Date(deps.now()) })
    .where(eq(comments.id, found.comment.id));
}
