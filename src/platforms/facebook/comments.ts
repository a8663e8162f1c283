// The Page answering, hiding and deleting the comments on its posts, with its Page token and the
// pages_manage_engagement permission the connect asks for. developers.facebook.com › Graph API ›
// Comment (Updating: is_hidden; Deleting), Object › Comments (Publishing: a reply is a comment on the
// comment); Graph API changelog v2.2 (POST /{comment_id}?is_hidden=true|false).
import { deleteUnlessGone, node, success } from "../meta";
import type { CommentAction, CommentRef, PublishedComment } from "../types";
import { type PageApi, permalinkOf } from "./api";
import { commentAs } from "./publish";

/** POST /{comment-id}/comments: the Page's reply under the comment; its id and permalink. */
export async function replyToComment(
  api: PageApi,
  comment: CommentRef,
  text: string,
): Promise<PublishedComment> {
  const id = await commentAs(api, comment.id, { text, media: [] });
  return { id, url: await permalinkOf(api, id) };
}

/** POST /{comment-id} is_hidden=true|false. */
export async function hideComment(api: PageApi, comment: CommentRef, hidden: boolean): Promise<void> {
  await api.graph.post("hide comment", node(comment.id), { is_hidden: hidden }, success);
}

/** DELETE /{comment-id}: the Page's own, or anyone's on its post; one already gone is done. */
export async function deleteComment(api: PageApi, comment: CommentRef): Promise<void> {
  await deleteUnlessGone(() => api.graph.delete("delete comment", node(comment.id)));
}

/**
 * What Facebook refuses although it has the call: a Page hides others' comments, not its own (a
 * comment's `can_hide` is false for the Page's own; unhiding one that is not hidden is harmless).
 */
export function commentRules(action: CommentAction, comment: CommentRef): string | null {
  if (action === "hide" && comment.isOwn) return "Facebook does not let a Page hide its own comments.";
  return null;
}
