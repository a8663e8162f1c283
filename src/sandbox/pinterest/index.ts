// Pinterest API v5 as developers.pinterest.com documents it, for the real adapter (src/platforms/pinterest/)
// on the sandbox: the token endpoint (HTTP Basic client authentication, continuous refresh), the user
// account, boards, Pins (image URL, Base64 image, 2 to 5 images, a registered video), the video media
// registration with its storage form POST and status, the account's Pins and a Pin's analytics. Errors are
// Pinterest's `{code, message}`, a 429 carries its x-ratelimit-* headers. Pinterest has no API for a Pin's
// comments, so none is emulated. docs/platforms.md › Pinterest › The emulator names each page followed.
import type { Context } from "hono";
import { z } from "zod";
import type { BareEnv } from "../../http/env";
import { timingSafeEqualText } from "../../lib/crypto";
import { digits } from "../../platforms/sandbox/ids";
import { SANDBOX_SHAPES } from "../../platforms/sandbox/shapes";
import type { PostMetrics } from "../../platforms/types";
import { isProblem, readForm } from "../body";
import {
  emulate,
  emulatorRouter,
  isReady,
  type LedgerPost,
  lostAnswer,
  type Problem,
  refuse,
} from "../emulator";
import { redeemCode, redeemRefresh } from "../grants";
import { metricsAt, minutesSince, postSeed } from "../metrics";
import { grantLedger } from "../token-routes";
import { sandboxBoards } from "./boards";
import { LIMITS } from "./rules";

type Ctx = Context<BareEnv>;
type Emulated = ReturnType<typeof emulate>;

/** Where Pinterest's media registration sends the bytes (declared as the adapter's `upload` host). */
export const UPLOAD_URL = "https://pinterest-media-upload.s3-accelerate.amazonaws.com/";
/** How long Pinterest processes an uploaded video in the sandbox (#sandbox-slow: 150 s). */
export const VIDEO_PROCESSING_MS = 0;
/** The largest video the storage form takes here (its policy's content-length-range). */
export const UPLOAD_MAX_BYTES = 64 * 1024 * 1024;
/** Pinterest reports a Pin's analytics at most this many days back. */
const ANALYTICS_MAX_DAYS = 90;
const DAY_MS = 86_400_000;
const MEDIA_KIND = "pinterest_media";

// Pinterest's error codes, as its answers carry them.
const CODE = {
  authentication: 2,
  invalidParameters: 1,
  rateLimited: 8,
  boardNotFound: 40,
  pinNotFound: 50,
  invalidGrant: 283,
} as const;

/** Pinterest's error answer: `{code, message}`; a 429 with its rate-limit headers. */
function pinterestError(problem: Problem): Response {
  const headers = new Headers({ "content-type": "application/json" });
  let code: number;
  let message = problem.message;
  switch (problem.reason) {
    case "invalid_token":
    case "expired_token":
    case "revoked_token":
      code = CODE.authentication;
      message = `Authentication failed. ${problem.message}`;
      break;
    case "rate_limited": {
      code = CODE.rateLimited;
      const reset = problem.retryAfterSeconds ?? 60;
      headers.set("x-ratelimit-limit", "100, 100;w=1");
      headers.set("x-ratelimit-remaining", "0");
      headers.set("x-ratelimit-reset", String(reset));
      break;
    }
    case "invalid_request":
    case "rejected":
    case "too_large":
      code = CODE.invalidParameters;
      break;
    default:
      code = problem.status;
  }
  if (typeof problem.code === "number") code = problem.code;
  return new Response(JSON.stringify({ code, message }), { status: problem.status, headers });
}

// ---- OAuth: POST /v5/oauth/token ----

/** The client of a token request: Pinterest takes it only as HTTP Basic. */
function basicClient(header: string | undefined) {
  const match = /^Basic\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match) return null;
  try {
    const decoded = atob(match[1]!);
    const colon = decoded.indexOf(":");
    return colon < 0 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  } catch {
    return null;
  }
}

