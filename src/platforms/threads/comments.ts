// The account answering, hiding and deleting the replies to its threads. developers.facebook.com ›
// Threads › Reply Management (POST /{threads-reply-id}/manage_reply hide=true|false, needs
// threads_manage_replies: top-level replies only, their nested replies follow); Posts (a reply is a
// container with reply_to_id, then threads_publish); Delete Posts (DELETE /{threads-media-id}: the
// account's own posts only, needs threads_delete, 100 deletions a day).
import { deleteUnlessGone, success } from "../meta";
import type { AccountAuth, CommentAction, CommentRef, PublishedComment, PublishingContext } from "../types";
import type { ThreadsApi } from "./api";
import { threadsPublisher } from "./publish";

/** The account's text reply under the reply `comment`: its id and permalink. */
export async function replyToComment(
  api: ThreadsApi,
  context: Pick<PublishingContext, "sleep" | "now">,
  account: AccountAuth,
  comment: CommentRef,
  text: string,
): Promise<PublishedComment> {
  return threadsPublisher(api, context).reply(account, comment.id, text);
}

/** POST /{reply-id}/manage_reply hide=true|false. */
export async function hideComment(api: ThreadsApi, comment: CommentRef, hidden: boolean): Promise<void> {
  await api.post(
    "hide reply",
    `${encodeURIComponent(comment.id)}/manage_reply`,
    { hide: String(hidden) },
    success,
  );
}

/** DELETE /{threads-media-id}: one of the account's own replies; one already gone is done. */
export async function deleteComment(api: ThreadsApi, comment: CommentRef): Promise<void> {
  await deleteUnlessGone(() => api.delete("delete reply", encodeURIComponent(comment.id)));
}

/** What Threads refuses although it has the call. */
export function commentRules(action: CommentAction, comment: CommentRef): string | null {
  if (action === "hide" && comment.parentId !== null)
    return "Threads hides top-level replies only; hiding the reply they answer hides them too.";
  if (action === "delete" && !comment.isOwn)
    return "Threads deletes only the account's own posts and replies; hide this reply instead.";
  return null;
}
