// Publishing: threads_publish (a post, or a reply with reply_to_id), the account's threads (newest
// first) and a node's fields (a container's status, a post). developers.facebook.com › Threads › Posts;
// Retrieve Posts; Reply Management.
import { utf8 } from "../../lib/encoding";
import { letters } from "../../platforms/sandbox/ids";
import {
  type Caller,
  type Emulated,
  emulate,
  type emulatorRouter,
  type LedgerPost,
  lostAnswer,
  refuse,
} from "../emulator";
import { commentState, setCommentState } from "../meta-comments";
import {
  forAccount,
  graphParams,
  graphTime,
  mediaTypeOf,
  ownNode,
  page,
  pick,
  required,
  unsupported,
  VERSION,
} from "../meta-graph";
import { followerReply } from "./comments";
import { THREADS_DIALECT } from "./errors";
import { containerOf, statusOf } from "./media";
import { mediaId } from "./rules";

/** The emulator's router, as its route groups extend it. */
type Router = ReturnType<typeof emulatorRouter>;

/** threads_publish, the account's threads, and any node. */
export function publishRoutes(app: Router): void {
  app
    .post(`/${VERSION}/:id/threads_publish`, async (c) => {
      const emu = emulate(c, "threads");
      const caller = await emu.caller();
      ownNode(caller, c.req.param("id"));
      const params = await graphParams(c.req.raw);
      return forAccount(THREADS_DIALECT, caller.platformId, () => publishContainer(emu, caller, params));
    })
    .get(`/${VERSION}/:id/threads`, async (c) => {
      const emu = emulate(c, "threads");
      const caller = await emu.caller();
      ownNode(caller, c.req.param("id"));
      const posts = (await emu.posts(caller.handle)).reverse();
      const fields = c.req.query("fields");
      const listed = await Promise.all(
        posts.map(async (post) => pick(await threadObject(emu, post, caller), fields, [])),
      );
      return c.json(page(c.req.url, listed));
    })
    .get(`/${VERSION}/:id`, async (c) => {
      const emu = emulate(c, "threads");
      const caller = await emu.caller();
      const id = c.req.param("id");
      const fields = c.req.query("fields");
      const object = await emu.object(id);
      if (object?.kind === "container") {
        if (object.handle !== caller.handle) return unsupported(id);
        return c.json(pick({ id, ...statusOf(object) }, fields, ["status"]));
      }
      const post = await knownPost(emu, id);
      return c.json(pick(await threadObject(emu, post, caller), fields, []));
    });
}

/** A published post (or reply) by id, else Meta's unsupported request. */
export async function knownPost(emu: Emulated, id: string): Promise<LedgerPost> {
  const post = await emu.post(id);
  // A deleted post is gone for every call.
  return post && !(await commentState(emu, id)).deleted ? post : unsupported(id);
}

/** POST /<user>/threads_publish: the FINISHED container becomes a post (or a reply), once. */
async function publishContainer(emu: Emulated, caller: Caller, params: URLSearchParams) {
  const creationId = params.get("creation_id");
  if (!creationId) return required("creation_id");
  const object = await emu.object(creationId);
  if (object?.kind !== "container" || object.handle !== caller.handle) return unsupported(creationId);
  const container = containerOf(object);
  if (container.is_carousel_item)
    return refuse(400, "invalid_request", "(#100) A carousel item cannot be published on its own.");
  const { status } = statusOf(object);
  if (status === "PUBLISHED")
    return refuse(400, "invalid_request", "(#100) The container has already been published.");
  if (status === "EXPIRED") return refuse(400, "invalid_request", "(#100) The container has expired.");
  if (status === "ERROR") return refuse(400, "rejected", "The media could not be processed.");
  if (status === "IN_PROGRESS")
    return refuse(400, "not_ready", "(#24) The media is not ready to be published yet.", { code: 24 });
  const outcome = await emu.attempt(
    caller.handle,
    `publish:${container.reply_to_id ?? ""}:${container.text}`,
    container.text,
  );
  const children = await Promise.all(
    (container.children ?? []).map(async (id) => containerOf((await emu.object(id))!)),
  );
  const parts = container.media_type === "CAROUSEL" ? children : container.kind === "none" ? [] : [container];
  // A reply to a follower's reply is stored under the thread, the reply it answers kept beside it.
  const replyTo = container.reply_to_id;
  const answered = replyTo && !(await emu.post(replyTo)) ? await followerReply(emu, caller, replyTo) : null;
  const id = mediaId();
  if (answered) await setCommentState(emu, caller.handle, id, { parent: answered.reply.id });
  const stored = await emu.publish({
    id,
    handle: caller.handle,
    parentId: answered ? answered.post.id : (container.reply_to_id ?? null),
    items: [
      {
        text: container.text,
        media: parts.map((part) => ({
          url: part.url,
          type: mediaTypeOf(part.url, part.kind === "video" ? "video" : "image"),
        })),
      },
    ],
    platformRequest: {
      threads: container.request,
      ...(children.length ? { children: children.map((child) => child.request) } : {}),
      threads_publish: { creation_id: creationId },
    },
  });
  await emu.updateObject(creationId, { published_id: stored.id });
  return outcome === "lost" ? lostAnswer() : Response.json({ id: stored.id });
}

/** A post as the Threads API shows it (Threads Media › fields). */
export async function threadObject(emu: Emulated, post: LedgerPost, viewer: Caller) {
  const request = (post.platform_request ?? {}) as { threads?: Record<string, string> };
  const type = request.threads?.media_type ?? "TEXT";
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(`shortcode:${post.id}`)));
  const own = await emu.replies(post.id);
  const generated = (await emu.comments(post.id)) ?? [];
  return {
    id: post.id,
    media_product_type: "THREADS",
    media_type: type === "TEXT" ? "TEXT_POST" : type === "CAROUSEL" ? "CAROUSEL_ALBUM" : type,
    media_url: post.media[0]?.url,
    permalink: emu.postUrl(post.id),
    owner: { id: await emu.platformId(post.handle) },
    username: post.handle,
    text: post.text[0] || undefined,
    timestamp: graphTime(post.published_at),
    shortcode: letters(digest, 11),
    is_quote_post: false,
    has_replies: own.length + generated.length > 0,
    is_reply: post.parent_id !== null,
    is_reply_owned_by_me: post.parent_id !== null ? post.handle === viewer.handle : undefined,
    ...(post.parent_id ? { replied_to: { id: post.parent_id } } : {}),
    reply_audience: request.threads?.reply_control?.toUpperCase() ?? "EVERYONE",
    topic_tag: request.threads?.topic_tag,
  };
}
