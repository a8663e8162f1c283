import type { Platform } from "../db/enums";
import type { Comment } from "../db/schema";
import { toZonedIso } from "../lib/time";
import { capabilitiesOf } from "../platforms/capabilities";
import { SPECS } from "../platforms/catalog";
import type { CommentAction, CommentRef } from "../platforms/types";
import { COMMENT_ACTIONS, type PresentedComment } from "./schemas";

/** Each platform's comment calls (its publishing half's), derived once per platform. */
const callsOf = new Map<Platform, CommentAction[]>();
function commentCalls(platform: Platform): CommentAction[] {
  let calls = callsOf.get(platform);
  if (!calls) {
    calls = capabilitiesOf(SPECS[platform]).commentActions;
    callsOf.set(platform, calls);
  }
  return calls;
}

const VERBS: Record<CommentAction, string> = { reply: "answer", hide: "hide", delete: "delete" };

/**
 * The comment as the platform's calls and rules name it. `postId` is the platform's id of the post
 * (the row's `platform_post_id`), which only the calls need: the list passes none to the rules.
 */
export const commentRef = (comment: Comment, postId = ""): CommentRef => ({
  id: comment.platformCommentId ?? "",
  postId,
  parentId: comment.platformParentId,
  isOwn: comment.isOwn,
  hidden: comment.hidden,
});

/**
 * Why the account may not do `action` with the comment (the 422's sentence), or null when it may: the
 * platform lacks the call, the comment is the account's reply still being sent (no platform id yet),
 * or the platform's `commentRules` refuse it on this comment. `hide` stands for hide and unhide.
 */
export function refusalOf(comment: Comment, action: CommentAction): string | null {
  const definition = SPECS[comment.platform];
  if (!commentCalls(comment.platform).includes(action))
    return `${definition.label} lets no app ${VERBS[action]} comments.`;
  if (comment.platformCommentId === null)
    return "This reply is still being sent to the platform; send the reply request again to complete it.";
  return definition.commentRules?.(action, commentRef(comment)) ?? null;
}

/** What the account may do with the comment: its platform's calls less what its rules refuse here. */
export const actionsOf = (comment: Comment): CommentAction[] =>
  COMMENT_ACTIONS.filter((action) => refusalOf(comment, action) === null);

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
