// Managing the comments on the channel's videos (YouTube Data API v3, scope youtube.force-ssl, which a
// connect asks for): an answer is comments.insert with `snippet.parentId`, and YouTube threads only under
// top-level comments, so an answer to a reply goes under its thread's top-level comment; hiding is
// comments.setModerationStatus `heldForReview` (the channel or video owner only), shown again with
// `published` (`rejected` is not used: a rejected comment cannot be published again); comments.delete
// deletes only the caller's own comments (others' are hidden instead).
// developers.google.com › YouTube Data API › Comments: insert; Comments: setModerationStatus;
// Comments: delete.

import {
  type AccountAuth,
  type CommentAction,
  type CommentRef,
  PlatformError,
  type PublishedComment,
} from "../types";
import { tokenOf, type YouTubeApi } from "./api";
import { commentUrl } from "./read";
import { commentResource } from "./schemas";

/** Why YouTube refuses `action` on this comment; null when it allows it. */
export function commentRules(action: CommentAction, comment: CommentRef): string | null {
  if (action === "delete" && !comment.isOwn) {
    return "YouTube lets only a comment's author delete it; hide the comment instead.";
  }
  return null;
}

/** The channel's answer under `comment`, in its thread (under the top-level comment). */
export async function replyToComment(
  api: YouTubeApi,
  account: AccountAuth,
  comment: CommentRef,
  text: string,
): Promise<PublishedComment> {
  const parentId = comment.parentId ?? comment.id;
  const created = await api.post(
    "reply to a comment",
    "comments",
    { part: "snippet" },
    tokenOf(account),
    { snippet: { parentId, textOriginal: text } },
    commentResource,
  );
  return { id: created.id, url: commentUrl(api, comment.postId, created.id), parentId };
}

/** Holds the comment for review (hidden from the public) or publishes it again. */
export async function hideComment(
  api: YouTubeApi,
  account: AccountAuth,
  comment: CommentRef,
  hidden: boolean,
): Promise<void> {
  const moderationStatus = hidden ? "heldForReview" : "published";
  await api.send(
    "comment moderation",
    "POST",
    "comments/setModerationStatus",
    { id: comment.id, moderationStatus },
    tokenOf(account),
  );
}

/** Deletes the channel's own comment; one already gone (commentNotFound) is done. */
export async function deleteComment(
  api: YouTubeApi,
  account: AccountAuth,
  comment: CommentRef,
): Promise<void> {
  try {
    await api.send("comment delete", "DELETE", "comments", { id: comment.id }, tokenOf(account));
  } catch (error) {
    if (error instanceof PlatformError && error.code === "commentNotFound") return;
    throw error;
  }
}
