// The account moderating the comments on its media (developers.facebook.com › Instagram Platform ›
// Comment Moderation; IG Comment (Updating: hide; Deleting); IG Comment › Replies): a reply under a
// top-level comment (a reply to a reply joins its top-level comment; a hidden comment takes none),
// hiding or showing a comment again, deleting one. A comment on someone else's media is not found for
// the caller, as Meta answers an object it cannot load (code 100, subcode 33).
import {
  type Caller,
  type Emulated,
  emulate,
  type emulatorRouter,
  lostAnswer,
  refuse,
  requireScope,
} from "../emulator";
import { setCommentState } from "../meta-comments";
import { forAccount, graphParams, required, unsupported, VERSION } from "../meta-graph";
import { INSTAGRAM_DIALECT } from "./errors";
import { commentsOf } from "./read";
import { CAPTION_MAX, mediaId } from "./rules";

type Router = ReturnType<typeof emulatorRouter>;

/** The comment `id` on one of the caller's media, with that media; else Meta's unknown object. */
async function ownMediaComment(emu: Emulated, caller: Caller, id: string) {
  // IG Comment (Business Login): replying, hiding and deleting need instagram_business_manage_comments.
  requireScope(
    caller,
    ["instagram_business_manage_comments"],
    "(#200) Requires instagram_business_manage_comments permission",
    { code: 200 },
  );
  const reply = await emu.post(id);
  const candidates = reply?.parent_id
    ? [reply.parent_id]
    : (await emu.posts(caller.handle)).map((post) => post.id);
  for (const mediaId of candidates) {
    const media = await emu.post(mediaId);
    if (!media || media.handle !== caller.handle || media.parent_id !== null) continue;
    const comment = (await commentsOf(emu, media)).find((c) => c.id === id);
    if (comment) return { media, comment };
  }
  return unsupported(id);
}

export function commentRoutes(app: Router) {
  app
    .post(`/${VERSION}/:id/replies`, async (c) => {
      const emu = emulate(c, "instagram");
      const caller = await emu.caller();
      const params = await graphParams(c.req.raw);
      const { media, comment } = await ownMediaComment(emu, caller, c.req.param("id"));
      const message = params.get("message") ?? "";
      if (!message.trim()) return required("message");
      if ([...message].length > CAPTION_MAX)
        return refuse(400, "invalid_request", `(#100) The comment is longer than ${CAPTION_MAX} characters.`);
      if (comment.hidden)
        return refuse(400, "invalid_request", "(#100) You cannot reply to a hidden comment.");
      // "Replies to a reply will be added to the top-level comment" (IG Comment › Replies › Limitations).
      const top = comment.parent_id ?? comment.id;
      return forAccount(INSTAGRAM_DIALECT, caller.platformId, async () => {
        const outcome = await emu.attempt(caller.handle, `reply:${top}:${message}`, message);
        const id = mediaId();
        await setCommentState(emu, caller.handle, id, { parent: top });
        await emu.publish({
          id,
          handle: caller.handle,
          parentId: media.id,
          items: [{ text: message, media: [] }],
          platformRequest: { message, replied_to: top },
        });
        return outcome === "lost" ? lostAnswer() : c.json({ id });
      });
    })
    .post(`/${VERSION}/:id`, async (c) => {
      const emu = emulate(c, "instagram");
      const caller = await emu.caller();
      const params = await graphParams(c.req.raw);
      const { comment } = await ownMediaComment(emu, caller, c.req.param("id"));
      const hide = params.get("hide");
      if (hide !== "true" && hide !== "false") return required("hide");
      // The account's own comments on its media stay shown whatever is asked.
      if (comment.from.id !== caller.platformId)
        await setCommentState(emu, caller.handle, comment.id, { hidden: hide === "true" });
      return c.json({ success: true });
    })
    .delete(`/${VERSION}/:id`, async (c) => {
      const emu = emulate(c, "instagram");
      const caller = await emu.caller();
      const { comment } = await ownMediaComment(emu, caller, c.req.param("id"));
      await setCommentState(emu, caller.handle, comment.id, { deleted: true });
      return c.json({ success: true });
    });
}
