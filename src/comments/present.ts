import type { Comment } from "../db/schema";
import { toZonedIso } from "../lib/time";
import type { COMMENT_ACTIONS, PresentedComment } from "./schemas";

/**
 * What the account may do with the comment. None yet: reply, hide and delete (issue 30's next slice)
 * will derive them from the platform's adapter and the comment (`is_own`, `hidden`).
 */
export const actionsOf = (_comment: Comment): (typeof COMMENT_ACTIONS)[number][] => [];

export const presentComment = (comment: Comment, timezone: string): PresentedComment => ({
  id: comment.id,
  content: comment.content,
  author_name: comment.authorName,
  platform: comment.platform,
  created_at: toZonedIso(comment.createdAt, timezone),
  contact: comment.contact ?? null,
  post_id: comment.postId,
  account_id: comment.accountId,
  platform_comment_id: comment.platformCommentId,
  parent_id: comment.parentId,
  hidden: comment.hidden,
  url: comment.url,
  is_own: comment.isOwn,
  actions: actionsOf(comment),
});
