// TikTok's Open API v2 as the sandbox emulates it, following developers.tiktok.com (docs/platforms.md
// › TikTok › The emulator names each page): Login Kit's user info and token revocation, the Content
// Posting API (creator info, Direct Post of a video by FILE_UPLOAD or PULL_FROM_URL with TikTok's chunk
// rules, photo posts, the post status), and the Display API's video list and query. Every answer is
// `{data, error: {code, message, log_id}}`, errors included, with TikTok's error codes. The token and
// code exchange are the sandbox's generic token endpoint (TikTok's OAuth answer shape).
//
// A publish is an object of the ledger (kind "publish") until TikTok has the whole video (or has pulled
// the photos) and processed it: the post is stored then (`settle`), under the creator's handle, public
// only for PUBLIC_TO_EVERYONE. Moderation takes 90 s more (on the sandbox's clock): only then does the
// status name `publicaly_available_post_id`, and only for a PUBLIC_TO_EVERYONE post.
import type { Context } from "hono";
import { z } from "zod";
import type { BareEnv } from "../../http/env";
import { readCapped } from "../../lib/capped-body";
import { timingSafeEqualText } from "../../lib/crypto";
import { toHex } from "../../lib/encoding";
import { digits } from "../../platforms/sandbox/ids";
import { checkToken } from "../access";
import { isProblem, readForm } from "../body";
import {
  type Emulated,
  emulate,
  emulatorRouter,
  isReady,
  type LedgerObject,
  lostAnswer,
  type Problem,
  refuse,
} from "../emulator";
import { oauthError } from "../oauth-error";

type Ctx = Context<BareEnv>;

const MB = 1024 * 1024;
/** Media Transfer Guide: chunks of 5 to 64 MB, the last up to 128 MB, at most 1000; under 5 MB whole. */
const MIN_CHUNK = 5 * MB;
const MAX_CHUNK = 64 * MB;
const MAX_LAST_CHUNK = 128 * MB;
const MAX_CHUNKS = 1000;
const MAX_VIDEO = 4096 * MB;
/** What one PUT may carry here: the adapter's chunks are 16 MiB; bigger ones are refused, not held. */
const EMULATED_CHUNK_MAX = 32 * MB;
/**
 * Direct Post reference (the init's `upload_url`): valid for one hour after it is issued; a PUT after
 * that is refused. On the real clock (Date.now, so a test's fake clock moves it), not scaled by
 * SANDBOX_TIME_SCALE: a scaled hour would end before a chunk could be sent.
 */
const UPLOAD_URL_VALID_MS = 60 * 60_000;
/** Moderation: the public id appears this long after the post is complete. */
const MODERATION_SECONDS = 90;

const PRIVACY = ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"] as const;
/** What Query Creator Info answers for a public account (FOLLOWER_OF_CREATOR is a private account's). */
const CREATOR_PRIVACY_OPTIONS = ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"];
const VIDEO_TYPES = new Set(["video/mp4", "video/quicktime", "video/webm"]);

const logId = () => {
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  return `${stamp}${toHex(crypto.getRandomValues(new Uint8Array(12))).toUpperCase()}`;
};

/** TikTok's codes for the emulator's reasons (Error Handling page), unless the refusal names its own. */
const CODES: Record<Problem["reason"], string> = {
  invalid_token: "access_token_invalid",
  expired_token: "access_token_invalid",
  revoked_token: "access_token_invalid",
  invalid_request: "invalid_params",
  not_found: "invalid_params",
  forbidden: "scope_not_authorized",
  too_large: "invalid_file_upload",
  rejected: "invalid_params",
  unavailable: "internal_error",
  rate_limited: "rate_limit_exceeded",
  not_ready: "invalid_params",
};

/** TikTok's error answer: `{data: {}, error: {code, message, log_id}}`; no rate-limit headers are documented. */
export const tiktokError = (problem: Problem): Response => {
  const status = problem.reason === "unavailable" ? 500 : problem.status;
  return Response.json(
    {
      data: {},
      error: {
        code: String(problem.code ?? CODES[problem.reason]),
        message: problem.message,
        log_id: logId(),
      },
    },
    { status },
  );
};

