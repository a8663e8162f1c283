// What the account did to a comment on the Meta emulators (Facebook, Instagram, Threads): hidden or shown
// again, deleted, or, for the account's own reply, which comment it answers. Kept as one ledger object per
// comment (kind `comment_state`, not counted as an upload), so the comment listings, made of the
// followers' comments and the account's own replies, reflect it without a table of their own.
import type { Emulated } from "./emulator";

export type CommentState = {
  /** Hidden (true) or shown again (false) by the account; absent: as the comment came. */
  hidden?: boolean;
  /** Deleted: the listings leave it out and every call on it is an unknown id. */
  deleted?: boolean;
  /** For the account's own reply: the comment it answers (the platform's id). */
  parent?: string;
};

const KIND = "comment_state";
const stateId = (commentId: string) => `comment-state:${commentId}`;

/** What the account did to the comment `commentId`; empty when nothing. */
export async function commentState(e: Emulated, commentId: string): Promise<CommentState> {
  const object = await e.object(stateId(commentId));
  return object?.kind === KIND ? (object.data as CommentState) : {};
}

/** Records `patch` for the comment `commentId`, on the account `handle` whose post it is on. */
export async function setCommentState(
  e: Emulated,
  handle: string,
  commentId: string,
  patch: CommentState,
): Promise<void> {
  const id = stateId(commentId);
  if (await e.object(id)) await e.updateObject(id, patch);
  else await e.createObject({ id, handle, kind: KIND, data: { ...patch }, upload: false });
}

/** Each comment with what the account did to it, the deleted ones left out: what the listings show. */
export async function withStates<T extends { id: string }>(
  e: Emulated,
  comments: T[],
): Promise<Array<{ comment: T; state: CommentState }>> {
  const states = await Promise.all(comments.map((comment) => commentState(e, comment.id)));
  return comments.flatMap((comment, index) =>
    states[index]!.deleted ? [] : [{ comment, state: states[index]! }],
  );
}