async function token(c: Ctx) {
  const params = await readForm(c.req.raw);
  if (isProblem(params))
    return refuse(params.kind === "too_large" ? 413 : 400, "invalid_request", "Invalid request body.");
  const expected = emulate(c, "pinterest").client;
  const client = basicClient(c.req.header("authorization"));
  if (
    !client ||
    client.id !== expected.clientId ||
    !timingSafeEqualText(client.secret, expected.clientSecret)
  )
    return refuse(401, "invalid_token", "The client credentials are not valid.", {
      code: CODE.authentication,
    });
  const ledger = grantLedger(c.env, "pinterest");
  const grant = params.get("grant_type");
  const result =
    grant === "authorization_code"
      ? await redeemCode(c.env, "pinterest", client.id, params, ledger)
      : grant === "refresh_token"
        ? await redeemRefresh(c.env, "pinterest", client.id, params, ledger)
        : null;
  if (result === null)
    return refuse(400, "invalid_request", `Invalid grant_type: ${grant ?? "(missing)"}.`, {
      code: CODE.invalidParameters,
    });
  if (!result.ok) return refuse(400, "invalid_request", result.description, { code: CODE.invalidGrant });
  return c.json(result.body);
}

// ---- The account and its boards ----

async function userAccount(c: Ctx) {
  const e = emulate(c, "pinterest");
  const me = await e.caller();
  const boards = await sandboxBoards(me.handle);
  return c.json({
    ...SANDBOX_SHAPES.pinterest.identityResponse(me.platformId, me.handle),
    board_count: boards.length,
    pin_count: (await e.posts(me.handle)).length,
  });
}

async function boards(c: Ctx) {
  const e = emulate(c, "pinterest");
  const me = await e.caller();
  const privacy = c.req.query("privacy");
  const items = (await sandboxBoards(me.handle))
    .filter((board) => !privacy || board.privacy === privacy)
    .map((board) => ({
      id: board.id,
      name: board.name,
      description: board.description,
      privacy: board.privacy,
      owner: { username: me.handle },
      created_at: "2025-01-01T00:00:00",
      board_pins_modified_at: null,
      collaborator_count: 0,
      follower_count: 0,
      pin_count: null,
      media: { image_cover_url: null, pin_thumbnail_urls: [] },
    }));
  return c.json({ items, bookmark: null });
}

// ---- Pins ----

const id = z.string().regex(/^\d+$/, "must be a string of digits");
const standard = { is_standard: z.boolean().optional() };
const base64Image = {
  content_type: z.enum(["image/jpeg", "image/png"]),
  data: z.string().regex(/^[a-zA-Z0-9+/=]+$/),
};
const itemText = {
  title: z.string().optional(),
  description: z.string().optional(),
  link: z.string().optional(),
};
const mediaSource = z.discriminatedUnion("source_type", [
  z.looseObject({ source_type: z.literal("image_url"), url: z.string().min(1), ...standard }),
  z.looseObject({ source_type: z.literal("image_base64"), ...base64Image, ...standard }),
  z.looseObject({
    source_type: z.literal("multiple_image_urls"),
    items: z
      .array(z.looseObject({ url: z.string().min(1), ...itemText }))
      .min(2)
      .max(5),
    index: z.number().int().min(0).optional(),
  }),
  z.looseObject({
    source_type: z.literal("multiple_image_base64"),
    items: z
      .array(z.looseObject({ ...base64Image, ...itemText }))
      .min(2)
      .max(5),
    index: z.number().int().min(0).optional(),
  }),
  z.looseObject({
    source_type: z.literal("video_id"),
    media_id: id,
    cover_image_url: z.string().optional(),
    cover_image_key_frame_time: z.number().int().min(0).optional(),
    cover_image_data: z.string().optional(),
    cover_image_content_type: z.enum(["image/jpeg", "image/png"]).optional(),
    ...standard,
  }),
]);
const createPin = z.looseObject({
  board_id: id,
  board_section_id: id.nullish(),
  title: z.string().max(LIMITS.title).nullish(),
  description: z.string().max(LIMITS.description).nullish(),
  link: z.string().max(LIMITS.link).nullish(),
  alt_text: z.string().max(LIMITS.alt_text).nullish(),
  dominant_color: z.string().nullish(),
  parent_pin_id: id.nullish(),
  media_source: mediaSource,
});
type CreatePin = z.infer<typeof createPin>;

const isWebUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
const imageType = (url: string) => (/\.png(?:$|[?#])/i.test(url) ? "image/png" : "image/jpeg");

function requireWebUrl(url: string, field: string) {
  if (!isWebUrl(url))
    refuse(400, "invalid_request", `Invalid request: ${field}: the image URL is not a valid http(s) URL.`);
}

/** What a Pin's page shows, with the Pin's media stored where Pinterest received bytes. */
async function ledgerMedia(e: Emulated, me: string, body: CreatePin) {
  const source = body.media_source;
  switch (source.source_type) {
    case "image_url":
      requireWebUrl(source.url, "media_source.url");
      return { kind: "image", media: [{ url: source.url, type: imageType(source.url) }] };
    case "multiple_image_urls":
      source.items.forEach((item, index) => {
        requireWebUrl(item.url, `media_source.items.${index}.url`);
      });
      return {
        kind: "multiple_images",
        media: source.items.map((item) => ({ url: item.url, type: imageType(item.url) })),
      };
    case "image_base64":
      return {
        kind: "image",
        media: [await storeBase64(e, source.data, source.content_type)],
      };
    case "multiple_image_base64":
      return {
        kind: "multiple_images",
        media: await Promise.all(source.items.map((item) => storeBase64(e, item.data, item.content_type))),
      };
    case "video_id": {
      const video = await e.object(source.media_id);
      if (!video || video.kind !== MEDIA_KIND || video.handle !== me)
        return refuse(404, "not_found", "Media not found.", { code: 404 });
      if (mediaStatus(video) !== "succeeded")
        return refuse(
          400,
          "invalid_request",
          "The video is not processed yet: its media status is not succeeded.",
        );
      const media = [{ url: String(video.data.url), type: String(video.data.type) }];
      if (source.cover_image_url) {
        requireWebUrl(source.cover_image_url, "media_source.cover_image_url");
        media.push({ url: source.cover_image_url, type: imageType(source.cover_image_url) });
      }
      return { kind: "video", media };
    }
  }
}

async function storeBase64(e: Emulated, data: string, type: string) {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(data), (char) => char.charCodeAt(0));
  } catch {
    return refuse(400, "invalid_request", "Invalid request: the image data is not Base64.");
  }
  const url = await e.storeMedia(`image-${crypto.randomUUID()}`, bytes, type);
  return { url, type };
}

const CREATIVE_TYPE = { image: "REGULAR", multiple_images: "CAROUSEL", video: "VIDEO" } as const;

/** The Pin model as Pinterest answers it. */
function pinOf(post: LedgerPost) {
  const body = post.platform_request as CreatePin & { kind?: string };
  const kind =
    (post.media.some((m) => m.type.startsWith("video/")) ? "video" : undefined) ??
    (post.media.length > 1 ? "multiple_images" : "image");
  const images = (url: string) => ({
    "150x150": { width: 150, height: 150, url },
    "400x300": { width: 400, height: 300, url },
    "600x": { width: 600, height: 600, url },
    "1200x": { width: 1200, height: 1200, url },
  });
  const first = post.media[0]?.url ?? "";
  const media =
    kind === "video"
      ? {
          media_type: "video",
          cover_image_url: post.media[1]?.url ?? first,
          video_url: first,
          duration: null,
          height: null,
          width: null,
        }
      : kind === "multiple_images"
        ? {
            media_type: "multiple_images",
            items: post.media.map((m) => ({ item_type: "image", images: images(m.url) })),
          }
        : { media_type: "image", images: images(first) };
  return {
    id: post.id,
    created_at: post.published_at.replace(/\.\d+Z$|Z$/, ""),
    link: body.link ?? null,
    title: body.title ?? null,
    description: body.description ?? null,
    dominant_color: body.dominant_color ?? "#6E7874",
    alt_text: body.alt_text ?? null,
    creative_type: CREATIVE_TYPE[kind],
    board_id: body.board_id,
    board_section_id: body.board_section_id ?? null,
    board_owner: { username: post.handle },
    is_owner: true,
    media,
    parent_pin_id: null,
    is_standard: true,
    has_been_promoted: false,
    note: "",
    pin_metrics: null,
  };
}

async function createPinRoute(c: Ctx) {
  const e = emulate(c, "pinterest");
  const me = await e.caller();
  const body = await e.json(createPin);
  const board = (await sandboxBoards(me.handle)).find((b) => b.id === body.board_id);
  if (!board) return refuse(404, "not_found", "Board not found.", { code: CODE.boardNotFound });
  const text = body.description ?? "";
  const outcome = await e.attempt(me.handle, `pin:${body.board_id}:${text}:${body.title ?? ""}`, text);
  const { media } = await ledgerMedia(e, me.handle, body);
  const created = await e.publish({
    handle: me.handle,
    id: digits(crypto.getRandomValues(new Uint8Array(16)), 18),
    items: [{ text, media }],
    platformRequest: body,
  });
  if (outcome === "lost") return lostAnswer(201);
  const post = await e.post(created.id);
  return c.json(pinOf(post!), 201);
}

/** The caller's Pin, or Pinterest's refusal: 404 when there is none, 403 when it is someone else's. */
async function ownPin(e: Emulated, handle: string, pinId: string) {
  const post = /^\d+$/.test(pinId) ? await e.post(pinId) : null;
  if (!post || post.parent_id !== null) return refuse(404, "not_found", "Pin not found.", { code: 404 });
  if (post.handle !== handle)
    return refuse(403, "forbidden", "Not authorized to access board or Pin.", { code: 403 });
  return post;
}

async function listPins(c: Ctx) {
  const e = emulate(c, "pinterest");
  const me = await e.caller();
  const size = c.req.query("page_size") ?? "25";
  if (!/^\d+$/.test(size) || Number(size) < 1 || Number(size) > 250)
    return refuse(400, "invalid_request", "Invalid request: page_size must be between 1 and 250.");
  const bookmark = c.req.query("bookmark");
  const offset = bookmark ? Number.parseInt(atobSafe(bookmark), 10) : 0;
  if (!Number.isInteger(offset) || offset < 0)
    return refuse(400, "invalid_request", "Invalid request: the bookmark is not valid.");
  // Newest first, as Pinterest lists a user's Pins.
  const all = (await e.posts(me.handle)).reverse();
  const page = all.slice(offset, offset + Number(size));
  const next = offset + page.length < all.length ? btoa(String(offset + page.length)) : null;
  return c.json({ items: page.map(pinOf), bookmark: next });
}

const atobSafe = (value: string) => {
  try {
    return atob(value);
  } catch {
    return "";
  }
};

async function getPin(c: Ctx) {
  const e = emulate(c, "pinterest");
  const me = await e.caller();
  return c.json(pinOf(await ownPin(e, me.handle, c.req.param("pin_id") ?? "")));
}

// ---- Pin analytics ----

const STANDARD_METRICS = [
  "IMPRESSION",
  "OUTBOUND_CLICK",
  "PIN_CLICK",
  "SAVE",
  "SAVE_RATE",
  "TOTAL_COMMENTS",
  "TOTAL_REACTIONS",
  "USER_FOLLOW",
  "PROFILE_VISIT",
  "VIDEO_MRC_VIEW",
  "VIDEO_10S_VIEW",
  "QUARTILE_95_PERCENT_VIEW",
  "VIDEO_V50_WATCH_TIME",
  "VIDEO_START",
  "VIDEO_AVG_WATCH_TIME",
] as const;
type Metric = (typeof STANDARD_METRICS)[number];
/** Reported over the Pin's lifetime only. */
const LIFETIME: ReadonlySet<Metric> = new Set(["TOTAL_COMMENTS", "TOTAL_REACTIONS"]);

/** The sandbox's generic counts in Pinterest's metric names. */
function pinterestMetrics(m: PostMetrics, video: boolean): Record<Metric, number> {
  const views = video ? Math.floor(m.impressions / 3) : 0;
  return {
    IMPRESSION: m.impressions,
    SAVE: m.saves,
    SAVE_RATE: m.impressions > 0 ? Math.round((m.saves / m.impressions) * 10_000) / 10_000 : 0,
    PIN_CLICK: Math.floor(m.impressions / 20),
    OUTBOUND_CLICK: Math.floor(m.impressions / 50),
    TOTAL_COMMENTS: m.comments,
    TOTAL_REACTIONS: m.likes,
    USER_FOLLOW: Math.floor(m.likes / 10),
    PROFILE_VISIT: Math.floor(m.impressions / 40),
    VIDEO_MRC_VIEW: views,
    VIDEO_10S_VIEW: Math.floor(views / 2),
    QUARTILE_95_PERCENT_VIEW: Math.floor(views / 4),
    VIDEO_V50_WATCH_TIME: views * 4_000,
    VIDEO_START: video ? Math.floor(m.impressions / 2) : 0,
    VIDEO_AVG_WATCH_TIME: views > 0 ? 4_000 : 0,
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

async function analytics(c: Ctx) {
  const e = emulate(c, "pinterest");
  const me = await e.caller();
  const post = await ownPin(e, me.handle, c.req.param("pin_id") ?? "");
  const invalid = (why: string) =>
    refuse(400, "invalid_request", `Invalid pins analytics parameters: ${why}`, { code: 400 });
  const start = c.req.query("start_date") ?? "";
  const end = c.req.query("end_date") ?? "";
  if (
    !DATE.test(start) ||
    !DATE.test(end) ||
    Number.isNaN(Date.parse(start)) ||
    Number.isNaN(Date.parse(end))
  )
    return invalid("start_date and end_date are required, as YYYY-MM-DD.");
  const from = Date.parse(`${start}T00:00:00Z`);
  const to = Date.parse(`${end}T00:00:00Z`);
  const today = Date.parse(`${dayOf(Date.now())}T00:00:00Z`);
  if (to < from) return invalid("end_date is before start_date.");
  if (from < today - ANALYTICS_MAX_DAYS * DAY_MS)
    return invalid("start_date is more than 90 days back from today.");
  if (to > from + ANALYTICS_MAX_DAYS * DAY_MS)
    return invalid("end_date is more than 90 days past start_date.");
  const types = (c.req.query("metric_types") ?? "").split(",").filter((t) => t !== "");
  if (types.length === 0) return invalid("metric_types is required.");
  const unknown = types.find((t) => !(STANDARD_METRICS as readonly string[]).includes(t));
  if (unknown) return invalid(`unknown metric type ${unknown}.`);
  const appTypes = c.req.query("app_types") ?? "ALL";
  if (!["ALL", "MOBILE", "TABLET", "WEB"].includes(appTypes)) return invalid("app_types is not valid.");
  const split = c.req.query("split_field") ?? "NO_SPLIT";
  if (split !== "NO_SPLIT") return invalid("the sandbox reports NO_SPLIT only.");

  const video = post.media.some((m) => m.type.startsWith("video/"));
  const seed = await postSeed("pinterest", post.id);
  const published = Date.parse(post.published_at);
  const now = Date.now();
  /** The Pin's counts at `time` (none before it existed), in Pinterest's names. */
  const countsAt = (time: number): PostMetrics | null =>
    time <= published ? null : metricsAt("pinterest", seed, minutesSince(published, Math.min(time, now)));
  /** The counts gained between `a` and `b`, as Pinterest reports a period. */
  const gained = (a: number, b: number) => {
    const high = countsAt(b);
    const low = countsAt(a);
    const minus = (key: keyof PostMetrics) => Math.max(0, (high?.[key] ?? 0) - (low?.[key] ?? 0));
    return pinterestMetrics(
      {
        impressions: minus("impressions"),
        saves: minus("saves"),
        likes: minus("likes"),
        comments: minus("comments"),
        shares: minus("shares"),
        quotes: minus("quotes"),
        engagement_rate: 0,
      },
      video,
    );
  };
  const requested = types as Metric[];
  const periodic = requested.filter((m) => !LIFETIME.has(m));
  const pick = (values: Record<Metric, number>, metrics: Metric[]) =>
    Object.fromEntries(metrics.map((m) => [m, values[m]]));
  const daily = [];
  for (let day = from; day <= to; day += DAY_MS) {
    const status = day + DAY_MS <= published ? "BEFORE_PIN_CREATED" : day > now ? "PROCESSING" : "READY";
    const metrics = status === "READY" ? pick(gained(day, day + DAY_MS), periodic) : {};
    daily.push({ date: dayOf(day), data_status: status, metrics });
  }
  const lifetime = pinterestMetrics((await e.metrics(post.id)) ?? metricsAt("pinterest", seed, 0), video);
  return c.json({
    all: {
      daily_metrics: daily,
      summary_metrics: pick(gained(from, to + DAY_MS), periodic),
      lifetime_metrics: pick(
        lifetime,
        requested.filter((m) => LIFETIME.has(m)),
      ),
    },
  });
}

// ---- Video media: registration, the storage form POST, status ----

type MediaObject = NonNullable<Awaited<ReturnType<Emulated["object"]>>>;

/** registered until the bytes arrive, then processing until ready, then succeeded. */
function mediaStatus(media: MediaObject): "registered" | "processing" | "succeeded" | "failed" {
  if (media.data.uploaded !== true) return "registered";
  return isReady(media) ? "succeeded" : "processing";
}

const registerMedia = z.object({ media_type: z.literal("video") });

async function registerMediaRoute(c: Ctx) {
  const e = emulate(c, "pinterest");
  const me = await e.caller();
  await e.json(registerMedia);
  const mediaId = digits(crypto.getRandomValues(new Uint8Array(16)), 19);
  const key = `uploads/sandbox/${me.platformId}:video:${mediaId}`;
  const signature = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
  const now = new Date();
  const amzDate = `${now.toISOString().replace(/[-:]/g, "").slice(0, 15)}Z`;
  await e.createObject({
    id: mediaId,
    handle: me.handle,
    kind: MEDIA_KIND,
    data: { key, signature, uploaded: false },
    // Not ready before its bytes arrive: the upload sets its processing time.
    readyAt: Number.MAX_SAFE_INTEGER,
  });
  return c.json(
    {
      media_id: mediaId,
      media_type: "video",
      upload_url: UPLOAD_URL,
      upload_parameters: {
        "x-amz-date": amzDate,
        "x-amz-signature": signature,
        "x-amz-security-token": "sandbox",
        "x-amz-algorithm": "AWS4-HMAC-SHA256",
        key,
        policy: btoa(JSON.stringify({ expiration: new Date(Date.now() + DAY_MS).toISOString() })),
        "x-amz-credential": `SANDBOX/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request`,
        "Content-Type": "multipart/form-data",
      },
    },
    201,
  );
}

async function mediaRoute(c: Ctx) {
  const e = emulate(c, "pinterest");
  const me = await e.caller();
  const mediaId = c.req.param("media_id") ?? "";
  const media = /^\d+$/.test(mediaId) ? await e.object(mediaId) : null;
  if (!media || media.kind !== MEDIA_KIND || media.handle !== me.handle)
    return refuse(404, "not_found", "Media upload not found.", { code: 404 });
  return c.json({ media_id: media.id, media_type: "video", status: mediaStatus(media) });
}

/** The storage's own error answer (S3's XML). */
const s3Error = (status: number, code: string, message: string) =>
  new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>sandbox</RequestId></Error>`,
    { status, headers: { "content-type": "application/xml" } },
  );

/** The storage form POST of upload_url: the upload_parameters, then `file`; 204 when stored. */
async function storageUpload(c: Ctx) {
  const e = emulate(c, "pinterest");
  const length = Number(c.req.header("content-length") ?? Number.NaN);
  if (!Number.isFinite(length))
    return s3Error(411, "MissingContentLength", "You must provide the Content-Length HTTP header.");
  if (length > UPLOAD_MAX_BYTES)
    return s3Error(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size");
  if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data"))
    return s3Error(
      412,
      "PreconditionFailed",
      "Bucket POST must be of the enclosure-type multipart/form-data",
    );
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch {
    return s3Error(
      400,
      "MalformedPOSTRequest",
      "The body of your POST request is not well-formed multipart/form-data.",
    );
  }
  const key = form.get("key");
  const file = form.get("file");
  if (typeof key !== "string")
    return s3Error(400, "InvalidArgument", "Bucket POST must contain a field named 'key'.");
  const mediaId = /:video:(\d+)$/.exec(key)?.[1];
  const media = mediaId ? await e.object(mediaId) : null;
  if (
    !media ||
    media.kind !== MEDIA_KIND ||
    media.data.key !== key ||
    typeof form.get("x-amz-signature") !== "string" ||
    !timingSafeEqualText(String(form.get("x-amz-signature")), String(media.data.signature)) ||
    typeof form.get("policy") !== "string"
  )
    return s3Error(403, "AccessDenied", "Invalid according to Policy: Policy Condition failed");
  if (!(file instanceof File))
    return s3Error(400, "InvalidArgument", "POST requires exactly one file upload per request.");
  const type = file.type || "video/mp4";
  const url = await e.storeMedia(media.id, file.stream(), type);
  await e.updateObject(
    media.id,
    { uploaded: true, url, type, name: file.name },
    e.readyAt(file.name, VIDEO_PROCESSING_MS),
  );
  return new Response(null, { status: 204 });
}

export const pinterestEmulator = emulatorRouter(pinterestError);

pinterestEmulator
  .post("/v5/oauth/token", (c) => token(c))
  .get("/v5/user_account", (c) => userAccount(c))
  .get("/v5/boards", (c) => boards(c))
  .post("/v5/pins", (c) => createPinRoute(c))
  .get("/v5/pins", (c) => listPins(c))
  .get("/v5/pins/:pin_id", (c) => getPin(c))
  .get("/v5/pins/:pin_id/analytics", (c) => analytics(c))
  .post("/v5/media", (c) => registerMediaRoute(c))
  .get("/v5/media/:media_id", (c) => mediaRoute(c))
  // A Pin's page on the site (www.pinterest.com/pin/{id}/): the sandbox's page of the post.
  .get("/pin/:pin_id/", (c) => c.redirect(`${emulate(c, "pinterest").postUrl(c.req.param("pin_id"))}`, 302))
  // upload_url, on the storage host the adapter declares (HOSTS.upload): its root, `/sandbox/pinterest/`.
  .post("/*", async (c, next) => {
    if (new URL(c.req.url).pathname === "/sandbox/pinterest/") return storageUpload(c);
    await next();
  });
