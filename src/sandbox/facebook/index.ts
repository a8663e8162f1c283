// The emulator of the Facebook Graph API as a Page publisher uses it (SANDBOX=true): the real adapter
// (src/platforms/facebook/) runs against these routes with every host at /sandbox/facebook. Each route
// follows the page of developers.facebook.com that docs/platforms.md names (Facebook › The emulator):
// the code exchange and the long-lived token exchange, /me and /me/accounts (the user's Pages, each with
// its Page token), a Page's feed, photos, videos, reels and stories, the Page's posts and reels, a post's
// fields, insights and comments, a comment by the Page, DELETE /me/permissions. Publishing as a Page takes
// that Page's token; insights only go to the Page (or its owner); comments are public.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { readCapped } from "../../lib/capped-body";
import { timingSafeEqualText } from "../../lib/crypto";
import { appSecretProof } from "../../platforms/meta";
import { digits } from "../../platforms/sandbox/ids";
import { POST_BODY_MAX_BYTES } from "../body";
import {
  type Caller,
  type Emulated,
  emulate,
  emulatorRouter,
  type LedgerPost,
  lostAnswer,
  refuse,
  SandboxRefusal,
} from "../emulator";
import { redeemCode, revokedSince } from "../grants";
import { grantLedger } from "../token-routes";
import { facebookError, graphError, pageThrottled } from "./errors";
import { fieldNames, graphTime, ownerOf, paged, pageName, pick } from "./graph";

type Ctx = Context<BareEnv>;

const V = "/:version{v\\d+\\.\\d+}";
/** A long-lived user token lives about 60 days (Facebook Login › Access Tokens › Long-Lived). */
const LONG_LIVED_SECONDS = 60 * 86_400;
/** What a Page grants the user who manages it fully (Page › tasks). */
const PAGE_TASKS = ["ADVERTISE", "ANALYZE", "CREATE_CONTENT", "MESSAGING", "MODERATE", "MANAGE"];
const REACTION_TYPES = ["like", "love", "wow", "haha", "sorry", "anger"] as const;

// ---------------------------------------------------------------------------------------------------
// Parameters, callers and nodes

