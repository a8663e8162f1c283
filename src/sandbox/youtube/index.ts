// The YouTube Data API v3 and Google's OAuth revocation as the sandbox emulates them, following
// developers.google.com (docs/platforms.md › YouTube › The emulator names each page): channels.list
// (identity, the chooser and the uploads playlist), videos.insert by the resumable upload protocol
// (a session opened with the metadata, its URI in Location, the bytes PUT with Content-Range, 308 Resume
// Incomplete until the last, then the video resource), videos.list (snippet, status, statistics,
// processingDetails), playlistItems.list, commentThreads.list/insert, comments.insert, and
// oauth2.googleapis.com/revoke. Errors are Google's `{error: {code, message, errors: [{message, domain,
// reason}], status}}`. The code exchange and refresh are the sandbox's generic token endpoint (Google's
// answer shape: an hour's access token, a refresh token that does not rotate).
import type { Context } from "hono";
import { z } from "zod";
import type { BareEnv } from "../../http/env";
import { readCapped } from "../../lib/capped-body";
import { toBase64Url } from "../../lib/encoding";
import { isRefresh, REFRESH_PURPOSE, unseal } from "../../platforms/sandbox/seal";
import { sandboxPlatformId } from "../../platforms/sandbox/shapes";
import { checkToken } from "../access";
import { isProblem, readForm } from "../body";
import {
  type Caller,
  type Emulated,
  emulate,
  emulatorRouter,
  isReady,
  type LedgerPost,
  lostAnswer,
  type Problem,
  refuse,
} from "../emulator";
import { revokedSince } from "../grants";

type Ctx = Context<BareEnv>;

/** Google requires every chunk but the last to be a multiple of 256 KiB. */
const CHUNK_UNIT = 256 * 1024;
/** What one PUT may carry here: the adapter's chunks are 8 MiB; bigger ones are refused, not held. */
const EMULATED_CHUNK_MAX = 32 * 1024 * 1024;
/** YouTube's largest upload: 256 GB. */
const MAX_VIDEO_BYTES = 256 * 1024 ** 3;
/** The categories a video can be assigned to (videoCategories.list, regionCode=US, assignable). */
const CATEGORIES = new Set([
  "1",
  "2",
  "10",
  "15",
  "17",
  "19",
  "20",
  "22",
  "23",
  "24",
  "25",
  "26",
  "27",
  "28",
  "29",
]);

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ABORTED",
  413: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

/** Google's reason and domain for the emulator's reasons (YouTube Data API › Errors), unless named. */
function reasonOf(problem: Problem): { reason: string; domain: string; status: number } {
  switch (problem.reason) {
    case "invalid_token":
    case "expired_token":
    case "revoked_token":
      return { reason: "authError", domain: "global", status: 401 };
    case "invalid_request":
      return { reason: String(problem.code ?? "badRequest"), domain: "youtube.parameter", status: 400 };
    case "not_found":
      return { reason: String(problem.code ?? "notFound"), domain: "youtube.api", status: 404 };
    case "forbidden":
      return { reason: String(problem.code ?? "forbidden"), domain: "youtube.api", status: 403 };
    case "too_large":
      return { reason: "uploadTooLarge", domain: "global", status: 413 };
    case "rejected":
      return { reason: String(problem.code ?? "badRequest"), domain: "youtube.video", status: 400 };
    case "unavailable":
      return { reason: "backendError", domain: "global", status: 503 };
    case "rate_limited":
      return { reason: "rateLimitExceeded", domain: "youtube.quota", status: 429 };
    case "not_ready":
      return { reason: String(problem.code ?? "failedPrecondition"), domain: "youtube.api", status: 400 };
  }
}

/** Google's error answer; a rate limit says when to come back in Retry-After. */
export const youtubeError = (problem: Problem): Response => {
  const { reason, domain, status } = reasonOf(problem);
  const auth = status === 401;
  const message = auth
    ? `Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. (${problem.message})`
    : problem.message;
  const headers: Record<string, string> = {};
  if (problem.reason === "rate_limited") headers["retry-after"] = String(problem.retryAfterSeconds ?? 60);
  if (auth)
    headers["www-authenticate"] = 'Bearer realm="https://accounts.google.com/", error="invalid_token"';
  return Response.json(
    {
      error: {
        code: status,
        message,
        errors: [
          {
            message: auth ? "Invalid Credentials" : problem.message,
            domain,
            reason,
            ...(auth ? { location: "Authorization", locationType: "header" } : {}),
          },
        ],
        status: STATUS_NAMES[status] ?? "UNKNOWN",
      },
    },
    { status: status as 400, headers },
  );
};

