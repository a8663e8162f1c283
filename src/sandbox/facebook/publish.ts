// The emulator's publishing endpoints (developers.facebook.com › Pages API › Posts; Video API ›
// Publishing; Graph API › Object › Comments): a Page's feed post, photo and video, the Page's comment
// under a post, and the listings `find` reads (the Page's posts with their attachments, its reels).
// Publishing takes the Page's own token; each attempt passes through the sandbox's failure triggers.

import { type Caller, type Emulated, type LedgerPost, lostAnswer, refuse, SandboxRefusal } from "../emulator";
import { setCommentState } from "../meta-comments";
import { pageOf } from "./channels";
import { requireEngagement } from "./comments";
import { pageThrottled, ThrottledPage, unsupported } from "./errors";
import { commentNamed } from "./read";
import { fetchable, fieldNames, freshId, graphTime, isVideoId, paged, pick, postNamed } from "./rules";
import { callerOf, type GraphCall, paramsOf } from "./token";

/**
 * The Page the call publishes as: only with that Page's own token. A user token of the Page's admin is
 * refused as the Pages API refuses it (#200: a Page token is needed to post as the Page).
 */
async function publishingPage(e: Emulated, caller: Caller, pageId: string): Promise<string> {
  const page = await pageOf(e, caller, pageId);
  if (!page) return unsupported("post", pageId);
  if (!page.asPage)
    return refuse(
      403,
      "forbidden",
      "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission, with a Page access token",
      { code: 200 },
    );
  return page.handle;
}

/** A publishing call on `/{page-id}/…`: its parameters, the caller, and the Page's handle it may post as. */
export async function publishingCall(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  const caller = await callerOf(e, params);
  const pageId = call.params.node!;
  return { e, params, caller, pageId, handle: await publishingPage(e, caller, pageId) };
}

/** One publishing attempt (the failure triggers), a throttled one answered with the Page's usage headers. */
export async function attempt(e: Emulated, handle: string, pageId: string, key: string, text: string) {
  try {
    return await e.attempt(handle, key, text);
  } catch (error) {
    if (error instanceof SandboxRefusal && error.problem.reason === "rate_limited")
      throw new ThrottledPage(
        pageThrottled(pageId, error.problem.retryAfterSeconds ?? 60, error.problem.message),
      );
    throw error;
  }
}

export const media = (url: string | null | undefined, type: string) => (url ? [{ url, type }] : []);

/** The object (photo, video, story) the Page has made, answered as the edge answers. */
type Published = { id: string; url: string; publishedAt: number };

/** Publishes a post for the Page; on a lost attempt the post exists but the answer never arrives. */
export async function publishAs(
  e: Emulated,
  decision: "publish" | "lost",
  post: Parameters<Emulated["publish"]>[0],
  answer: (published: Published) => object,
): Promise<Response> {
  const published = await e.publish(post);
  if (decision === "lost") return lostAnswer();
  return Response.json(answer(published));
}

/** The form fields as the platform received them (JSON-valued ones parsed, the token's proof left out). */
export function received(params: URLSearchParams): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of params) {
    if (name === "appsecret_proof" || name === "access_token") continue;
    body[name] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return body;
}

export function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

// ---------------------------------------------------------------------------------------------------
// Publishing

/** POST /{page-id}/feed: a text or link post, or the photos of `attached_media` (Pages API › Posts). */
export async function feed(call: GraphCall) {
  const { e, params, pageId, handle } = await publishingCall(call);
  const message = params.get("message") ?? "";
  const link = params.get("link");
  if (link !== null) fetchable("link", link);
  const attached = safeJson(params.get("attached_media") ?? "[]");
  if (!Array.isArray(attached))
    return refuse(400, "invalid_request", "(#100) param attached_media must be an array.", { code: 100 });
  const photos = [];
  for (const entry of attached) {
    const fbid =
      typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>).media_fbid : null;
    const photo = typeof fbid === "string" ? await e.object(fbid) : null;
    if (photo?.kind !== "photo" || photo.handle !== handle)
      return refuse(400, "invalid_request", `(#100) Invalid media_fbid: ${String(fbid)}`, { code: 100 });
    if (photo.data.post_id)
      return refuse(400, "invalid_request", "(#100) The photo has already been published.", { code: 100 });
    photos.push(photo);
  }
  if (!message.trim() && link === null && photos.length === 0)
    return refuse(400, "invalid_request", "(#100) Missing message or attachment.", { code: 100 });
  const decision = await attempt(e, handle, pageId, `feed:${message}`, message);
  const id = `${pageId}_${freshId(e.now())}`;
  // `postId`: the sandbox's post page of a photo's id shows the post that published it.
  for (const photo of photos) await e.updateObject(photo.id, { post_id: id, postId: id });
  return publishAs(
    e,
    decision,
    {
      handle,
      id,
      items: [{ text: message, media: photos.map((p) => ({ url: String(p.data.url), type: "image/*" })) }],
      platformRequest: received(params),
    },
    (published) => ({ id: published.id }),
  );
}

