// The account managing the replies to its threads (developers.facebook.com › Threads › Reply Management;
// Posts › Delete Posts): its own reply under someone's reply (a container with reply_to_id, then
// threads_publish), hiding or showing a top-level reply again (POST /{reply-id}/manage_reply: nested
// replies "cannot be targeted in isolation"), and deleting one of its own posts or replies (DELETE
// /{threads-media-id}: "your own posts" only). A reply on someone else's thread is not found for the
// caller (Meta's code 100, subcode 33).
import { type Caller, type Emulated, emulate, type emulatorRouter, refuse, requireScope } from "../emulator";
import { commentState, setCommentState } from "../meta-comments";
import { graphParams, required, unsupported, VERSION } from "../meta-graph";

type Router = ReturnType<typeof emulatorRouter>;

/** Meta's answer to a call whose token lacks the permission (code 10). */
const META_DENIED = "(#10) Application does not have permission for this action";

/** A follower's reply (the follower tool) on one of the caller's threads, with that thread; else null. */
export async function followerReply(emu: Emulated, caller: Caller, id: string) {
  for (const post of await emu.posts(caller.handle)) {
    const reply = ((await emu.comments(post.id)) ?? []).find((comment) => comment.id === id);
    if (reply && !(await commentState(emu, id)).deleted) return { post, reply };
  }
  return null;
}

export function commentRoutes(app: Router): void {
  app
    .post(`/${VERSION}/:id/manage_reply`, async (c) => {
      const emu = emulate(c, "threads");
      const caller = await emu.caller();
      requireScope(caller, ["threads_manage_replies"], META_DENIED, { code: 10 });
      const id = c.req.param("id");
      const params = await graphParams(c.req.raw);
      const found = await followerReply(emu, caller, id);
      if (!found) return unsupported(id);
      const hide = params.get("hide");
      if (hide !== "true" && hide !== "false") return required("hide");
      if (found.reply.parent_id !== null)
        return refuse(400, "invalid_request", "(#100) Only top-level replies can be hidden or unhidden.");
      await setCommentState(emu, caller.handle, id, { hidden: hide === "true" });
      return c.json({ success: true });
    })
    .delete(`/${VERSION}/:id`, async (c) => {
      const emu = emulate(c, "threads");
      const caller = await emu.caller();
      requireScope(caller, ["threads_delete"], META_DENIED, { code: 10 });
      const id = c.req.param("id");
      const post = await emu.post(id);
      if (!post || (await commentState(emu, id)).deleted) {
        // Someone else's reply on the caller's thread: Threads deletes only the caller's own posts.
        if (await followerReply(emu, caller, id))
          return refuse(400, "forbidden", "Application does not have permission for this action", {
            code: 10,
          });
        return unsupported(id);
      }
      if (post.handle !== caller.handle) return unsupported(id);
      await setCommentState(emu, caller.handle, id, { deleted: true });
      return c.json({ success: true, deleted_id: id });
    });
}