const etag = () => toBase64Url(crypto.getRandomValues(new Uint8Array(20)));
const randomId = (length: number) => toBase64Url(crypto.getRandomValues(new Uint8Array(32))).slice(0, length);
/** A video id: 11 characters of [A-Za-z0-9_-]. */
const newVideoId = () => randomId(11);
/** A comment thread id, in YouTube's style. */
const newThreadId = () => `Ugz${randomId(19)}4AaABAg`;

/** The uploads playlist of a channel: its id with UC turned into UU. */
const uploadsOf = (channelId: string) => `UU${channelId.slice(2)}`;

/** The `part` parameter: required, each part one of `allowed`. */
function partsOf(c: Ctx, allowed: readonly string[]): Set<string> {
  const raw = c.req.query("part");
  if (!raw)
    return refuse(400, "invalid_request", "No filter selected. Expected one of: part", { code: "required" });
  const parts = raw.split(",").map((p) => p.trim());
  const unknown = parts.find((p) => !allowed.includes(p));
  if (unknown)
    return refuse(400, "invalid_request", `'${unknown}' is not a valid value for the part parameter.`, {
      code: "unknownPart",
    });
  return new Set(parts);
}

function maxResultsOf(c: Ctx, fallback: number, max: number): number {
  const raw = c.req.query("maxResults");
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > max)
    return refuse(
      400,
      "invalid_request",
      `Invalid value '${raw}'. Values must be within the range: [0, ${max}]`,
      {
        code: "invalidParameter",
      },
    );
  return n;
}

/** A page of `items` from the pageToken offset: Google's pageToken/nextPageToken. */
function paged<T>(c: Ctx, items: T[], size: number) {
  const token = c.req.query("pageToken");
  const offset = token && /^CA[A-Za-z0-9_-]+$/.test(token) ? Number.parseInt(token.slice(2), 36) || 0 : 0;
  const page = items.slice(offset, offset + size);
  const next = offset + size < items.length ? `CA${(offset + size).toString(36)}` : undefined;
  return { page, next, total: items.length };
}

const listAnswer = (kind: string, items: unknown[], perPage: number, total: number, next?: string) => ({
  kind,
  etag: etag(),
  ...(next ? { nextPageToken: next } : {}),
  pageInfo: { totalResults: total, resultsPerPage: perPage },
  items,
});

// --- the video resource as the upload receives it ---------------------------------------------------

const noAngles = (what: string) => (value: string) =>
  !/[<>]/.test(value) || `${what} must not contain < or >`;
const videoResource = z.object({
  snippet: z.object({
    title: z.string(),
    description: z.string().optional(),
    tags: z.array(z.string()).optional(),
    categoryId: z.string().optional(),
    defaultLanguage: z.string().optional(),
  }),
  status: z
    .object({
      privacyStatus: z.enum(["public", "unlisted", "private"]).optional(),
      selfDeclaredMadeForKids: z.boolean().optional(),
      embeddable: z.boolean().optional(),
      license: z.enum(["youtube", "creativeCommon"]).optional(),
      publicStatsViewable: z.boolean().optional(),
      publishAt: z.string().optional(),
      containsSyntheticMedia: z.boolean().optional(),
    })
    .optional(),
});
type VideoResource = z.infer<typeof videoResource>;

/** videos.insert's documented refusals of the metadata. */
function checkMetadata(video: VideoResource) {
  const { title, description = "", tags = [], categoryId } = video.snippet;
  const titleCheck = noAngles("The title")(title);
  if (title.trim() === "" || [...title].length > 100 || titleCheck !== true)
    refuse(400, "invalid_request", "The request metadata specifies an invalid or empty video title.", {
      code: "invalidTitle",
    });
  if (
    new TextEncoder().encode(description).byteLength > 5000 ||
    noAngles("The description")(description) !== true
  )
    refuse(400, "invalid_request", "The request metadata specifies an invalid video description.", {
      code: "invalidDescription",
    });
  // Tags count with quotes around those with spaces, and commas between them.
  const tagLength =
    tags.reduce((sum, tag) => sum + tag.length + (tag.includes(" ") ? 2 : 0), 0) +
    Math.max(0, tags.length - 1);
  if (tagLength > 500)
    refuse(400, "invalid_request", "The request metadata specifies invalid video keywords.", {
      code: "invalidTags",
    });
  if (categoryId !== undefined && !CATEGORIES.has(categoryId))
    refuse(400, "invalid_request", "The video's category is not valid.", { code: "invalidCategoryId" });
}