/** The call's parameters: the query string and a form body, as the Graph API reads either. */
async function paramsOf(c: Ctx): Promise<URLSearchParams> {
  const params = new URLSearchParams(new URL(c.req.url).search);
  const type = (c.req.header("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
  if (c.req.method !== "GET" && type === "application/x-www-form-urlencoded") {
    const bytes = await readCapped(c.req.raw, POST_BODY_MAX_BYTES);
    if (bytes === "too_large") return refuse(413, "too_large", "(#1) The request body is too large.");
    let text = "";
    try {
      text = bytes ? new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes) : "";
    } catch {
      return refuse(400, "invalid_request", "(#100) The request body is not readable UTF-8 text.");
    }
    for (const [name, value] of new URLSearchParams(text)) params.set(name, value);
  }
  return params;
}

/**
 * Who the call acts for: a valid token (the bearer header or `access_token`), whose appsecret_proof,
 * when sent, is the HMAC of that token with the app's secret (Graph API › Securing Requests). A Page token
 * stops working when the Page's owner removed the app, as Facebook invalidates the tokens derived from it.
 */
async function callerOf(e: Emulated, params: URLSearchParams, token?: string): Promise<Caller> {
  const caller = await e.caller(token ?? params.get("access_token"));
  const owner = ownerOf(caller.handle);
  if (owner && revokedSince(caller.issuedAt, await e.store.revokedAt(owner)))
    return refuse(400, "revoked_token", "The user has revoked the application's access.");
  const proof = params.get("appsecret_proof");
  if (
    proof !== null &&
    !timingSafeEqualText(proof, await appSecretProof(e.client.clientSecret, caller.token))
  )
    return refuse(400, "invalid_request", "Invalid appsecret_proof provided in the API argument", {
      code: 100,
    });
  return caller;
}

/** What a node id names for this caller: its own Page (a Page token), or a Page it manages (a user token). */
async function pageOf(e: Emulated, caller: Caller, pageId: string) {
  if ((await e.platformId(caller.handle)) === pageId) return { handle: caller.handle, asPage: true };
  const managed = (await e.channels(caller.handle)).find((channel) => channel.id === pageId);
  return managed ? { handle: managed.handle, asPage: false } : null;
}

const unsupported = (method: string, id: string): never =>
  refuse(
    400,
    "not_found",
    `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
  );

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
async function publishingCall(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  const caller = await callerOf(e, params);
  const pageId = c.req.param("node")!;
  return { e, params, caller, pageId, handle: await publishingPage(e, caller, pageId) };
}

/** Whether the caller is the post's Page, or the user who manages it. */
async function owns(e: Emulated, caller: Caller, handle: string) {
  if (caller.handle === handle) return true;
  return (await e.channels(caller.handle)).some((channel) => channel.handle === handle);
}

/** The ledger post a Graph id names: a post `<page>_<post>`, a video or reel, or a video's feed post. */
async function postNamed(e: Emulated, id: string): Promise<LedgerPost | null> {
  if (!/^\d+(_\d+)?$/.test(id)) return null;
  const direct = await e.post(id);
  if (direct) return direct;
  const video = /^\d+_(\d+)$/.exec(id)?.[1];
  return video ? e.post(video) : null;
}

/** The post's Graph id: videos and reels are bare video ids; the rest `<page id>_<post id>`. */
const isVideoId = (id: string) => /^\d+$/.test(id);

/** One publishing attempt (the failure triggers), a throttled one answered with the Page's usage headers. */
async function attempt(e: Emulated, handle: string, pageId: string, key: string, text: string) {
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

class ThrottledPage extends Error {
  constructor(readonly response: Response) {
    super("throttled");
  }
}

const media = (url: string | null | undefined, type: string) => (url ? [{ url, type }] : []);

/** An http(s) URL Facebook could fetch, else the Graph API's refusal. */
function fetchable(name: string, value: string | null): string {
  if (!value || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    return refuse(400, "invalid_request", `(#100) ${name} should represent a valid URL`, { code: 100 });
  return value;
}

const freshId = (length = 16) => digits(crypto.getRandomValues(new Uint8Array(16)), length);

/** The object (photo, video, story) the Page has made, answered as the edge answers. */
type Published = { id: string; url: string; publishedAt: number };

/** Publishes a post for the Page; on a lost attempt the post exists but the answer never arrives. */
async function publishAs(
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
function received(params: URLSearchParams): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of params) {
    if (name === "appsecret_proof" || name === "access_token") continue;
    body[name] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return body;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

// ---------------------------------------------------------------------------------------------------
// OAuth

/**
 * GET or POST /oauth/access_token: the code exchange (Manually Build a Login Flow › Exchanging Code for an
 * Access Token) and grant_type=fb_exchange_token (Access Tokens › Long-Lived): both authenticate the app
 * by client_id and client_secret.
 */
async function accessToken(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  if (params.get("client_id") !== e.client.clientId)
    return graphError({
      status: 400,
      message: "Error validating application. Invalid application ID.",
      type: "OAuthException",
      code: 101,
    });
  if (!timingSafeEqualText(params.get("client_secret") ?? "", e.client.clientSecret))
    return graphError({
      status: 400,
      message: "Error validating client secret.",
      type: "OAuthException",
      code: 1,
    });
  const grant = params.get("grant_type");
  if (grant === "fb_exchange_token") {
    const presented = params.get("fb_exchange_token");
    if (!presented)
      return refuse(400, "invalid_request", "(#100) The parameter fb_exchange_token is required", {
        code: 100,
      });
    const caller = await callerOf(e, new URLSearchParams(), presented);
    // Exchanging a long-lived token again extends it: the sandbox counts that as a refresh.
    if (caller.longLived) await e.bump(caller.handle, "token_refreshes");
    const issued = await e.issueToken(caller.handle, LONG_LIVED_SECONDS, { longLived: true });
    return c.json({ access_token: issued.token, token_type: "bearer", expires_in: issued.expiresIn });
  }
  if (grant !== null && grant !== "authorization_code")
    return refuse(400, "invalid_request", `(#100) Unsupported grant_type: ${grant}`, { code: 100 });
  if (!params.get("code"))
    return refuse(400, "invalid_request", "(#100) The parameter code is required", { code: 100 });
  const result = await redeemCode(
    c.env,
    "facebook",
    e.client.clientId,
    params,
    grantLedger(c.env, "facebook"),
  );
  if (result.ok) return c.json(result.body);
  const used = /already been used/.test(result.description);
  return graphError({
    status: 400,
    message: used
      ? "This authorization code has been used."
      : /redirect_uri/.test(result.description)
        ? "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request"
        : `Invalid verification code format. ${result.description}`,
    type: "OAuthException",
    code: 100,
    subcode: used ? 36009 : 36008,
  });
}

/** GET /me: the token's user (or Page): `id` and `name` (Graph API › User, Page). */
async function me(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  const caller = await callerOf(e, params);
  const names = fieldNames(params.get("fields") ?? "id,name");
  return c.json(
    pick(
      { id: caller.platformId, name: ownerOf(caller.handle) ? pageName(caller.handle) : caller.handle },
      names,
    ),
  );
}

/** GET /me/accounts: the Pages the user manages, each with its Page token (Pages API › Get Started). */
async function accounts(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  const caller = await callerOf(e, params);
  const names = fieldNames(params.get("fields") ?? "id,name,access_token,category,tasks");
  const pages = (await e.channels(caller.handle)).map((channel) =>
    pick(
      {
        id: channel.id,
        name: channel.name,
        username: channel.handle,
        access_token: channel.accessToken,
        category: "Brand",
        category_list: [{ id: "1605186416478696", name: "Brand" }],
        tasks: PAGE_TASKS,
      },
      names,
    ),
  );
  return c.json(paged(pages, params, c.req.url));
}

/** DELETE /me/permissions: the user removes the app; every token of the grant stops working. */
async function revokePermissions(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  const caller = await callerOf(e, params);
  if (ownerOf(caller.handle))
    return refuse(
      400,
      "invalid_request",
      "(#100) Tried accessing nonexisting field (permissions) on node type (Page)",
      {
        code: 100,
      },
    );
  await e.store.revoke(caller.handle);
  return c.json({ success: true });
}

// ---------------------------------------------------------------------------------------------------
// Publishing

/** POST /{page-id}/feed: a text or link post, or the photos of `attached_media` (Pages API › Posts). */
async function feed(c: Ctx) {
  const { e, params, pageId, handle } = await publishingCall(c);
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
  const id = `${pageId}_${freshId()}`;
  for (const photo of photos) await e.updateObject(photo.id, { post_id: id });
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
async function photos(c: Ctx) {
  const { e, params, pageId, handle } = await publishingCall(c);
  if (!params.get("url")) return refuse(400, "invalid_request", "(#324) Requires upload file", { code: 324 });
  const url = fetchable("url", params.get("url"));
  const message = params.get("message") ?? params.get("caption") ?? "";
  const published = params.get("published") !== "false";
  if (!published) {
    const photo = await e.createObject({
      id: freshId(),
      handle,
      kind: "photo",
      data: { url, request: received(params) },
    });
    return c.json({ id: photo.id });
  }
  const decision = await attempt(e, handle, pageId, `photo:${message}`, message);
  const photo = await e.createObject({ id: freshId(), handle, kind: "photo", data: { url } });
  const postId = `${pageId}_${photo.id}`;
  await e.updateObject(photo.id, { post_id: postId });
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
async function videos(c: Ctx) {
  const { e, params, pageId, handle } = await publishingCall(c);
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
    id: freshId(),
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

/** The upload session a reel or a video story starts (Reels Publishing API; Stories API), on the upload host. */
async function startSession(
  e: Emulated,
  handle: string,
  kind: "reel" | "video_story",
  params: URLSearchParams,
) {
  const session = await e.createObject({ id: freshId(), handle, kind, data: { start: received(params) } });
  return {
    video_id: session.id,
    upload_url: `${e.base}/video-upload/v25.0/${session.id}`,
  };
}

/** A session the Page finishes: its own, with its file uploaded, not yet finished. */
async function sessionToFinish(e: Emulated, handle: string, kind: string, videoId: string | null) {
  const session = videoId ? await e.object(videoId) : null;
  if (!session || session.kind !== kind || session.handle !== handle)
    return refuse(400, "invalid_request", `(#100) Invalid video_id: ${videoId ?? ""}`, { code: 100 });
  if (!session.data.file_url)
    return refuse(400, "not_ready", "The video file has not been uploaded to the session yet.", {
      code: 6000,
    });
  if (session.data.finished)
    return refuse(400, "invalid_request", "(#100) The video has already been published.", { code: 100 });
  return session;
}

/** POST /{page-id}/video_reels, upload_phase start | finish (Video API › Reels Publishing API). */
async function reels(c: Ctx) {
  const { e, params, pageId, handle } = await publishingCall(c);
  const phase = params.get("upload_phase");
  if (phase === "start") return c.json(await startSession(e, handle, "reel", params));
  if (phase !== "finish")
    return refuse(400, "invalid_request", "(#100) upload_phase must be one of {start, finish}", {
      code: 100,
    });
  const session = await sessionToFinish(e, handle, "reel", params.get("video_id"));
  const description = params.get("description") ?? "";
  const state = params.get("video_state") ?? "DRAFT";
  if (state !== "PUBLISHED") return c.json({ success: true });
  const decision = await attempt(e, handle, pageId, `reel:${description}`, description);
  await e.updateObject(session.id, { finished: true, description }, e.readyAt(description, 5_000));
  return publishAs(
    e,
    decision,
    {
      handle,
      id: session.id,
      items: [{ text: description, media: media(String(session.data.file_url), "video/*") }],
      platformRequest: [session.data.start, received(params)],
    },
    () => ({ success: true }),
  );
}

/** POST {upload host}/video-upload/{version}/{video-id}: the hosted file (`file_url` header), `Authorization: OAuth`. */
async function hostedUpload(c: Ctx) {
  const e = emulate(c, "facebook");
  const authorization = c.req.header("authorization") ?? "";
  const token = /^OAuth\s+(\S+)$/i.exec(authorization)?.[1];
  if (!token)
    return refuse(400, "invalid_token", "The upload needs an `Authorization: OAuth <token>` header.");
  const caller = await callerOf(e, new URLSearchParams(), token);
  const session = await e.object(c.req.param("id")!);
  if (!session || !["reel", "video_story"].includes(session.kind) || session.handle !== caller.handle)
    return unsupported("post", c.req.param("id")!);
  const fileUrl = fetchable("file_url", c.req.header("file_url") ?? null);
  await e.updateObject(session.id, { file_url: fileUrl });
  return c.json({ success: true });
}

/** POST /{page-id}/photo_stories with an unpublished photo (Facebook Stories API › Photo Stories). */
async function photoStories(c: Ctx) {
  const { e, params, pageId, handle } = await publishingCall(c);
  const photoId = params.get("photo_id");
  const photo = photoId ? await e.object(photoId) : null;
  if (photo?.kind !== "photo" || photo.handle !== handle || photo.data.post_id)
    return refuse(400, "invalid_request", `(#100) Invalid photo_id: ${photoId ?? ""}`, { code: 100 });
  const decision = await attempt(e, handle, pageId, `story:${photo.id}`, "");
  const postId = `${pageId}_${freshId()}`;
  await e.updateObject(photo.id, { post_id: postId });
  return publishAs(
    e,
    decision,
    {
      handle,
      id: postId,
      items: [{ text: "", media: media(String(photo.data.url), "image/*") }],
      platformRequest: [photo.data.request, received(params)],
      visible: false,
    },
    (post) => ({ success: true, post_id: post.id }),
  );
}

/** POST /{page-id}/video_stories, upload_phase start | finish (Facebook Stories API › Video Stories). */
async function videoStories(c: Ctx) {
  const { e, params, pageId, handle } = await publishingCall(c);
  const phase = params.get("upload_phase");
  if (phase === "start") return c.json(await startSession(e, handle, "video_story", params));
  if (phase !== "finish")
    return refuse(400, "invalid_request", "(#100) upload_phase must be one of {start, finish}", {
      code: 100,
    });
  const session = await sessionToFinish(e, handle, "video_story", params.get("video_id"));
  const decision = await attempt(e, handle, pageId, `story:${session.id}`, "");
  await e.updateObject(session.id, { finished: true });
  return publishAs(
    e,
    decision,
    {
      handle,
      id: `${pageId}_${freshId()}`,
      items: [{ text: "", media: media(String(session.data.file_url), "video/*") }],
      platformRequest: [session.data.start, received(params)],
      visible: false,
    },
    (post) => ({ success: true, post_id: post.id }),
  );
}

// ---------------------------------------------------------------------------------------------------
// Reading

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
async function pagePosts(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  const caller = await callerOf(e, params);
  const pageId = c.req.param("node")!;
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
  return c.json(paged(posts, params, c.req.url));
}

/** GET /{page-id}/video_reels: the Page's reels, newest first (Reels Publishing API). */
async function pageReels(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  const caller = await callerOf(e, params);
  const pageId = c.req.param("node")!;
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
  return c.json(paged(reelsList, params, c.req.url));
}

/** A published post the caller may read the insights of (its Page or the Page's owner), else refused. */
async function ownPost(e: Emulated, caller: Caller, id: string) {
  const post = await postNamed(e, id);
  if (!post || post.parent_id !== null) return unsupported("get", id);
  if (!(await owns(e, caller, post.handle)))
    return refuse(403, "forbidden", "(#10) Requires pages_read_engagement permission to manage the object", {
      code: 10,
    });
  return post;
}

/** The comments of a post as the comments edge lists them: the public's, then the Page's own, by time. */
async function commentsOf(e: Emulated, post: LedgerPost) {
  const postPart = post.id.includes("_") ? post.id.split("_")[1]! : post.id;
  const pageId = await e.platformId(post.handle);
  const generated = await Promise.all(
    ((await e.comments(post.id)) ?? []).map(async (comment) => ({
      id: `${postPart}_${comment.id}`,
      message: comment.text,
      created_at: comment.created_at,
      from: { id: await e.platformId(`commenter:${comment.author.username}`), name: comment.author.name },
    })),
  );
  const ours = (await e.replies(post.id)).map((reply) => ({
    id: reply.id,
    message: reply.text.join("\n"),
    created_at: Date.parse(reply.published_at),
    from: { id: pageId, name: pageName(post.handle) },
  }));
  return [...generated, ...ours].sort((a, b) => a.created_at - b.created_at || a.id.localeCompare(b.id));
}

/** GET /{object-id}?fields=…: a post, video, reel or comment (Graph API › Page Post, Video, Comment). */
async function node(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  await callerOf(e, params);
  const id = c.req.param("node")!;
  const names = fieldNames(params.get("fields") ?? "id,created_time");
  const post = await postNamed(e, id);
  if (!post) return unsupported("get", id);
  if (post.parent_id !== null) {
    const parent = await e.post(post.parent_id);
    return c.json(
      pick(
        {
          id,
          message: post.text.join("\n"),
          created_time: graphTime(Date.parse(post.published_at)),
          permalink_url: `${e.postUrl(post.parent_id)}?comment_id=${encodeURIComponent(id)}`,
          from: parent ? { id: await e.platformId(parent.handle), name: pageName(parent.handle) } : undefined,
        },
        names,
      ),
    );
  }
  const isVideo = isVideoId(id);
  if (isVideo && names.includes("shares"))
    return refuse(
      400,
      "invalid_request",
      "(#100) Tried accessing nonexisting field (shares) on node type (Video)",
      {
        code: 100,
      },
    );
  const metrics = await e.metrics(post.id);
  const comments = await commentsOf(e, post);
  const answer: Record<string, unknown> = {
    id,
    created_time: graphTime(Date.parse(post.published_at)),
    permalink_url: e.postUrl(post.id),
    [isVideo ? "description" : "message"]: post.text[0] || undefined,
    reactions: { data: [], summary: { total_count: metrics?.likes ?? 0, viewer_reaction: "NONE" } },
    likes: { data: [], summary: { total_count: metrics?.likes ?? 0, can_like: true, has_liked: false } },
    comments: {
      data: [],
      summary: { order: "ranked", total_count: comments.length, can_comment: true },
    },
  };
  if (!isVideo) answer.shares = { count: metrics?.shares ?? 0 };
  return c.json(pick(answer, names));
}

/** The likes split over reaction types, summing to the likes (post_reactions_by_type_total). */
function reactionsByType(likes: number) {
  const split: Record<string, number> = {};
  let left = likes;
  for (const [index, type] of REACTION_TYPES.entries()) {
    const share = index === REACTION_TYPES.length - 1 ? left : Math.floor(left * 0.6);
    split[type] = share;
    left -= share;
  }
  return split;
}

const metricEntry = (id: string, name: string, value: unknown, title: string) => ({
  name,
  period: "lifetime",
  values: [{ value }],
  title,
  description: title,
  id: `${id}/insights/${name}/lifetime`,
});

/**
 * GET /{post-id}/insights?metric=… (Page Insights › Page Post metrics): the views metrics that replaced
 * impressions on November 15, 2025; a retired or unknown metric is Facebook's invalid-metric error.
 */
async function postInsights(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  const caller = await callerOf(e, params);
  const id = c.req.param("node")!;
  if (isVideoId(id)) return unsupported("get", `${id}/insights`);
  const post = await ownPost(e, caller, id);
  const metrics = (await e.metrics(post.id))!;
  const values: Record<string, [unknown, string]> = {
    post_media_view: [metrics.impressions, "Lifetime Post Views"],
    post_total_media_view_unique: [Math.floor(metrics.impressions * 0.8), "Lifetime Post Viewers"],
    post_reactions_by_type_total: [reactionsByType(metrics.likes), "Lifetime Total post Reactions by Type."],
    post_reactions_like_total: [
      reactionsByType(metrics.likes).like,
      'Lifetime Total "like" Reactions of a post.',
    ],
    post_clicks: [metrics.saves + metrics.shares, "Lifetime Post Clicks"],
  };
  const requested = (params.get("metric") ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  if (requested.length === 0)
    return graphError({
      status: 400,
      message:
        "No metric was specified to be fetched. Please specify one or more metrics to be fetched and try again.",
      type: "OAuthException",
      code: 3001,
      subcode: 1504028,
    });
  const unknown = requested.find((metric) => !(metric in values));
  if (unknown)
    return refuse(400, "invalid_request", "(#100) The value must be a valid insights metric", { code: 100 });
  const period = params.get("period");
  if (period !== null && period !== "lifetime")
    return refuse(400, "invalid_request", `(#100) The period ${period} is not supported for these metrics`, {
      code: 100,
    });
  return c.json({
    data: requested.map((metric) => metricEntry(id, metric, values[metric]![0], values[metric]![1])),
    paging: {},
  });
}

/** GET /{video-id}/video_insights?metric=… (Video API › Insights): total_video_views and its kin. */
async function videoInsights(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  const caller = await callerOf(e, params);
  const id = c.req.param("node")!;
  if (!isVideoId(id)) return unsupported("get", `${id}/video_insights`);
  const post = await ownPost(e, caller, id);
  const metrics = (await e.metrics(post.id))!;
  const values: Record<string, number> = {
    total_video_views: metrics.impressions,
    total_video_views_unique: Math.floor(metrics.impressions * 0.8),
    total_video_impressions: metrics.impressions,
    total_video_reactions_by_type_total: metrics.likes,
    blue_reels_play_count: metrics.impressions,
  };
  const requested = (params.get("metric") ?? "total_video_views").split(",").map((m) => m.trim());
  if (requested.some((metric) => !(metric in values)))
    return refuse(400, "invalid_request", "(#100) The value must be a valid insights metric", { code: 100 });
  return c.json({
    data: requested.map((metric) => ({
      name: metric,
      period: "lifetime",
      values: [{ value: values[metric] }],
      id: `${id}/video_insights/${metric}/lifetime`,
    })),
  });
}

/** GET /{object-id}/comments (Graph API › Object › Comments): public; order, filter, limit, after. */
async function listComments(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  await callerOf(e, params);
  const id = c.req.param("node")!;
  const post = await postNamed(e, id);
  if (!post || post.parent_id !== null) return unsupported("get", id);
  const order = params.get("order") ?? "chronological";
  if (!["chronological", "reverse_chronological"].includes(order))
    return refuse(
      400,
      "invalid_request",
      "(#100) order must be one of {chronological, reverse_chronological}",
      {
        code: 100,
      },
    );
  const names = fieldNames(params.get("fields") ?? "id,message,created_time");
  const all = await commentsOf(e, post);
  if (order === "reverse_chronological") all.reverse();
  const data = all.map((comment) =>
    pick(
      {
        id: comment.id,
        message: comment.message,
        created_time: graphTime(comment.created_at),
        from: comment.from,
        permalink_url: `${e.postUrl(post.id)}?comment_id=${encodeURIComponent(comment.id)}`,
      },
      names,
    ),
  );
  return c.json({
    ...paged(data, params, c.req.url),
    summary: { order, total_count: all.length, can_comment: true },
  });
}

/**
 * POST /{object-id}/comments (Graph API › Object › Comments › Publishing): the Page comments under a post
 * with its Page token; `message` or `attachment_url`.
 */
async function comment(c: Ctx) {
  const e = emulate(c, "facebook");
  const params = await paramsOf(c);
  const caller = await callerOf(e, params);
  const id = c.req.param("node")!;
  const post = await postNamed(e, id);
  if (!post || post.parent_id !== null) return unsupported("post", id);
  const message = params.get("message") ?? "";
  const attachment = params.get("attachment_url");
  if (attachment !== null) fetchable("attachment_url", attachment);
  if (!message.trim() && attachment === null)
    return refuse(400, "invalid_request", "(#100) Missing message or attachment.", { code: 100 });
  const pageId = await e.platformId(caller.handle);
  const decision = await attempt(e, caller.handle, pageId, `comment:${post.id}:${message}`, message);
  const postPart = post.id.includes("_") ? post.id.split("_")[1]! : post.id;
  return publishAs(
    e,
    decision,
    {
      handle: caller.handle,
      id: `${postPart}_${freshId()}`,
      parentId: post.id,
      items: [{ text: message, media: media(attachment, "image/*") }],
      platformRequest: received(params),
    },
    (published) => ({ id: published.id }),
  );
}

/** A route whose throttled attempt answers with the Page's usage headers. */
const throttled =
  (handler: (c: Ctx) => Promise<Response>) =>
  async (c: Ctx): Promise<Response> => {
    try {
      return await handler(c);
    } catch (error) {
      if (error instanceof ThrottledPage) return error.response;
      throw error;
    }
  };

export const facebookEmulator = emulatorRouter(facebookError);

facebookEmulator
  .get(`${V}/oauth/access_token`, accessToken)
  .post(`${V}/oauth/access_token`, accessToken)
  .get(`${V}/me`, me)
  .get(`${V}/me/accounts`, accounts)
  .delete(`${V}/me/permissions`, revokePermissions)
  .post(`${V}/:node/feed`, throttled(feed))
  .post(`${V}/:node/photos`, throttled(photos))
  .post(`${V}/:node/videos`, throttled(videos))
  .post(`${V}/:node/video_reels`, throttled(reels))
  .get(`${V}/:node/video_reels`, pageReels)
  .post(`${V}/:node/photo_stories`, throttled(photoStories))
  .post(`${V}/:node/video_stories`, throttled(videoStories))
  .get(`${V}/:node/posts`, pagePosts)
  .get(`${V}/:node/published_posts`, pagePosts)
  .get(`${V}/:node/feed`, pagePosts)
  .get(`${V}/:node/insights`, postInsights)
  .get(`${V}/:node/video_insights`, videoInsights)
  .get(`${V}/:node/comments`, listComments)
  .post(`${V}/:node/comments`, throttled(comment))
  .get(`${V}/:node`, node)
  .post(`/video-upload${V}/:id`, hostedUpload);