/** TikTok's success answer. */
const ok = (data: unknown) => Response.json({ data, error: { code: "ok", message: "", log_id: logId() } });

/** The `fields` query parameter the Display API and user info require. */
function fieldsOf(c: Ctx, allowed: readonly string[]): Set<string> {
  const raw = c.req.query("fields");
  if (!raw) return refuse(400, "invalid_request", "The fields parameter is required.");
  const fields = raw.split(",").map((f) => f.trim());
  const unknown = fields.find((f) => !allowed.includes(f));
  if (unknown) return refuse(400, "invalid_request", `Invalid field: ${unknown}.`);
  return new Set(fields);
}

const pick = (all: Record<string, unknown>, fields: Set<string>) =>
  Object.fromEntries(Object.entries(all).filter(([key]) => fields.has(key)));

// --- bodies, as the Content Posting API reference documents them ---------------------------------------

const flag = z.boolean().optional();
const videoPostInfo = z.object({
  title: z.string().max(2200).optional(),
  privacy_level: z.enum(PRIVACY),
  disable_duet: flag,
  disable_comment: flag,
  disable_stitch: flag,
  video_cover_timestamp_ms: z.number().int().nonnegative().optional(),
  brand_content_toggle: flag,
  brand_organic_toggle: flag,
  is_aigc: flag,
});
const videoInit = z.object({
  post_info: videoPostInfo,
  source_info: z.discriminatedUnion("source", [
    z.object({
      source: z.literal("FILE_UPLOAD"),
      video_size: z.number().int().positive(),
      chunk_size: z.number().int().positive(),
      total_chunk_count: z.number().int().positive(),
    }),
    z.object({ source: z.literal("PULL_FROM_URL"), video_url: z.url() }),
  ]),
});
const photoInit = z.object({
  media_type: z.literal("PHOTO"),
  post_mode: z.enum(["DIRECT_POST", "MEDIA_UPLOAD"]),
  post_info: z.object({
    title: z.string().max(90).optional(),
    description: z.string().max(4000).optional(),
    privacy_level: z.enum(PRIVACY).optional(),
    disable_comment: flag,
    auto_add_music: flag,
    brand_content_toggle: flag,
    brand_organic_toggle: flag,
  }),
  source_info: z.object({
    source: z.literal("PULL_FROM_URL"),
    photo_cover_index: z.number().int().nonnegative().optional(),
    photo_images: z.array(z.url()).max(35),
  }),
});
const statusFetch = z.object({ publish_id: z.string().min(1).max(200) });
const videoList = z.object({
  cursor: z.number().int().nonnegative().optional(),
  max_count: z.number().int().min(1).max(20).optional(),
});
const videoQuery = z.object({
  filters: z.object({ video_ids: z.array(z.string().min(1).max(64)).min(1).max(20) }),
});

/** The publish as the ledger keeps it between init and the post. */
type Publish = {
  mode: "FILE_UPLOAD" | "PULL_FROM_URL" | "PHOTO";
  /** DIRECT_POST publishes; MEDIA_UPLOAD (photos) goes to the creator's inbox. */
  postMode: "DIRECT_POST" | "MEDIA_UPLOAD";
  request: unknown;
  text: string;
  title: string;
  description: string;
  privacy: string;
  uploadToken?: string;
  /** When the upload URL was issued (ms): it is valid for UPLOAD_URL_VALID_MS. */
  uploadIssuedAt?: number;
  videoSize?: number;
  chunkSize?: number;
  chunkCount?: number;
  /** Bytes received so far (FILE_UPLOAD). */
  uploaded: number;
  media: { url: string; type: string }[];
  /** All bytes (or the photos) are in: processing runs until the object's ready time. */
  complete: boolean;
  /** The video id TikTok gives the post; stored in the ledger once processed. */
  videoId: string;
  stored: boolean;
  /** When processing ended (ms): moderation counts from here. */
  completedAt?: number;
};