type Session = {
  part: string;
  metadata: VideoResource;
  size: number | null;
  type: string;
  received: number;
  lost: boolean;
  videoId: string | null;
  text: string;
  /** When the session URI stops working (404), unless the upload completed (epoch ms). */
  expiresAt?: number;
};

/**
 * How long an upload session lasts: Google's resumable-upload pages for Drive and Cloud Storage say a
 * session URI expires after one week; the YouTube guide says only that an expired session answers 404
 * and the upload must start over (Guides › Resumable uploads, Step 4). Scaled by SANDBOX_TIME_SCALE.
 */
export const SESSION_LIFETIME_SECONDS = 7 * 86_400;

/** What a video resource shows of a stored video, by the parts asked for and to whom. */
async function videoOf(emulated: Emulated, post: LedgerPost, parts: Set<string>, owner: boolean) {
  const request = post.platform_request as VideoResource;
  const channelId = await emulated.platformId(post.handle);
  const session = (await emulated.objects(post.handle, "upload_session")).find(
    (s) => s.data.videoId === post.id,
  );
  const processed = !session || isReady(session);
  const privacy = request.status?.privacyStatus ?? "public";
  const video: Record<string, unknown> = { kind: "youtube#video", etag: etag(), id: post.id };
  if (parts.has("snippet")) {
    video.snippet = {
      publishedAt: post.published_at,
      channelId,
      title: request.snippet.title,
      description: request.snippet.description ?? "",
      thumbnails: { default: { url: `${emulated.base}/posts/${post.id}`, width: 120, height: 90 } },
      channelTitle: post.handle,
      // Tags are shown to the video's owner only.
      ...(owner && request.snippet.tags ? { tags: request.snippet.tags } : {}),
      categoryId: request.snippet.categoryId ?? "22",
      liveBroadcastContent: "none",
      localized: { title: request.snippet.title, description: request.snippet.description ?? "" },
    };
  }
  if (parts.has("status")) {
    video.status = {
      uploadStatus: processed ? "processed" : "uploaded",
      privacyStatus: privacy,
      license: request.status?.license ?? "youtube",
      embeddable: request.status?.embeddable ?? true,
      publicStatsViewable: request.status?.publicStatsViewable ?? true,
      madeForKids: request.status?.selfDeclaredMadeForKids ?? false,
      ...(owner ? { selfDeclaredMadeForKids: request.status?.selfDeclaredMadeForKids ?? false } : {}),
    };
  }
  if (parts.has("statistics")) {
    const metrics = await emulated.metrics(post.id);
    // Counts are decimal strings; favoriteCount has been 0 since favourites became a playlist.
    video.statistics = {
      viewCount: String(metrics?.impressions ?? 0),
      likeCount: String(metrics?.likes ?? 0),
      favoriteCount: "0",
      commentCount: String(metrics?.comments ?? 0),
    };
  }
  if (parts.has("processingDetails") && owner) {
    video.processingDetails = { processingStatus: processed ? "succeeded" : "processing" };
  }
  if (parts.has("contentDetails")) {
    video.contentDetails = {
      duration: "PT15S",
      dimension: "2d",
      definition: "hd",
      caption: "false",
      licensedContent: false,
      projection: "rectangular",
    };
  }
  return video;
}

/** A stored video, if `id` names one the caller may see (private ones: only its channel). */
async function visibleVideo(emulated: Emulated, caller: Caller, id: string) {
  const post = await emulated.post(id);
  if (!post || post.parent_id !== null) return null;
  const owner = post.handle === caller.handle;
  const privacy = (post.platform_request as VideoResource | null)?.status?.privacyStatus ?? "public";
  return owner || privacy !== "private" ? { post, owner } : null;
}

