// Publishing: media_publish within the quota (IG User Content Publishing Limit), the account's media
// edge (newest first, stories not listed) and a media's fields, a comment by the account, a node's
// fields (a container's status, a media, a comment). developers.facebook.com › Instagram Platform ›
// Content Publishing; IG User Media; Instagram Media; IG Media Comments.
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
import { INSTAGRAM_DIALECT } from "./errors";
import { containerOf, mediaFacts, statusOf } from "./media";
import { CAPTION_MAX, mediaId, QUOTA_SECONDS, QUOTA_TOTAL } from "./rules";

/** The emulator's router, as its route groups extend it. */
type Router = ReturnType<typeof emulatorRouter>;

/** The quota, media_publish, the media edge, comments by the account, and any node. */
export function publishRoutes(app: Router) {
  app
    .get(`/${VERSION}/:id/content_publishing_limit`, async (c) => {
      const emu = emulate(c, "instagram");
      const caller = await emu.caller();
      ownNode(caller, c.req.param("id"));
      const used = await quotaUsage(emu, caller.handle);
      const entry = {
        quota_usage: used,
        config: { quota_total: QUOTA_TOTAL, quota_duration: QUOTA_SECONDS },
      };
      const fields = (c.req.query("fields") ?? "quota_usage").split(",");
      const out: Record<string, unknown> = {};
      if (fields.includes("quota_usage")) out.quota_usage = entry.quota_usage;
      if (fields.includes("config")) out.config = entry.config;
      return c.json({ data: [out] });
    })
    .post(`/${VERSION}/:id/media_publish`, async (c) => {
      const emu = emulate(c, "instagram");
      const caller = await emu.caller();
      ownNode(caller, c.req.param("id"));
      const params = await graphParams(c.req.raw);
      return forAccount(INSTAGRAM_DIALECT, caller.platformId, () => publishContainer(emu, caller, params));
    })
    .get(`/${VERSION}/:id/media`, async (c) => {
      const emu = emulate(c, "instagram");
      const caller = await emu.caller();
      ownNode(caller, c.req.param("id"));
      // Newest first; stories are not listed here.
      const posts = (await emu.posts(caller.handle)).reverse();
      const fields = c.req.query("fields");
      const listed = await Promise.all(
        posts.map(async (post) => pick(await mediaObject(emu, post), fields, [])),
      );
      return c.json(page(c.req.url, listed));
    })
    .post(`/${VERSION}/:id/comments`, async (c) => {
      const emu = emulate(c, "instagram");
      const caller = await emu.caller();
      const id = c.req.param("id");
      const params = await graphParams(c.req.raw);
      const post = await emu.post(id);
      if (!post || post.parent_id !== null) return unsupported(id);
      const message = params.get("message") ?? "";
      if (!message.trim()) return required("message");
      if ([...message].length > CAPTION_MAX)
        return refuse(400, "invalid_request", `(#100) The comment is longer than ${CAPTION_MAX} characters.`);
      return forAccount(INSTAGRAM_DIALECT, caller.platformId, async () => {
        const outcome = await emu.attempt(caller.handle, `comment:${id}:${message}`, message);
        const stored = await emu.publish({
          id: mediaId(),
          handle: caller.handle,
          parentId: id,
          items: [{ text: message, media: [] }],
          platformRequest: { message },
        });
        return outcome === "lost" ? lostAnswer() : c.json({ id: stored.id });
      });
    })
    .get(`/${VERSION}/:id`, async (c) => {
      const emu = emulate(c, "instagram");
      const caller = await emu.caller();
      const id = c.req.param("id");
      const fields = c.req.query("fields");
      const object = await emu.object(id);
      if (object?.kind === "container") {
        if (object.handle !== caller.handle) return unsupported(id);
        return c.json(pick({ id, ...statusOf(object) }, fields, []));
      }
      const post = await emu.post(id);
      if (!post || post.handle !== caller.handle) return unsupported(id);
      if (post.parent_id !== null) {
        // A comment of the account's.
        return c.json(
          pick(
            {
              id,
              text: post.text[0] ?? "",
              username: caller.handle,
              timestamp: graphTime(post.published_at),
            },
            fields,
            [],
          ),
        );
      }
      return c.json(pick(await mediaObject(emu, post), fields, []));
    });
}