const publishOf = (object: LedgerObject) => object.data as unknown as Publish;

/** TikTok's publish ids: `v_pub_file~v2-1.<n>`, `v_pub_url~v2.<n>`, `p_pub_url~v2.<n>`. */
function publishId(mode: Publish["mode"]): string {
  const n = digits(crypto.getRandomValues(new Uint8Array(16)), 18);
  return mode === "FILE_UPLOAD"
    ? `v_pub_file~v2-1.${n}`
    : mode === "PHOTO"
      ? `p_pub_url~v2.${n}`
      : `v_pub_url~v2.${n}`;
}
/** A TikTok video id: 19 digits starting with 7. */
const videoId = () => `7${digits(crypto.getRandomValues(new Uint8Array(16)), 18)}`;

/** Stores the post once its media is in and processed (once only); the publish after. */
async function settle(emulated: Emulated, object: LedgerObject): Promise<LedgerObject> {
  const publish = publishOf(object);
  if (publish.stored || !publish.complete || !isReady(object) || publish.postMode !== "DIRECT_POST")
    return object;
  const existing = await emulated.post(publish.videoId);
  if (!existing) {
    await emulated.publish({
      id: publish.videoId,
      handle: object.handle,
      items: [{ text: publish.text, media: publish.media }],
      platformRequest: publish.request,
      visible: publish.privacy === "PUBLIC_TO_EVERYONE",
    });
  }
  return (
    (await emulated.updateObject(object.id, {
      stored: true,
      completedAt: Math.max(object.readyAt, object.createdAt),
    })) ?? object
  );
}

/** The caller's publish `id`, settled; TikTok's invalid_params when it is not the caller's. */
async function ownPublish(emulated: Emulated, handle: string, id: string) {
  const object = await emulated.object(id);
  if (object?.kind !== "publish" || object.handle !== handle)
    return refuse(400, "invalid_request", "The publish_id does not exist or does not belong to this user.", {
      code: "invalid_publish_id",
    });
  return settle(emulated, object);
}

/** Every ready publish of the account stored as its post: what the Display API lists is current. */
async function settleAll(emulated: Emulated, handle: string) {
  for (const object of await emulated.objects(handle, "publish")) await settle(emulated, object);
}

function checkPrivacy(privacy: string) {
  if (!CREATOR_PRIVACY_OPTIONS.includes(privacy))
    refuse(
      400,
      "invalid_request",
      `privacy_level ${privacy} is not among the creator's privacy_level_options.`,
      {
        code: "privacy_level_option_mismatch",
      },
    );
}

/** The Media Transfer Guide's chunk rules for a FILE_UPLOAD init. */
function checkChunks(size: number, chunk: number, count: number) {
  const bad = (message: string) => refuse(400, "invalid_request", message);
  if (size > MAX_VIDEO) bad("video_size is above 4 GB.");
  if (size < MIN_CHUNK) {
    if (chunk !== size || count !== 1)
      bad("A video under 5 MB must be uploaded whole: chunk_size = video_size, total_chunk_count = 1.");
    return;
  }
  if (chunk < MIN_CHUNK || chunk > MAX_CHUNK) bad("chunk_size must be between 5 MB and 64 MB.");
  if (count !== Math.floor(size / chunk)) bad("total_chunk_count must be floor(video_size / chunk_size).");
  if (count > MAX_CHUNKS) bad("total_chunk_count must be at most 1000.");
  if (size - (count - 1) * chunk > MAX_LAST_CHUNK) bad("The last chunk must be at most 128 MB.");
}

/** `bytes first-last/total` of a Content-Range. */
function contentRange(header: string | undefined) {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header?.trim() ?? "");
  if (!match) return null;
  const [first, last, total] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return last >= first && total > last ? { first, last, total } : null;
}

