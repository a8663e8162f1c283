// The account answering, hiding and deleting the comments on its media, with the
// instagram_business_manage_comments permission the connect asks for. developers.facebook.com ›
// Instagram Platform › Comment Moderation; IG Comment (Updating: `hide`; Deleting); IG Comment › Replies.
import { deleteUnlessGone, node, success } from "../meta";
import type { CommentAction, CommentRef, PublishedComment } from "../types";
import { type IgApi, permalinkOf } from "./api";
import { created } from "./schemas";

/**
 * POST /{ig-comment-id}/replies?message=: the account's reply under a top-level comment. IG Comment has
 * no permalink: the reply's address is its media's.
 */
export async function replyToComment(
  api: IgApi,
  comment: CommentRef,
  text: string,
): Promise<PublishedComment> {
  const answer = await api.graph.post("reply", node(comment.id, "replies"), { message: text }, created);
  return { id: answer.id, url: await permalinkOf(api, comment.postId) };
}

/** POST /{ig-comment-id}?hide=true|false. */
export async function hideComment(api: IgApi, comment: CommentRef, hidden: boolean): Promise<void> {
  await api.graph.post("hide comment", node(comment.id), { hide: hidden }, success);
}

/** DELETE /{ig-comment-id}: any comment on the account's media; one already gone is done. */
export async function deleteComment(api: IgApi, comment: CommentRef): Promise<void> {
  await deleteUnlessGone(() => api.graph.delete("delete comment", node(comment.id)));
}

/**
 * What Instagram refuses although it has the call (IG Comment › Replies › Limitations: "You can only
 * reply to top-level comments", "You cannot reply to hidden comments"); and it always shows the
 * account's own comments on its media, so hiding one would do nothing.
 */
export function commentRules(action: CommentAction, comment: CommentRef): string | null {
  if (action === "reply" && comment.parentId !== null)
    return "Instagram only takes replies to top-level comments.";
  if (action === "reply" && comment.hidden) return "Instagram takes no reply to a hidden comment.";
  if (action === "hide" && comment.isOwn) return "Instagram always shows the account's own comments.";
  return null;
}
