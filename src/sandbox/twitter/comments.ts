// The X emulator's endpoints on the replies in an account's conversations (docs.x.com › X API › Posts ›
// Hide replies, Manage posts): hiding or showing one again (PUT /2/tweets/:id/hidden {hidden}, only
// replies in a conversation the caller started and never the caller's own; the same state again is a
// success) and deleting (DELETE /2/tweets/:id, the caller's own only, `{data: {deleted: true}}`). Only the
// comments the ledger stores (followers' and the account's replies) can be moderated: the made-up ones
// are read-only. Hiding needs tweet.moderate.write and deleting tweet.write among the token's scopes.
import { z } from "zod";
import { type Emulated, refuse, requireScope } from "../emulator";
import { readX } from "./publish";

const hiddenBody = z.object({ hidden: z.boolean() }).strict();

const numeric = (id: string) => {
  if (!/^\d{1,19}$/.test(id))
    refuse(400, "invalid_request", `The \`id\` query parameter value [${id}] is not valid`);
};

export async function hideReply(x: Emulated, id: string) {
  const caller = await x.caller();
  // Hide replies: "OAuth 2.0 scopes required: tweet.read, tweet.moderate.write, users.read".
  requireScope(caller, ["tweet.moderate.write"], "Forbidden: missing scope tweet.moderate.write.");
  numeric(id);
  const { hidden } = await readX(x, hiddenBody);
  const comment = await x.comment(id);
  if (!comment) return refuse(404, "not_found", `Could not find tweet with id: [${id}].`);
  const post = await x.post(comment.post_id);
  if (!post || post.handle !== caller.handle)
    refuse(403, "forbidden", "You can only hide or unhide replies to conversations you started.");
  if (comment.author.username === caller.handle)
    refuse(403, "forbidden", "You cannot hide or unhide your own replies.");
  await x.hideComment(id, hidden);
  return { data: { hidden } };
}

export async function deleteTweet(x: Emulated, id: string) {
  const caller = await x.caller();
  requireScope(caller, ["tweet.write"], "Forbidden: missing scope tweet.write.");
  numeric(id);
  const comment = await x.comment(id);
  if (!comment) {
    if (await x.post(id))
      refuse(400, "invalid_request", "The sandbox's X emulator deletes the account's replies only.");
    return refuse(404, "not_found", `Could not find tweet with id: [${id}].`);
  }
  if (comment.author.username !== caller.handle)
    refuse(403, "forbidden", "You are not allowed to delete a Tweet you did not author.");
  await x.deleteComment(id);
  return { data: { deleted: true } };
}