function videoObject(
  emulated: Emulated,
  post: { id: string; text: string[]; published_at: string; platform_request: unknown },
  handle: string,
) {
  const request = post.platform_request as { post_info?: { title?: string; description?: string } } | null;
  const caption = (post.text[0] ?? "").slice(0, 150);
  const info = request?.post_info ?? {};
  return {
    id: post.id,
    create_time: Math.floor(Date.parse(post.published_at) / 1000),
    title: (info.title ?? caption).slice(0, 150),
    video_description: (info.description ?? caption).slice(0, 150),
    share_url: `https://www.tiktok.com/@${encodeURIComponent(handle)}/video/${post.id}`,
    embed_link: `https://www.tiktok.com/player/v1/${post.id}`,
    cover_image_url: `${emulated.base}/posts/${post.id}`,
    duration: 15,
    height: 1920,
    width: 1080,
  };
}

const VIDEO_FIELDS = [
  "id",
  "create_time",
  "cover_image_url",
  "share_url",
  "video_description",
  "duration",
  "height",
  "width",
  "title",
  "embed_html",
  "embed_link",
  "like_count",
  "comment_count",
  "share_count",
  "view_count",
] as const;

export const tiktokEmulator = emulatorRouter(tiktokError);

tiktokEmulator
  // Get User Info (Login Kit): the fields asked for, of the token's user.
  .get("/v2/user/info/", async (c) => {
    const emulated = emulate(c, "tiktok");
    const caller = await emulated.caller();
    const fields = fieldsOf(c, [
      "open_id",
      "union_id",
      "avatar_url",
      "avatar_url_100",
      "avatar_large_url",
      "display_name",
      "bio_description",
      "profile_deep_link",
      "is_verified",
      "username",
      "follower_count",
      "following_count",
      "likes_count",
      "video_count",
    ]);
    const videos = (await emulated.posts(caller.handle)).length;
    const user = {
      open_id: caller.platformId,
      union_id: caller.platformId,
      avatar_url: "",
      avatar_url_100: "",
      avatar_large_url: "",
      display_name: caller.handle,
      bio_description: "",
      profile_deep_link: `https://www.tiktok.com/@${encodeURIComponent(caller.handle)}`,
      is_verified: false,
      username: caller.handle,
      follower_count: 0,
      following_count: 0,
      likes_count: 0,
      video_count: videos,
    };
    return ok({ user: pick(user, fields) });
  })

  // Revoke a User Access Token: the app's credentials and the token, as a form; `{}` when done.
  .post("/v2/oauth/revoke/", async (c) => {
    const emulated = emulate(c, "tiktok");
    const form = await readFormOrOAuthError(c);
    if (form instanceof Response) return form;
    const client = emulated.client;
    if (
      form.get("client_key") !== client.clientId ||
      !timingSafeEqualText(form.get("client_secret") ?? "", client.clientSecret)
    )
      return oauthError(401, "invalid_client", "Client authentication failed.");
    const token = form.get("token");
    if (!token) return oauthError(400, "invalid_request", "The token parameter is missing.");
    const check = await checkToken(c.env, "tiktok", token);
    if (check.kind === "invalid") return oauthError(400, "invalid_request", "The token is invalid.");
    // Already expired or revoked: nothing is left to revoke.
    if (check.kind === "ok") await emulated.store.revoke(check.handle);
    return c.json({});
  })

  // Query Creator Info: what the creator may post, asked before every Direct Post.
  .post("/v2/post/publish/creator_info/query/", async (c) => {
    const emulated = emulate(c, "tiktok");
    const caller = await emulated.caller();
    return ok({
      creator_avatar_url: "",
      creator_username: caller.handle,
      creator_nickname: caller.handle,
      privacy_level_options: CREATOR_PRIVACY_OPTIONS,
      comment_disabled: false,
      duet_disabled: false,
      stitch_disabled: false,
      max_video_post_duration_sec: 600,
    });
  })

  // Direct Post, video: FILE_UPLOAD answers an upload URL; PULL_FROM_URL fetches from the URL given.
  .post("/v2/post/publish/video/init/", async (c) => {
    const emulated = emulate(c, "tiktok");
    const caller = await emulated.caller();
    const body = await emulated.json(videoInit);
    checkPrivacy(body.post_info.privacy_level);
    const source = body.source_info;
    if (source.source === "FILE_UPLOAD")
      checkChunks(source.video_size, source.chunk_size, source.total_chunk_count);
    const text = body.post_info.title ?? "";
    const outcome = await emulated.attempt(caller.handle, `video:${text}`, text);
    const pulled = source.source === "PULL_FROM_URL";
    const publish: Publish = {
      mode: source.source,
      postMode: "DIRECT_POST",
      request: body,
      text,
      title: text,
      description: text,
      privacy: body.post_info.privacy_level,
      uploaded: 0,
      media: pulled ? [{ url: source.video_url, type: "video/mp4" }] : [],
      complete: pulled,
      videoId: videoId(),
      stored: false,
    };
    if (!pulled) {
      publish.uploadToken = toHex(crypto.getRandomValues(new Uint8Array(16)));
      publish.uploadIssuedAt = emulated.now();
      publish.videoSize = source.video_size;
      publish.chunkSize = source.chunk_size;
      publish.chunkCount = source.total_chunk_count;
    }
    const object = await emulated.createObject({
      id: publishId(publish.mode),
      handle: caller.handle,
      kind: "publish",
      data: publish,
      readyAt: emulated.readyAt(text),
    });
    // #sandbox-lost: the init's answer never arrives. A pulled video is published all the same; an
    // upload never gets its bytes, so TikTok never publishes it.
    if (pulled) await settle(emulated, object);
    if (outcome === "lost") return lostAnswer();
    if (pulled) return ok({ publish_id: object.id });
    const query = new URLSearchParams({ upload_id: object.id, upload_token: publish.uploadToken! });
    return ok({ publish_id: object.id, upload_url: `${emulated.base}/upload/?${query}` });
  })

  // The upload URL: each chunk a PUT with its Content-Range, in order (Media Transfer Guide: "File chunks
  // must be uploaded sequentially": a chunk that is not the next one is refused); 206 until the last,
  // then 201; refused an hour after the init issued it.
  .put("/upload/", async (c) => {
    const emulated = emulate(c, "tiktok");
    const id = c.req.query("upload_id") ?? "";
    const object = id ? await emulated.object(id) : null;
    const publish = object?.kind === "publish" ? publishOf(object) : null;
    if (
      !object ||
      !publish ||
      publish.mode !== "FILE_UPLOAD" ||
      !timingSafeEqualText(c.req.query("upload_token") ?? "", publish.uploadToken ?? "")
    )
      return refuse(404, "not_found", "The upload URL is invalid or expired.", {
        code: "invalid_file_upload",
      });
    if (emulated.now() >= (publish.uploadIssuedAt ?? object.createdAt) + UPLOAD_URL_VALID_MS)
      return refuse(404, "not_found", "The upload URL is invalid or expired.", {
        code: "invalid_file_upload",
      });
    if (publish.complete)
      return refuse(400, "invalid_request", "The upload is already complete.", {
        code: "invalid_file_upload",
      });
    const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!VIDEO_TYPES.has(type))
      return refuse(
        400,
        "invalid_request",
        "Content-Type must be video/mp4, video/quicktime or video/webm.",
        {
          code: "invalid_file_upload",
        },
      );
    const range = contentRange(c.req.header("content-range"));
    const size = publish.videoSize!;
    const index = Math.floor(publish.uploaded / publish.chunkSize!);
    const lastIndex = publish.chunkCount! - 1;
    const expected = index === lastIndex ? size - publish.uploaded : publish.chunkSize!;
    if (
      !range ||
      range.total !== size ||
      range.first !== publish.uploaded ||
      range.last - range.first + 1 !== expected
    )
      return refuse(
        400,
        "invalid_request",
        `Content-Range must be bytes ${publish.uploaded}-${publish.uploaded + expected - 1}/${size}.`,
        {
          code: "invalid_file_upload",
        },
      );
    if (expected > EMULATED_CHUNK_MAX)
      return refuse(413, "too_large", "The sandbox takes chunks of at most 32 MB.");
    const bytes = await readCapped(c.req.raw, expected);
    if (bytes === null || bytes === "too_large" || bytes.byteLength !== expected)
      return refuse(400, "invalid_request", "The chunk's length does not match its Content-Range.", {
        code: "invalid_file_upload",
      });
    const uploaded = publish.uploaded + expected;
    const complete = uploaded === size;
    const patch: Partial<Publish> = { uploaded, complete };
    // The page shows a video sent in one piece; a chunked one is listed without its bytes.
    if (complete) {
      const url =
        publish.chunkCount === 1
          ? await emulated.storeMedia(publish.videoId, bytes, type)
          : `${emulated.base}/media/${publish.videoId}`;
      patch.media = [{ url, type }];
    }
    const updated = await emulated.updateObject(
      object.id,
      patch,
      complete ? emulated.readyAt(publish.text) : undefined,
    );
    if (!complete) return c.body(null, 206);
    await settle(emulated, updated!);
    return c.body(null, 201);
  })

  // Photo posts: TikTok pulls the images from the URLs given.
  .post("/v2/post/publish/content/init/", async (c) => {
    const emulated = emulate(c, "tiktok");
    const caller = await emulated.caller();
    const body = await emulated.json(photoInit);
    if (body.source_info.photo_images.length === 0)
      return refuse(400, "invalid_request", "photo_images must name at least one image.");
    const cover = body.source_info.photo_cover_index ?? 0;
    if (cover >= body.source_info.photo_images.length)
      return refuse(400, "invalid_request", "photo_cover_index is out of range.");
    const privacy = body.post_info.privacy_level;
    if (body.post_mode === "DIRECT_POST") {
      if (!privacy)
        return refuse(400, "invalid_request", "post_info.privacy_level is required for DIRECT_POST.");
      checkPrivacy(privacy);
    }
    const title = body.post_info.title ?? "";
    const description = body.post_info.description ?? "";
    const text = description || title;
    const outcome = await emulated.attempt(
      caller.handle,
      `photo:${title}\n${description}`,
      `${title}\n${description}`,
    );
    const object = await emulated.createObject({
      id: publishId("PHOTO"),
      handle: caller.handle,
      kind: "publish",
      data: {
        mode: "PHOTO",
        postMode: body.post_mode,
        request: body,
        text,
        title,
        description,
        privacy: privacy ?? "SELF_ONLY",
        uploaded: 0,
        media: body.source_info.photo_images.map((url) => ({ url, type: "image/jpeg" })),
        complete: true,
        videoId: videoId(),
        stored: false,
      } satisfies Publish,
      readyAt: emulated.readyAt(`${title}\n${description}`),
    });
    await settle(emulated, object);
    if (outcome === "lost") return lostAnswer();
    return ok({ publish_id: object.id });
  })

  // Get Post Status: processing, then PUBLISH_COMPLETE; the public id once moderation is done.
  .post("/v2/post/publish/status/fetch/", async (c) => {
    const emulated = emulate(c, "tiktok");
    const caller = await emulated.caller();
    const { publish_id } = await emulated.json(statusFetch);
    const object = await ownPublish(emulated, caller.handle, publish_id);
    const publish = publishOf(object);
    const log = logId();
    let data: string;
    if (!publish.complete) {
      data = JSON.stringify({ status: "PROCESSING_UPLOAD", uploaded_bytes: publish.uploaded });
    } else if (!isReady(object)) {
      data = JSON.stringify({
        status: publish.mode === "FILE_UPLOAD" ? "PROCESSING_UPLOAD" : "PROCESSING_DOWNLOAD",
        ...(publish.mode === "FILE_UPLOAD" ? { uploaded_bytes: publish.uploaded } : {}),
      });
    } else if (publish.postMode === "MEDIA_UPLOAD") {
      data = JSON.stringify({ status: "SEND_TO_USER_INBOX" });
    } else {
      // Only a post for public viewership is moderated into a public id (Get Post Status).
      const moderated =
        publish.privacy === "PUBLIC_TO_EVERYONE" &&
        emulated.now() >= (publish.completedAt ?? object.readyAt) + emulated.scaledMs(MODERATION_SECONDS);
      // The ids are int64 numbers in TikTok's JSON: written as digits, never as strings.
      data = `{"status":"PUBLISH_COMPLETE","publicaly_available_post_id":[${moderated ? publish.videoId : ""}]}`;
    }
    return new Response(`{"data":${data},"error":{"code":"ok","message":"","log_id":"${log}"}}`, {
      headers: { "content-type": "application/json; charset=UTF-8" },
    });
  })

  // List Videos (Display API): the creator's public videos, newest first, by cursor (create time in ms).
  .post("/v2/video/list/", async (c) => {
    const emulated = emulate(c, "tiktok");
    const caller = await emulated.caller();
    const fields = fieldsOf(c, VIDEO_FIELDS);
    const body = await emulated.json(videoList);
    await settleAll(emulated, caller.handle);
    const max = body.max_count ?? 10;
    const all = (await emulated.posts(caller.handle)).reverse();
    const older =
      body.cursor === undefined ? all : all.filter((p) => Date.parse(p.published_at) < body.cursor!);
    const page = older.slice(0, max);
    const videos = await Promise.all(page.map((post) => displayVideo(emulated, post, caller.handle, fields)));
    const last = page.at(-1);
    return ok({
      videos,
      cursor: last ? Date.parse(last.published_at) : (body.cursor ?? 0),
      has_more: older.length > page.length,
    });
  })

  // Query Videos (Display API): the creator's own public videos among the ids given, with their counts.
  .post("/v2/video/query/", async (c) => {
    const emulated = emulate(c, "tiktok");
    const caller = await emulated.caller();
    const fields = fieldsOf(c, VIDEO_FIELDS);
    const body = await emulated.json(videoQuery);
    await settleAll(emulated, caller.handle);
    const mine = new Map((await emulated.posts(caller.handle)).map((post) => [post.id, post]));
    const found = body.filters.video_ids.flatMap((id) => (mine.has(id) ? [mine.get(id)!] : []));
    const videos = await Promise.all(
      found.map((post) => displayVideo(emulated, post, caller.handle, fields)),
    );
    return ok({ videos, cursor: 0, has_more: false });
  })

  // A post's page on tiktok.com (the adapter's post_url): the sandbox's page of the post, also by publish id.
  .get("/:at/video/:id", async (c) => {
    const at = c.req.param("at");
    if (!at.startsWith("@")) return c.notFound();
    const emulated = emulate(c, "tiktok");
    const id = c.req.param("id");
    const object = /^[vp]_pub_/.test(id) ? await emulated.object(id) : null;
    const target = object?.kind === "publish" ? publishOf(object).videoId : id;
    return c.redirect(emulated.postUrl(target), 302);
  });

async function displayVideo(
  emulated: Emulated,
  post: Awaited<ReturnType<Emulated["posts"]>>[number],
  handle: string,
  fields: Set<string>,
) {
  const metrics =
    fields.has("like_count") ||
    fields.has("view_count") ||
    fields.has("comment_count") ||
    fields.has("share_count")
      ? await emulated.metrics(post.id)
      : null;
  const all: Record<string, unknown> = {
    ...videoObject(emulated, post, handle),
    embed_html: `<blockquote class="tiktok-embed" data-video-id="${post.id}"></blockquote>`,
    like_count: metrics?.likes ?? 0,
    comment_count: metrics?.comments ?? 0,
    share_count: metrics?.shares ?? 0,
    view_count: metrics?.impressions ?? 0,
  };
  return pick(all, fields);
}

/** A form body, or TikTok's OAuth error for one it cannot read. */
async function readFormOrOAuthError(c: Ctx): Promise<URLSearchParams | Response> {
  const form = await readForm(c.req.raw);
  if (isProblem(form))
    return oauthError(
      400,
      "invalid_request",
      form.kind === "too_large" ? "The request body is too large." : form.message,
    );
  return form;
}
