// LinkedIn's Posts API on the emulator (learn.microsoft.com › LinkedIn › Marketing › Community
// Management › Shares › Posts API): POST /rest/posts (201, the post's URN in `x-restli-id`, no body),
// the author finder, a post read by URN and its public page (feed/update/{urn}/); and a comment written
// under a post (Comments API, socialActions): a thread's later items and a reply.
import type { Context } from "hono";
import { z } from "zod";
import type { BareEnv } from "../../http/env";
import { type Caller, type Emulated, type LedgerPost, lostAnswer, refuse } from "../emulator";
import type { LedgerItem } from "../ledger";
import { type Author, authorAs, ownsAuthor } from "./channels";
import { checkWriteScope } from "./comments";
import { imageStatus, videoStatus } from "./media";
import { commentsOf, commentView, postOf } from "./read";
import {
  activityId,
  COMMENT_MAX,
  COMMENTARY_MAX,
  collection,
  MULTI_IMAGE_MAX,
  MULTI_IMAGE_MIN,
  unescapeLittle,
} from "./rules";

type Ctx = Context<BareEnv>;

const urn = z.string().min(1).max(300);
const newPost = z.object({
  author: urn,
  commentary: z.string().max(100_000).default(""),
  visibility: z.enum(["PUBLIC", "CONNECTIONS", "LOGGED_IN", "CONTAINER"]),
  distribution: z.object({
    feedDistribution: z.enum(["MAIN_FEED", "NONE"]),
    targetEntities: z.array(z.unknown()).optional(),
    thirdPartyDistributionChannels: z.array(z.unknown()).optional(),
  }),
  content: z
    .object({
      media: z.object({ id: urn, title: z.string().optional(), altText: z.string().optional() }).optional(),
      multiImage: z
        .object({ images: z.array(z.object({ id: urn, altText: z.string().optional() })) })
        .optional(),
      article: z
        .object({ source: z.url(), title: z.string().optional(), description: z.string().optional() })
        .optional(),
    })
    .optional(),
  lifecycleState: z.enum(["PUBLISHED", "DRAFT"]),
  isReshareDisabledByAuthor: z.boolean().optional(),
});
type NewPost = z.infer<typeof newPost>;

const newComment = z.object({
  actor: urn,
  object: urn,
  message: z.object({ text: z.string().min(1).max(100_000) }),
  parentComment: urn.optional(),
});

const inputError = (field: string, message: string, code = "INVALID_VALUE") =>
  refuse(422, "rejected", `/${field} :: ${message}`, { code });

/** The post's media, each checked as LinkedIn does: the author's own, uploaded, and processed (AVAILABLE). */
async function mediaOf(e: Emulated, author: Author, post: NewPost) {
  const content = post.content;
  if (!content) return [];
  const kinds = [content.media, content.multiImage, content.article].filter((x) => x !== undefined);
  if (kinds.length > 1) return inputError("content", "a post has one kind of content");
  const ids = content.media
    ? [content.media.id]
    : content.multiImage
      ? content.multiImage.images.map((i) => i.id)
      : [];
  if (content.multiImage && (ids.length < MULTI_IMAGE_MIN || ids.length > MULTI_IMAGE_MAX)) {
    return inputError(
      "content/multiImage/images",
      `a multi-image post has ${MULTI_IMAGE_MIN} to ${MULTI_IMAGE_MAX} images`,
    );
  }
  const media: LedgerItem["media"] = [];
  for (const id of ids) {
    const object = await e.object(id);
    const kind = id.startsWith("urn:li:video:") ? "video" : id.startsWith("urn:li:image:") ? "image" : null;
    if (!object || object.kind !== kind || (content.multiImage && kind !== "image")) {
      return inputError("content", `${id} does not exist or is not an image or video`);
    }
    if (object.data.owner !== author.urn) return inputError("content", `${id} is not owned by ${author.urn}`);
    const status = kind === "image" ? imageStatus(object) : videoStatus(object);
    if (status === "WAITING_UPLOAD") return inputError("content", `${id} has not been uploaded`);
    if (status === "PROCESSING_FAILED") return inputError("content", `${id} failed processing`);
    // Images too: a post may reference media only once it is AVAILABLE (Images API, Videos API).
    if (status !== "AVAILABLE") {
      return refuse(422, "not_ready", `/content/media/id :: ${id} is still processing`, {
        code: "MEDIA_NOT_READY",
      });
    }
    const url = String(object.data.url ?? `${e.base}/media/${encodeURIComponent(id)}`);
    media.push({ url, type: kind === "image" ? String(object.data.type ?? "image/jpeg") : "video/mp4" });
  }
  return media;
}

/** POST /rest/posts: validated, checked for a duplicate and the failure triggers, then stored. */
export async function createPost(c: Ctx, e: Emulated) {
  const caller = await e.caller();
  const post = await e.json(newPost);
  const author = await authorAs(caller, post.author, "author");
  if ([...post.commentary].length > COMMENTARY_MAX) {
    return inputError("commentary", `the commentary has at most ${COMMENTARY_MAX} characters`);
  }
  if (post.visibility === "CONNECTIONS" && author.organization) {
    return inputError("visibility", "an organization's post cannot be visible to connections only");
  }
  if (post.commentary.trim() === "" && !post.content) return inputError("commentary", "the post is empty");
  const media = await mediaOf(e, author, post);
  const published = await e.posts(author.handle);
  const duplicate = published.find(
    (p) => (p.platform_request as NewPost | null)?.commentary === post.commentary,
  );
  if (duplicate && post.commentary.trim() !== "") {
    return refuse(422, "rejected", `Content is a duplicate of ${duplicate.id}`, { code: "DUPLICATE_POST" });
  }
  const outcome = await e.attempt(author.handle, `post:${post.commentary}`, unescapeLittle(post.commentary));
  const id = `urn:li:share:${activityId(e.now())}`;
  const stored = await e.publish({
    id,
    handle: author.handle,
    items: [{ text: unescapeLittle(post.commentary), media }],
    platformRequest: post,
    visible: post.lifecycleState === "PUBLISHED",
  });
  if (outcome === "lost") return lostAnswer(201);
  return c.body(null, 201, { "x-restli-id": stored.id, "x-linkedin-id": stored.id });
}