/** The account's API-published posts of the last 24 hours (carousels count once; comments not at all). */
async function quotaUsage(emu: Emulated, handle: string) {
  const since = Date.now() - QUOTA_SECONDS * 1000;
  const objects = await emu.objects(handle, "container");
  return objects.filter((object) => {
    const container = containerOf(object);
    return container.published_at !== undefined && container.published_at >= since;
  }).length;
}

/** POST /<IG_ID>/media_publish: the FINISHED container becomes a media (once), within the quota. */
async function publishContainer(emu: Emulated, caller: Caller, params: URLSearchParams) {
  const creationId = params.get("creation_id");
  if (!creationId) return required("creation_id");
  const object = await emu.object(creationId);
  if (object?.kind !== "container" || object.handle !== caller.handle) return unsupported(creationId);
  const container = containerOf(object);
  if (container.is_carousel_item)
    return refuse(400, "invalid_request", "(#100) A carousel item cannot be published on its own.");
  const { status_code } = statusOf(object);
  if (status_code === "PUBLISHED")
    return refuse(400, "invalid_request", "(#100) The media container has already been published.");
  if (status_code === "EXPIRED")
    return refuse(
      400,
      "not_ready",
      "The media you are trying to access has expired. Please try to upload again.",
      { code: -2 },
    );
  if (status_code === "ERROR")
    return refuse(
      400,
      "rejected",
      "Media download has failed. The media URI doesn't meet our requirements.",
      { code: 9004 },
    );
  if (status_code === "IN_PROGRESS")
    return refuse(400, "not_ready", "The media is not ready for publishing, please wait for a moment", {
      code: 9007,
    });
  if ((await quotaUsage(emu, caller.handle)) >= QUOTA_TOTAL)
    return refuse(
      400,
      "rate_limited",
      "You reached maximum number of posts that is allowed to be published by API in 24 hours.",
      {
        code: 9,
        retryAfterSeconds: 3600,
      },
    );
  const outcome = await emu.attempt(caller.handle, `publish:${container.caption}`, container.caption);
  const children = await Promise.all(
    (container.children ?? []).map(async (id) => containerOf((await emu.object(id))!)),
  );
  const parts = container.media_type === "CAROUSEL" ? children : [container];
  const stored = await emu.publish({
    id: mediaId(),
    handle: caller.handle,
    // Stories are not listed on the account's media edge.
    visible: container.media_type !== "STORIES",
    items: [
      {
        text: container.caption,
        media: parts.map((part) => ({ url: part.url, type: mediaTypeOf(part.url, part.kind) })),
      },
    ],
    platformRequest: {
      media: container.request,
      ...(children.length ? { children: children.map((child) => child.request) } : {}),
      media_publish: { creation_id: creationId },
    },
  });
  await emu.updateObject(creationId, { published_id: stored.id, published_at: Date.now() });
  return outcome === "lost" ? lostAnswer() : Response.json({ id: stored.id });
}

/** A media as the Graph API shows it (Instagram Media › fields). */
async function mediaObject(emu: Emulated, post: LedgerPost) {
  const { product, mediaType } = mediaFacts(post);
  const metrics = await emu.metrics(post.id);
  const own = await emu.replies(post.id);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(`shortcode:${post.id}`)));
  return {
    id: post.id,
    caption: post.text[0] || undefined,
    media_type: mediaType,
    media_product_type: product,
    media_url: post.media[0]?.url,
    permalink: emu.postUrl(post.id),
    shortcode: letters(digest, 11),
    timestamp: graphTime(post.published_at),
    username: post.handle,
    owner: { id: await emu.platformId(post.handle) },
    like_count: metrics?.likes ?? 0,
    comments_count: (metrics?.comments ?? 0) + own.length,
    is_comment_enabled: true,
  };
}