/** A top-level comment thread of the sandbox's audience, or the caller's own, as YouTube shows it. */
function threadOf(
  videoId: string,
  channelId: string,
  thread: { id: string; text: string; name: string; username: string; authorId: string; at: string },
  mine: boolean,
) {
  const snippet = {
    channelId,
    videoId,
    textDisplay: thread.text,
    // The original text is only guaranteed to the comment's author.
    ...(mine ? { textOriginal: thread.text } : {}),
    authorDisplayName: `@${thread.username}`,
    authorProfileImageUrl: "",
    authorChannelUrl: `http://www.youtube.com/@${encodeURIComponent(thread.username)}`,
    authorChannelId: { value: thread.authorId },
    canRate: true,
    viewerRating: "none",
    likeCount: 0,
    publishedAt: thread.at,
    updatedAt: thread.at,
  };
  return {
    kind: "youtube#commentThread",
    etag: etag(),
    id: thread.id,
    snippet: {
      channelId,
      videoId,
      topLevelComment: { kind: "youtube#comment", etag: etag(), id: thread.id, snippet },
      canReply: true,
      totalReplyCount: 0,
      isPublic: true,
    },
  };
}

const commentThreadInsert = z.object({
  snippet: z.object({
    channelId: z.string().optional(),
    videoId: z.string().min(1).max(64),
    topLevelComment: z.object({ snippet: z.object({ textOriginal: z.string() }) }),
  }),
});
const commentInsert = z.object({
  snippet: z.object({ parentId: z.string().min(1).max(200), textOriginal: z.string() }),
});

function checkCommentText(text: string) {
  if (text.trim() === "")
    refuse(400, "invalid_request", "The comment's text is empty.", { code: "commentTextRequired" });
  if ([...text].length > 10_000)
    refuse(400, "invalid_request", "The comment's text is too long.", { code: "commentTextTooLong" });
}

// `bytes first-last/total` of a Content-Range, or `bytes */total` (a status query).
function contentRange(header: string | undefined) {
  const value = header?.trim() ?? "";
  const query = /^bytes \*\/(\d+|\*)$/.exec(value);
  if (query) return { query: true as const, total: query[1] === "*" ? null : Number(query[1]) };
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value);
  if (!match) return null;
  const first = Number(match[1]);
  const last = Number(match[2]);
  return last >= first
    ? { query: false as const, first, last, total: match[3] === "*" ? null : Number(match[3]) }
    : null;
}

/** 308 Resume Incomplete, with the bytes received so far. */
const incomplete = (received: number) =>
  new Response(null, { status: 308, headers: received > 0 ? { range: `bytes=0-${received - 1}` } : {} });

export const youtubeEmulator = emulatorRouter(youtubeError);

