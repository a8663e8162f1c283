// Managing the comments on the account's X posts (docs.x.com › X API › Posts): a comment is a reply in
// the conversation of the account's post. The account's reply is a post replying to it (POST /2/tweets
// with `reply.in_reply_to_tweet_id`); hiding is X's hide replies (PUT /2/tweets/:id/hidden, scope
// tweet.moderate.write: only replies in conversations the account started, never its own); deleting is
// DELETE /2/tweets/:id, which X allows on the account's own posts only.
import {
  type AccountAuth,
  type CommentAction,
  type CommentRef,
  PlatformError,
  type PublishedComment,
} from "../types";
import { HOSTS, LABEL, postId, postPath, type XApi } from "./api";
import { createdPost, deletedAnswer, hiddenAnswer } from "./schemas";

/** The account's reply under the comment: a post replying to it. */
export async function replyToComment(
  api: XApi,
  account: AccountAuth,
  comment: CommentRef,
  text: string,
): Promise<PublishedComment> {
  const body = { text, reply: { in_reply_to_tweet_id: postId(comment.id) } };
  const created = await api.post(account, `${LABEL} comment reply`, api.url("/tweets"), body, createdPost);
  // Its address as the comment read names it (read.ts), so a later sync finds nothing changed.
  return { id: created.data.id, url: `${HOSTS.web}${postPath(account.handle, created.data.id)}` };
}

/** Hides (or shows again) a reply in the account's conversation; X answers the same when already so. */
export async function hideComment(
  api: XApi,
  account: AccountAuth,
  comment: CommentRef,
  hidden: boolean,
): Promise<void> {
  const url = api.url(`/tweets/${postId(comment.id)}/hidden`);
  await api.send(account, `${LABEL} hide reply`, "PUT", url, { hidden }, hiddenAnswer);
}

/** Deletes the account's own post; one already gone (404) resolves. */
export async function deleteComment(api: XApi, account: AccountAuth, comment: CommentRef): Promise<void> {
  const url = api.url(`/tweets/${postId(comment.id)}`);
  try {
    await api.send(account, `${LABEL} delete`, "DELETE", url, null, deletedAnswer);
  } catch (error) {
    if (error instanceof PlatformError && /not_found/.test(error.code ?? "")) return;
    throw error;
  }
}

/** What X refuses although it has the call: deleting someone else's reply, hiding the account's own. */
export function commentRules(action: CommentAction, comment: CommentRef): string | null {
  if (action === "delete" && !comment.isOwn) return `${LABEL} lets an account delete only its own posts.`;
  if (action === "hide" && comment.isOwn)
    return `${LABEL} hides only others' replies in the account's conversations, not the account's own.`;
  return null;
}