/**
 * POST /{page-id}/photos by `url` (Pages API › Posts › Publish a Photo): published, it makes a post and
 * answers both ids; with published=false it is an upload for a later `attached_media` or story.
 */
export async function photos(call: GraphCall) {
  const { e, params, pageId, handle } = await publishingCall(call);
  if (!params.get("url")) return refuse(400, "invalid_request", "(#324) Requires upload file", { code: 324 });
  const url = fetchable("url", params.get("url"));
  const message = params.get("message") ?? params.get("caption") ?? "";
  const published = params.get("published") !== "false";
  if (!published) {
    const photo = await e.createObject({
      id: freshId(e.now()),
      handle,
      kind: "photo",
      data: { url, request: received(params) },
    });
    return Response.json({ id: photo.id });
  }
  const decision = await attempt(e, handle, pageId, `photo:${message}`, message);
  const photo = await e.createObject({ id: freshId(e.now()), handle, kind: "photo", data: { url } });
  const postId = `${pageId}_${photo.id}`;
  await e.updateObject(photo.id, { post_id: postId, postId });
  return publishAs(
    e,
    decision,
    {
      handle,
      id: postId,
      items: [{ text: message, media: media(url, "image/*") }],
      platformRequest: received(params),
    },
    (post) => ({ id: photo.id, post_id: post.id }),
  );
}

/**
 * POST /{page-id}/videos on graph.facebook.com (Video API › Publishing; the graph-video host is
 * deprecated): the video is pulled from `file_url` and published; the answer is the video's id.
 */
export async function videos(call: GraphCall) {
  const { e, params, pageId, handle } = await publishingCall(call);
  const url = params.get("file_url");
  if (!url && !params.get("fbuploader_video_file_chunk"))
    return refuse(
      400,
      "invalid_request",
      "(#100) Requires one of the params: file_url, fbuploader_video_file_chunk",
      {
        code: 100,
      },
    );
  if (url) fetchable("file_url", url);
  const description = params.get("description") ?? "";
  const decision = await attempt(e, handle, pageId, `video:${description}`, description);
  const video = await e.createObject({
    id: freshId(e.now()),
    handle,
    kind: "video",
    data: { url, type: "video" },
    readyAt: e.readyAt(description, 5_000),
  });
  return publishAs(
    e,
    decision,
    {
      handle,
      id: video.id,
      items: [{ text: description, media: media(url, "video/*") }],
      platformRequest: received(params),
    },
    (post) => ({ id: post.id }),
  );
}

/**
 * POST /{object-id}/comments (Graph API › Object › Comments › Publishing): the Page comments under a post
 * with its Page token; `message` or `attachment_url`.
 */
