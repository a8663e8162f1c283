// The Page moderating the comments on its posts (Graph API › Comment › Updating, Deleting; Graph API
// changelog v2.2: "POST /{comment_id}?is_hidden=true to hide, … false to unhide"): hiding or showing a
// comment again, and deleting one, each with the Page's token. A comment of another Page's post is not
// found for the caller (code 100, subcode 33, as Facebook answers an object it cannot load).
import { type Caller, refuse, requireScope } from "../emulator";
import { setCommentState } from "../meta-comments";
import { unsupported } from "./errors";
import { commentNamed } from "./read";
import { callerOf, type GraphCall, paramsOf } from "./token";

/** Comment › Updating, Deleting and Publishing: "pages_manage_engagement" (Meta's code 200 without it). */
export const requireEngagement = (caller: Caller) =>
  requireScope(caller, ["pages_manage_engagement"], "(#200) Requires pages_manage_engagement permission", {
    code: 200,
  });

/** The comment the call names, on a post of the caller's Page; else Facebook's unknown-object answer. */
async function pageComment(call: GraphCall, method: string) {
  const params = await paramsOf(call);
  const caller = await callerOf(call.e, params);
  requireEngagement(caller);
  const id = call.params.node!;
  const pageId = await call.e.platformId(caller.handle);
  const named = await commentNamed(call.e, pageId, id);
  if (!named) return unsupported(method, id);
  return { ...named, params, pageId };
}

/** POST /{comment-id}?is_hidden=true|false: hides a comment on the Page's post, or shows it again. */
export async function updateComment(call: GraphCall) {
  const { post, comment, params, pageId } = await pageComment(call, "post");
  const value = params.get("is_hidden");
  if (value !== "true" && value !== "false")
    return refuse(400, "invalid_request", "(#100) The parameter is_hidden is required", { code: 100 });
  // The Page's own comments are not hideable (their `can_hide` is false).
  if (comment.from.id === pageId)
    return refuse(400, "invalid_request", "(#100) This comment cannot be hidden", { code: 100 });
  await setCommentState(call.e, post.handle, comment.id, { hidden: value === "true" });
  return Response.json({ success: true });
}

/** DELETE /{comment-id}: the Page's own comment, or anyone's on the Page's post. */
export async function deleteComment(call: GraphCall) {
  const { post, comment } = await pageComment(call, "delete");
  await setCommentState(call.e, post.handle, comment.id, { deleted: true });
  return Response.json({ success: true });
}