/** A stored post in the Posts API's shape. */
function postView(post: LedgerPost) {
  const request = post.platform_request as NewPost;
  const at = Date.parse(post.published_at);
  return {
    id: post.id,
    author: request.author,
    commentary: request.commentary,
    visibility: request.visibility,
    distribution: request.distribution,
    ...(request.content ? { content: request.content } : {}),
    lifecycleState: request.lifecycleState,
    isReshareDisabledByAuthor: request.isReshareDisabledByAuthor ?? false,
    createdAt: at,
    publishedAt: at,
    lastModifiedAt: at,
    lifecycleStateInfo: { isEditedByAuthor: false },
  };
}

const FIND_MAX = 100;

/**
 * GET /rest/posts?q=author: an organization's posts, newest first, to its administrators. A member's
 * posts need r_member_social, which LinkedIn grants only to approved partners (this app is not one): 403.
 */
export async function findPosts(c: Ctx, e: Emulated) {
  const caller = await e.caller();
  if (c.req.query("q") !== "author")
    return refuse(400, "invalid_request", "Unsupported finder", { code: "ILLEGAL_ARGUMENT" });
  const author = c.req.query("author") ?? "";
  if (author.startsWith("urn:li:person:")) {
    return refuse(
      403,
      "forbidden",
      "Not enough permissions to access: partnerApiPostsExternal.FINDER-author.20240501",
    );
  }
  const owner = await authorAs(caller, author, "author");
  const count = Math.min(FIND_MAX, Math.max(1, Number(c.req.query("count") ?? 10) || 10));
  const start = Math.max(0, Number(c.req.query("start") ?? 0) || 0);
  const posts = (await e.posts(owner.handle)).reverse();
  return c.json(collection(posts.slice(start, start + count).map(postView), start, posts.length));
}

/** GET /rest/posts/{urn}: the caller's own post (or its organization's). */
export async function getPost(c: Ctx, e: Emulated) {
  const caller = await e.caller();
  const post = await e.post(c.req.param("urn") ?? "");
  if (!post || post.parent_id !== null) return refuse(404, "not_found", "Post not found");
  const view = postView(post);
  if (!(await ownsAuthor(caller, view.author)))
    return refuse(403, "forbidden", "Not enough permissions to read this post");
  return c.json(view);
}

/** POST /rest/socialActions/{urn}/comments: as the member or an organization it administers. */
export async function createComment(c: Ctx, e: Emulated) {
  const caller: Caller = await e.caller();
  const target = c.req.param("urn") ?? "";
  const body = await e.json(newComment);
  // A nested comment is written to its parent's collection (Comments API › Create a Comment on a
  // Comment): `object` is still the post, `parentComment` the comment answered.
  const parent = /^urn:li:comment:\((.+),([^,()]+)\)$/.exec(target);
  const postUrn = parent ? parent[1]! : target;
  if (body.object !== postUrn) {
    return refuse(400, "invalid_request", "/object :: must be the URN of the post the comment is on", {
      code: "ILLEGAL_ARGUMENT",
    });
  }
  if ((body.parentComment ?? null) !== (parent ? target : null)) {
    return refuse(
      400,
      "invalid_request",
      "/parentComment :: must be the comment the request is posted under",
      {
        code: "ILLEGAL_ARGUMENT",
      },
    );
  }
  const actor = await authorAs(caller, body.actor, "actor");
  checkWriteScope(c.env, actor.urn);
  const post = await postOf(e, postUrn);
  if (parent) {
    const answered = (await commentsOf(e, post)).find((comment) => comment.commentUrn === target);
    if (!answered) return refuse(404, "not_found", `${target} does not exist`);
    // The emulator's reading: LinkedIn shows comments one level deep (docs/platforms.md › Not verified).
    if (answered.parentComment !== undefined) {
      return refuse(400, "invalid_request", "/parentComment :: a nested comment cannot be answered", {
        code: "ILLEGAL_ARGUMENT",
      });
    }
  }
  if ([...body.message.text].length > COMMENT_MAX) {
    return inputError("message/text", `a comment has at most ${COMMENT_MAX} characters`);
  }
  const outcome = await e.attempt(actor.handle, `comment:${target}:${body.message.text}`, body.message.text);
  const id = activityId(e.now());
  const stored = await e.publish({
    id,
    handle: actor.handle,
    parentId: post.id,
    items: [{ text: body.message.text, media: [] }],
    platformRequest: body,
  });
  if (outcome === "lost") return lostAnswer(201);
  const view = commentView(post.id, stored.id, actor.urn, body.message.text, stored.publishedAt);
  const answer = parent ? { ...view, parentComment: target } : view;
  return c.json(answer, 201, { "x-restli-id": view.commentUrn });
}

/** A post's public page on LinkedIn (feed/update/{urn}/): the sandbox's page of the post. */
export function feedUpdate(c: Ctx, e: Emulated) {
  return c.redirect(e.postUrl(c.req.param("urn") ?? ""), 302);
}