youtubeEmulator
  // Revoking a token (Using OAuth 2.0 for Web Server Applications): an access or refresh token, as a
  // form (or the query); revoking either ends the whole grant. 200 with no body; 400 invalid_token.
  .post("/revoke", async (c) => {
    const emulated = emulate(c, "youtube");
    const form = await readForm(c.req.raw);
    const token = (isProblem(form) ? null : form.get("token")) ?? c.req.query("token") ?? null;
    const invalid = () =>
      c.json({ error: "invalid_token", error_description: "Token expired or revoked" }, 400);
    if (!token) return invalid();
    const access = await checkToken(c.env, "youtube", token);
    let handle: string | null = access.kind === "ok" ? access.handle : null;
    if (!handle && access.kind === "invalid") {
      const refresh = await unseal<unknown>(c.env, REFRESH_PURPOSE, token);
      if (
        isRefresh(refresh) &&
        refresh.p === "youtube" &&
        refresh.e > Date.now() &&
        !revokedSince(refresh.i, await emulated.store.revokedAt(refresh.h))
      )
        handle = refresh.h;
    }
    if (!handle) return invalid();
    await emulated.store.revoke(handle);
    return c.body(null, 200);
  })

  // channels.list: the caller's channel (mine=true), or channels by id.
  .get("/youtube/v3/channels", async (c) => {
    const emulated = emulate(c, "youtube");
    const caller = await emulated.caller();
    const parts = partsOf(c, [
      "id",
      "snippet",
      "contentDetails",
      "statistics",
      "status",
      "brandingSettings",
      "topicDetails",
      "localizations",
      "contentOwnerDetails",
    ]);
    const mine = c.req.query("mine");
    const ids = c.req.query("id");
    if (mine === undefined && ids === undefined && c.req.query("forHandle") === undefined)
      return refuse(
        400,
        "invalid_request",
        "No filter selected. Expected one of: mine, id, forHandle, forUsername, managedByMe, categoryId",
        {
          code: "missingRequiredParameter",
        },
      );
    const own = await emulated.channels(caller.handle);
    const channels =
      mine === "true"
        ? own
        : ids !== undefined
          ? own.filter((channel) => ids.split(",").includes(channel.id))
          : own.filter((channel) => `@${channel.handle}` === c.req.query("forHandle"));
    const items = await Promise.all(
      channels.map(async (channel) => {
        const videos = (await emulated.posts(channel.handle)).length;
        const item: Record<string, unknown> = { kind: "youtube#channel", etag: etag(), id: channel.id };
        if (parts.has("snippet"))
          item.snippet = {
            title: channel.name,
            description: "",
            customUrl: `@${channel.handle}`,
            publishedAt: "2020-01-01T00:00:00Z",
            thumbnails: {
              default: { url: `${emulated.base}/channels/${channel.id}.jpg`, width: 88, height: 88 },
            },
            localized: { title: channel.name, description: "" },
          };
        if (parts.has("contentDetails"))
          item.contentDetails = { relatedPlaylists: { likes: "", uploads: uploadsOf(channel.id) } };
        if (parts.has("statistics"))
          item.statistics = {
            viewCount: "0",
            subscriberCount: "0",
            hiddenSubscriberCount: false,
            videoCount: String(videos),
          };
        if (parts.has("status"))
          item.status = {
            privacyStatus: "public",
            isLinked: true,
            longUploadsStatus: "allowed",
            madeForKids: false,
          };
        return item;
      }),
    );
    return c.json(listAnswer("youtube#channelListResponse", items, 5, items.length));
  })

  // videos.insert, resumable: the metadata opens a session; its URI comes back in Location.
  .post("/upload/youtube/v3/videos", async (c) => {
    const emulated = emulate(c, "youtube");
    const caller = await emulated.caller();
    if (c.req.query("uploadType") !== "resumable")
      return refuse(400, "invalid_request", "The sandbox accepts uploadType=resumable only.", {
        code: "invalidParameter",
      });
    const parts = partsOf(c, [
      "snippet",
      "status",
      "contentDetails",
      "recordingDetails",
      "localizations",
      "id",
    ]);
    const size = c.req.header("x-upload-content-length");
    if (size !== undefined && !/^\d+$/.test(size))
      return refuse(400, "invalid_request", "X-Upload-Content-Length must be a number.", {
        code: "invalidParameter",
      });
    if (size !== undefined && (Number(size) === 0 || Number(size) > MAX_VIDEO_BYTES))
      return refuse(400, "invalid_request", "The video is empty or larger than 256 GB.", {
        code: "invalidParameter",
      });
    const type = (c.req.header("x-upload-content-type") ?? "video/*").toLowerCase();
    if (!type.startsWith("video/") && type !== "application/octet-stream")
      return refuse(400, "invalid_request", "Media type is not supported: the upload must be a video.", {
        code: "mediaBodyRequired",
      });
    const metadata = await emulated.json(videoResource);
    if (!parts.has("snippet"))
      return refuse(400, "invalid_request", "The part parameter must include snippet.", {
        code: "invalidPart",
      });
    checkMetadata(metadata);
    const text = `${metadata.snippet.title}\n${metadata.snippet.description ?? ""}`;
    const outcome = await emulated.attempt(caller.handle, `video:${text}`, text);
    const session = await emulated.createObject({
      id: randomId(32),
      handle: caller.handle,
      kind: "upload_session",
      data: {
        part: c.req.query("part") ?? "",
        metadata,
        size: size === undefined ? null : Number(size),
        type,
        received: 0,
        lost: outcome === "lost",
        videoId: null,
        text,
        expiresAt: Date.now() + emulated.scaledMs(SESSION_LIFETIME_SECONDS),
      } satisfies Session,
    });
    const query = new URLSearchParams({
      uploadType: "resumable",
      upload_id: session.id,
      part: c.req.query("part") ?? "",
    });
    return c.body(null, 200, {
      location: `${emulated.base}/upload/youtube/v3/videos?${query}`,
      "x-guploader-uploadid": session.id,
    });
  })

  // The session URI: the bytes in order, each PUT with its Content-Range; 308 until the last.
  .put("/upload/youtube/v3/videos", async (c) => {
    const emulated = emulate(c, "youtube");
    const id = c.req.query("upload_id") ?? "";
    const object = id ? await emulated.object(id) : null;
    if (object?.kind !== "upload_session")
      return refuse(404, "not_found", "The upload session does not exist or has expired.", {
        code: "notFound",
      });
    // The session URI is the credential; a token sent along must still be the channel's.
    if (c.req.header("authorization")) {
      const caller = await emulated.caller();
      if (caller.handle !== object.handle)
        return refuse(403, "forbidden", "The upload session belongs to another channel.", {
          code: "forbidden",
        });
    }
    const session = object.data as unknown as Session;
    if (session.videoId) {
      const done = await emulated.post(session.videoId);
      if (done) return c.json(await videoOf(emulated, done, new Set(session.part.split(",")), true), 200);
    }
    // An expired session is gone: Google answers 404 and the upload starts over with a new session.
    if (session.expiresAt !== undefined && Date.now() >= session.expiresAt)
      return refuse(404, "not_found", "The upload session does not exist or has expired.", {
        code: "notFound",
      });
    const range = contentRange(c.req.header("content-range"));
    const declared = Number(c.req.header("content-length") ?? "0");
    if (range?.query) return incomplete(session.received);
    if (!range && declared > 0 && session.received === 0 && session.size === null)
      return refuse(400, "invalid_request", "A Content-Range is required when the size was not declared.", {
        code: "invalidParameter",
      });
    const first = range ? range.first : 0;
    const total = (range ? range.total : declared) ?? session.size;
    const last = range ? range.last : declared - 1;
    if (first !== session.received || (session.size !== null && total !== null && total !== session.size))
      return refuse(
        400,
        "invalid_request",
        `The chunk must start at byte ${session.received} of ${session.size ?? "?"}.`,
        {
          code: "invalidParameter",
        },
      );
    const length = last - first + 1;
    if (length <= 0)
      return refuse(400, "invalid_request", "The request carries no bytes of the video.", {
        code: "mediaBodyRequired",
      });
    if (length > EMULATED_CHUNK_MAX)
      return refuse(413, "too_large", "The sandbox takes chunks of at most 32 MB.");
    const bytes = await readCapped(c.req.raw, length);
    if (bytes === null || bytes === "too_large" || bytes.byteLength !== length)
      return refuse(400, "invalid_request", "The chunk's length does not match its Content-Range.", {
        code: "invalidParameter",
      });
    const complete = total !== null && last + 1 === total;
    if (!complete && length % CHUNK_UNIT !== 0)
      return refuse(400, "invalid_request", "Every chunk but the last must be a multiple of 256 KB.", {
        code: "invalidParameter",
      });
    if (!complete) {
      await emulated.updateObject(object.id, { received: last + 1 });
      return incomplete(last + 1);
    }
    const caller = { handle: object.handle };
    const videoId = newVideoId();
    const single = first === 0;
    const url = single
      ? await emulated.storeMedia(videoId, bytes, session.type === "video/*" ? "video/mp4" : session.type)
      : `${emulated.base}/media/${videoId}`;
    const published = await emulated.publish({
      id: videoId,
      handle: caller.handle,
      items: [{ text: session.metadata.snippet.description ?? "", media: [{ url, type: session.type }] }],
      platformRequest: session.metadata,
    });
    await emulated.updateObject(
      object.id,
      { received: total, videoId: published.id },
      emulated.readyAt(session.text),
    );
    if (session.lost) return lostAnswer(201);
    const post = (await emulated.post(published.id))!;
    return c.json(
      await videoOf(emulated, post, new Set([...session.part.split(","), "snippet", "status"]), true),
      201,
    );
  })

  // videos.list by id: what the caller may see of each.
  .get("/youtube/v3/videos", async (c) => {
    const emulated = emulate(c, "youtube");
    const caller = await emulated.caller();
    const parts = partsOf(c, [
      "id",
      "snippet",
      "status",
      "statistics",
      "contentDetails",
      "processingDetails",
      "player",
      "topicDetails",
      "recordingDetails",
      "fileDetails",
      "liveStreamingDetails",
      "localizations",
      "suggestions",
    ]);
    const ids = c.req.query("id");
    if (!ids)
      return refuse(400, "invalid_request", "No filter selected. Expected one of: id, myRating, chart", {
        code: "missingRequiredParameter",
      });
    const list = ids.split(",").filter((id) => id !== "");
    if (list.length > 50)
      return refuse(400, "invalid_request", "At most 50 ids at a time.", { code: "invalidParameter" });
    const items = [];
    for (const id of list) {
      const seen = await visibleVideo(emulated, caller, id);
      if (seen) items.push(await videoOf(emulated, seen.post, parts, seen.owner));
    }
    return c.json(listAnswer("youtube#videoListResponse", items, items.length, items.length));
  })

  // playlistItems.list: the caller's uploads playlist, newest first.
  .get("/youtube/v3/playlistItems", async (c) => {
    const emulated = emulate(c, "youtube");
    const caller = await emulated.caller();
    const parts = partsOf(c, ["id", "snippet", "contentDetails", "status"]);
    const playlistId = c.req.query("playlistId");
    if (!playlistId)
      return refuse(400, "invalid_request", "No filter selected. Expected one of: id, playlistId", {
        code: "missingRequiredParameter",
      });
    const channelId = caller.platformId;
    if (playlistId !== uploadsOf(channelId))
      return refuse(
        404,
        "not_found",
        "The playlist identified with the request's playlistId parameter cannot be found.",
        {
          code: "playlistNotFound",
        },
      );
    const size = maxResultsOf(c, 5, 50);
    const videos = (await emulated.posts(caller.handle)).reverse();
    const { page, next, total } = paged(c, videos, size);
    const items = page.map((post, index) => {
      const request = post.platform_request as VideoResource;
      const item: Record<string, unknown> = {
        kind: "youtube#playlistItem",
        etag: etag(),
        id: toBase64Url(new TextEncoder().encode(`${playlistId}.${post.id}`)),
      };
      if (parts.has("snippet"))
        item.snippet = {
          publishedAt: post.published_at,
          channelId,
          title: request.snippet.title,
          description: request.snippet.description ?? "",
          channelTitle: caller.handle,
          playlistId,
          position: index,
          resourceId: { kind: "youtube#video", videoId: post.id },
        };
      if (parts.has("contentDetails"))
        item.contentDetails = { videoId: post.id, videoPublishedAt: post.published_at };
      if (parts.has("status")) item.status = { privacyStatus: request.status?.privacyStatus ?? "public" };
      return item;
    });
    return c.json(listAnswer("youtube#playlistItemListResponse", items, size, total, next));
  })

  // commentThreads.list by video: the audience's comments and the channels' own, newest first.
  .get("/youtube/v3/commentThreads", async (c) => {
    const emulated = emulate(c, "youtube");
    const caller = await emulated.caller();
    partsOf(c, ["id", "snippet", "replies"]);
    const videoId = c.req.query("videoId");
    if (!videoId)
      return refuse(
        400,
        "invalid_request",
        "No filter selected. Expected one of: videoId, allThreadsRelatedToChannelId, id",
        {
          code: "missingRequiredParameter",
        },
      );
    const seen = await visibleVideo(emulated, caller, videoId);
    if (!seen)
      return refuse(404, "not_found", "The video identified by the videoId parameter could not be found.", {
        code: "videoNotFound",
      });
    const channelId = await emulated.platformId(seen.post.handle);
    const audience = ((await emulated.comments(videoId)) ?? []).map(async (comment) => ({
      at: comment.created_at,
      thread: threadOf(
        videoId,
        channelId,
        {
          id: comment.id,
          text: comment.text,
          name: comment.author.name,
          username: comment.author.username,
          authorId: await sandboxPlatformId("youtube", comment.author.username),
          at: new Date(comment.created_at).toISOString(),
        },
        false,
      ),
    }));
    const own = (await emulated.replies(videoId)).map(async (reply) => ({
      at: Date.parse(reply.published_at),
      thread: threadOf(
        videoId,
        channelId,
        {
          id: reply.id,
          text: reply.text.join("\n"),
          name: reply.handle,
          username: reply.handle,
          authorId: await emulated.platformId(reply.handle),
          at: reply.published_at,
        },
        reply.handle === caller.handle,
      ),
    }));
    const order = c.req.query("order") ?? "time";
    const all = (await Promise.all([...audience, ...own])).sort((a, b) => b.at - a.at).map((t) => t.thread);
    if (order !== "time" && order !== "relevance")
      return refuse(400, "invalid_request", `Invalid value '${order}' for order.`, {
        code: "invalidParameter",
      });
    const { page, next } = paged(c, all, maxResultsOf(c, 20, 100));
    return c.json(listAnswer("youtube#commentThreadListResponse", page, page.length, all.length, next));
  })

  // commentThreads.insert: a top-level comment on a video the caller can see.
  .post("/youtube/v3/commentThreads", async (c) => {
    const emulated = emulate(c, "youtube");
    const caller = await emulated.caller();
    partsOf(c, ["id", "snippet", "replies"]);
    const body = await emulated.json(commentThreadInsert);
    const text = body.snippet.topLevelComment.snippet.textOriginal;
    checkCommentText(text);
    const seen = await visibleVideo(emulated, caller, body.snippet.videoId);
    if (!seen)
      return refuse(404, "not_found", "The video identified by the videoId parameter could not be found.", {
        code: "videoNotFound",
      });
    const channelId = await emulated.platformId(seen.post.handle);
    if (body.snippet.channelId !== undefined && body.snippet.channelId !== channelId)
      return refuse(400, "invalid_request", "The channelId is not the channel of the video.", {
        code: "invalidChannelId",
      });
    const outcome = await emulated.attempt(caller.handle, `comment:${body.snippet.videoId}:${text}`, text);
    const published = await emulated.publish({
      id: newThreadId(),
      handle: caller.handle,
      items: [{ text, media: [] }],
      platformRequest: body,
      parentId: body.snippet.videoId,
    });
    if (outcome === "lost") return lostAnswer();
    return c.json(
      threadOf(
        body.snippet.videoId,
        channelId,
        {
          id: published.id,
          text,
          name: caller.handle,
          username: caller.handle,
          authorId: caller.platformId,
          at: new Date(published.publishedAt).toISOString(),
        },
        true,
      ),
    );
  })

  // comments.insert: a reply to a comment thread (one of the sandbox's own threads).
  .post("/youtube/v3/comments", async (c) => {
    const emulated = emulate(c, "youtube");
    const caller = await emulated.caller();
    partsOf(c, ["id", "snippet"]);
    const body = await emulated.json(commentInsert);
    checkCommentText(body.snippet.textOriginal);
    const parent = await emulated.post(body.snippet.parentId);
    if (!parent || parent.parent_id === null)
      return refuse(
        404,
        "not_found",
        "The comment identified by the parentId parameter could not be found.",
        {
          code: "parentCommentNotFound",
        },
      );
    const text = body.snippet.textOriginal;
    const outcome = await emulated.attempt(caller.handle, `reply:${parent.id}:${text}`, text);
    const published = await emulated.publish({
      id: `${parent.id}.${randomId(22)}`,
      handle: caller.handle,
      items: [{ text, media: [] }],
      platformRequest: body,
      parentId: parent.id,
    });
    if (outcome === "lost") return lostAnswer();
    const at = new Date(published.publishedAt).toISOString();
    return c.json({
      kind: "youtube#comment",
      etag: etag(),
      id: published.id,
      snippet: {
        channelId: await emulated.platformId(caller.handle),
        textDisplay: text,
        textOriginal: text,
        parentId: parent.id,
        authorDisplayName: `@${caller.handle}`,
        authorChannelUrl: `http://www.youtube.com/@${encodeURIComponent(caller.handle)}`,
        authorChannelId: { value: caller.platformId },
        canRate: true,
        viewerRating: "none",
        likeCount: 0,
        publishedAt: at,
        updatedAt: at,
      },
    });
  })

  // The watch page (the adapter's post_url): the sandbox's page of the video.
  .get("/watch", (c) => {
    const emulated = emulate(c, "youtube");
    const id = c.req.query("v");
    if (!id) return c.notFound();
    return c.redirect(emulated.postUrl(id), 302);
  });