export async function comment(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  const caller = await callerOf(e, params);
  requireEngagement(caller);
  const id = call.params.node!;
  const pageId = await e.platformId(caller.handle);
  // Under a post, or under one of its comments (Comment › Comments: a reply); a reply to a reply joins
  // the comment that reply answers, as Facebook keeps two levels.
  const target = await postNamed(e, id);
  const named = target ? null : await commentNamed(e, pageId, id);
  const post = target ?? named?.post;
  if (!post || post.parent_id !== null) return unsupported("post", id);
  const answers = named ? (named.comment.parent?.id ?? named.comment.id) : null;
  const message = params.get("message") ?? "";
  const attachment = params.get("attachment_url");
  if (attachment !== null) fetchable("attachment_url", attachment);
  if (!message.trim() && attachment === null)
    return refuse(400, "invalid_request", "(#100) Missing message or attachment.", { code: 100 });
  const decision = await attempt(
    e,
    caller.handle,
    pageId,
    `comment:${named ? id : post.id}:${message}`,
    message,
  );
  const postPart = post.id.includes("_") ? post.id.split("_")[1]! : post.id;
  const replyId = `${postPart}_${freshId(e.now())}`;
  if (answers) await setCommentState(e, post.handle, replyId, { parent: answers });
  return publishAs(
    e,
    decision,
    {
      handle: caller.handle,
      id: replyId,
      parentId: post.id,
      items: [{ text: message, media: media(attachment, "image/*") }],
      platformRequest: received(params),
    },
    (published) => ({ id: published.id }),
  );
}

// ---------------------------------------------------------------------------------------------------
// The listings `find` reads

/** The Page's own Graph id of a ledger post, as /posts and the post's fields name it. */
const graphIdOf = (pageId: string, post: LedgerPost) =>
  isVideoId(post.id) ? `${pageId}_${post.id}` : post.id;

/**
 * A post's `attachments` edge as Graph API › Story Attachment shapes it (and Story Attachment
 * Subattachments, developers.facebook.com/docs/graph-api/reference/story-attachment/): one photo is one
 * attachment (`media_type` photo) whose `target` is the photo; several photos are one album attachment
 * whose `subattachments` each target one photo, in the order they were attached. A post without photos
 * has none (the field is left out).
 */
function attachmentsOf(e: Emulated, photoIds: string[]) {
  const photo = (id: string) => ({
    media_type: "photo",
    type: "photo",
    target: { id, url: e.postUrl(id) },
  });
  if (photoIds.length === 0) return undefined;
  if (photoIds.length === 1) return { data: [photo(photoIds[0]!)] };
  return { data: [{ media_type: "album", type: "album", subattachments: { data: photoIds.map(photo) } }] };
}

/** GET /{page-id}/posts | published_posts: the Page's feed, newest first (Pages API › Posts; Page › Feed). */
export async function pagePosts(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  const caller = await callerOf(e, params);
  const pageId = call.params.node!;
  const page = await pageOf(e, caller, pageId);
  if (!page) return unsupported("get", pageId);
  const names = fieldNames(params.get("fields") ?? "id,message,created_time");
  // The Page's photos by the post that published them, read only when `attachments` is asked for.
  const photosOf = new Map<string, string[]>();
  if (names.includes("attachments")) {
    for (const photo of await e.objects(page.handle, "photo")) {
      const postId = photo.data.post_id;
      if (typeof postId === "string") photosOf.set(postId, [...(photosOf.get(postId) ?? []), photo.id]);
    }
  }
  const posts = [];
  for (const post of (await e.posts(page.handle)).reverse()) {
    const object = isVideoId(post.id) ? await e.object(post.id) : null;
    if (object?.kind === "reel") continue;
    const id = graphIdOf(pageId, post);
    posts.push(
      pick(
        {
          id,
          message: post.text[0] || undefined,
          created_time: graphTime(Date.parse(post.published_at)),
          permalink_url: e.postUrl(post.id),
          attachments: attachmentsOf(e, photosOf.get(post.id) ?? []),
        },
        names,
      ),
    );
  }
  return Response.json(paged(posts, params, call.req.url));
}

/** GET /{page-id}/video_reels: the Page's reels, newest first (Reels Publishing API). */
export async function pageReels(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  const caller = await callerOf(e, params);
  const pageId = call.params.node!;
  const page = await pageOf(e, caller, pageId);
  if (!page) return unsupported("get", pageId);
  const names = fieldNames(params.get("fields") ?? "id,description,updated_time");
  const reelsList = [];
  for (const reel of (await e.objects(page.handle, "reel")).reverse()) {
    if (!reel.data.finished) continue;
    reelsList.push(
      pick(
        {
          id: reel.id,
          description: (reel.data.description as string) || undefined,
          updated_time: graphTime(reel.createdAt),
          permalink_url: e.postUrl(reel.id),
        },
        names,
      ),
    );
  }
  return Response.json(paged(reelsList, params, call.req.url));
}
