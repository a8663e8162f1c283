// Managing the comments on the account's LinkedIn posts (Comments API, socialActions/{urn}/comments):
// an answer is a nested comment (`parentComment`) in the answered comment's own collection, one level
// deep, so an answer to an answer goes under the top-level comment; a delete names the comment's
// collection, its id and the `actor` deleting it. LinkedIn offers no hiding through the API.
// learn.microsoft.com › LinkedIn › Community Management › Comments API (Create a Comment, Delete a
// Comment); docs/platforms.md › LinkedIn › Comments says what could not be verified.

import {
  type AccountAuth,
  type CommentAction,
  type CommentRef,
  PlatformError,
  type PublishedComment,
} from "../types";
import { authorOf, type LinkedInApi, restli, tokenOf } from "./api";
import { createComment } from "./publish";
import { commentsUrl } from "./read";
import { COMMENT_MAX } from "./rules";

/** `urn:li:comment:(<post URN>,<id>)`: the post (or activity) it is on and its id. */
const COMMENT_URN = /^urn:li:comment:\((.+),([^,()]+)\)$/;

/** Why LinkedIn refuses `action` on this comment; null when it allows it. */
export function commentRules(action: CommentAction, comment: CommentRef): string | null {
  // The Comments API deletes as the `actor`: the comment's author. Whether a post's owner may delete
  // others' comments on it is not documented (docs/platforms.md), so it is not attempted.
  if (action === "delete" && !comment.isOwn)
    return "LinkedIn lets an app delete only the account's own comments.";
  return null;
}

/** The account's answer under `comment` (under its top-level comment when it answers an answer). */
export async function replyToComment(
  api: LinkedInApi,
  account: AccountAuth,
  comment: CommentRef,
  text: string,
): Promise<PublishedComment> {
  if ([...text].length > COMMENT_MAX) {
    throw new PlatformError(`LinkedIn: a comment has at most ${COMMENT_MAX} characters.`, {
      kind: "permanent",
      code: "content_rejected",
    });
  }
  const parent = comment.parentId ?? comment.id;
  const created = await createComment(api, tokenOf(account), authorOf(account), comment.postId, text, parent);
  return { id: created.id, url: created.url, parentId: parent };
}

/**
 * Deletes the comment as the account: DELETE socialActions/{the collection it is in}/comments/{id}
 * ?actor=…; a comment already gone (404) is done.
 */
export async function deleteComment(
  api: LinkedInApi,
  account: AccountAuth,
  comment: CommentRef,
): Promise<void> {
  const id = COMMENT_URN.exec(comment.id)?.[2];
  if (!id) {
    throw new PlatformError(`LinkedIn: "${comment.id}" is not a comment URN.`, {
      kind: "permanent",
      code: "invalid_request",
    });
  }
  const collection = commentsUrl(api, comment.parentId ?? comment.postId);
  const url = `${collection}/${encodeURIComponent(id)}?actor=${restli(authorOf(account))}`;
  await api.delete("comment delete", url, tokenOf(account));
}
