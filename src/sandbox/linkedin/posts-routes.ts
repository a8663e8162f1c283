// LinkedIn's Posts API on the emulator (learn.microsoft.com › LinkedIn › Marketing › Community
// Management › Shares › Posts API): POST /rest/posts (201, the post's URN in `x-restli-id`, no body),
// the author finder, and a post read by URN; and the Comments API under socialActions (read and write).
import type { Context } from "hono";
import { z } from "zod";
import type { BareEnv } from "../../http/env";
import { type Caller, type Emulated, type LedgerPost, lostAnswer, refuse } from "../emulator";
import type { LedgerItem } from "../ledger";
import { imageStatus, videoStatus } from "./media-routes";
import { type Author, authorAs, collection, freshDigits, ownsAuthor, personUrn } from "./rest";

type Ctx = Context<BareEnv>;

/** The longest commentary (Posts API) and comment (Comments API), in characters. */
const COMMENTARY_MAX = 3000;
const COMMENT_MAX = 1250;
const MULTI_IMAGE_MIN = 2;
const MULTI_IMAGE_MAX = 20;

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

/** LinkedIn "little" text as the reader sees it: the backslash escapes dropped. */
const unescapeAll = (text: string) => text.replace(/\\(.)/g, "$1");

/** A URL in the commentary: LinkedIn links it as written, a backslash in it included. */
const URL_IN_TEXT = /\b(?:https?:\/\/|www\.)[^\s<>]+/gi;

/**
 * The commentary as LinkedIn shows it (Little Text Format): a backslash escapes the character after it,
 * except inside a URL, which is linked as written (so an escaped URL keeps its backslashes and leads
 * elsewhere). A URL ends before the sentence punctuation after it and an escaped closing bracket.
 */
export function unescapeLittle(text: string): string {
  let out = "";
  let from = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = match[0].replace(/(?:[.,;:!?'"]|\\[)\]}])+$/, "");
    out += unescapeAll(text.slice(from, match.index)) + url;
    from = match.index + url.length;
  }
  return out + unescapeAll(text.slice(from));
}

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
  const id = `urn:li:share:${freshDigits()}`;
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

/** A comment's URN: under the post it answers, as LinkedIn names it. */
const commentUrn = (postUrn: string, id: string) => `urn:li:comment:(${postUrn},${id})`;

type CommentView = {
  actor: string;
  commentUrn: string;
  $URN: string;
  id: string;
  object: string;
  message: { text: string };
  created: { actor: string; time: number };
  lastModified: { actor: string; time: number };
};

const commentView = (
  postUrn: string,
  id: string,
  actor: string,
  text: string,
  time: number,
): CommentView => ({
  actor,
  commentUrn: commentUrn(postUrn, id),
  $URN: commentUrn(postUrn, id),
  id,
  object: postUrn,
  message: { text },
  created: { actor, time },
  lastModified: { actor, time },
});

/** Every comment of a post, oldest first: the audience's (made up over time) and the API's. */
export async function commentsOf(e: Emulated, post: LedgerPost): Promise<CommentView[]> {
  const audience = (await e.comments(post.id)) ?? [];
  const made = await Promise.all(
    audience.map(async (comment) =>
      commentView(
        post.id,
        comment.id,
        `urn:li:person:${await e.platformId(comment.author.username)}`,
        comment.text,
        comment.created_at,
      ),
    ),
  );
  const written = (await e.replies(post.id)).map((reply) => {
    const request = reply.platform_request as z.infer<typeof newComment>;
    return commentView(
      post.id,
      reply.id,
      request.actor,
      request.message.text,
      Date.parse(reply.published_at),
    );
  });
  return [...made, ...written].sort((a, b) => a.created.time - b.created.time);
}

async function postOf(e: Emulated, urnOfPost: string) {
  const post = await e.post(urnOfPost);
  if (!post || post.parent_id !== null) return refuse(404, "not_found", `${urnOfPost} does not exist`);
  return post;
}

/** GET /rest/socialActions/{urn}/comments: public, a page at a time. */
export async function listComments(c: Ctx, e: Emulated) {
  await e.caller();
  const post = await postOf(e, c.req.param("urn") ?? "");
  const all = await commentsOf(e, post);
  const start = Math.max(0, Number(c.req.query("start") ?? 0) || 0);
  const count = Math.min(100, Math.max(1, Number(c.req.query("count") ?? 10) || 10));
  return c.json(collection(all.slice(start, start + count), start, all.length));
}

/** POST /rest/socialActions/{urn}/comments: as the member or an organization it administers. */
export async function createComment(c: Ctx, e: Emulated) {
  const caller: Caller = await e.caller();
  const postUrn = c.req.param("urn") ?? "";
  const body = await e.json(newComment);
  if (body.object !== postUrn) {
    return refuse(400, "invalid_request", "/object :: must be the URN the comment is posted under", {
      code: "ILLEGAL_ARGUMENT",
    });
  }
  const actor = await authorAs(caller, body.actor, "actor");
  const post = await postOf(e, postUrn);
  if ([...body.message.text].length > COMMENT_MAX) {
    return inputError("message/text", `a comment has at most ${COMMENT_MAX} characters`);
  }
  const outcome = await e.attempt(actor.handle, `comment:${postUrn}:${body.message.text}`, body.message.text);
  const id = freshDigits();
  const stored = await e.publish({
    id,
    handle: actor.handle,
    parentId: post.id,
    items: [{ text: body.message.text, media: [] }],
    platformRequest: body,
  });
  if (outcome === "lost") return lostAnswer(201);
  const view = commentView(post.id, stored.id, actor.urn, body.message.text, stored.publishedAt);
  return c.json(view, 201, { "x-restli-id": view.commentUrn });
}

export { personUrn };
