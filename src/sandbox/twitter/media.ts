// X's media upload (docs.x.com › X API › Media): initialize (POST /2/media/upload/initialize), append
// each segment (POST /2/media/upload/{id}/append, multipart `media` or base64 `media_data`, with its
// `segment_index`), finalize (POST /2/media/upload/{id}/finalize: the segments must add up to
// `total_bytes`; a video or GIF then processes, `processing_info` says when to look again) and the status
// (GET /2/media/upload?command=STATUS&media_id=…). A media id is for its owner only and expires after a
// day (`expires_after_secs` on every answer, `expires_at` on an append; past it X refuses the upload and
// the id); the bytes are kept so the post's page shows them. #sandbox-slow: X's upload never sees the
// post's text, so a file whose name carries the tag (the appended `media` part's file name) processes for
// 150 s, as Pinterest's emulator reads its upload's name.
import { z } from "zod";
import { readCapped } from "../../lib/capped-body";
import { type Emulated, isReady, type LedgerObject, refuse } from "../emulator";
import { isSlow, SLOW_PROCESSING_MS } from "../triggers";
import {
  CATEGORIES,
  type Category,
  MAX_CHECK_AFTER_SECS,
  MAX_SEGMENT_INDEX,
  MEDIA_EXPIRES_SECONDS,
  SEGMENT_MAX_BYTES,
  snowflake,
} from "./rules";

export const MEDIA_KIND = "x_media";
/** How long X takes to process a video or GIF in the emulator (#sandbox-slow: SLOW_PROCESSING_MS). */
export const PROCESSING_MS = 1000;
/** Bytes put together to show on the post's page (above this, the first segment is shown). */
const ASSEMBLE_MAX_BYTES = 24 * 1024 * 1024;

/** The category X assumes when none is given, from the media type. */
const categoryOf = (type: string): Category =>
  type === "image/gif" ? "tweet_gif" : type.startsWith("video/") ? "tweet_video" : "tweet_image";

export const initializeBody = z
  .object({
    media_type: z.string().min(1).max(100),
    total_bytes: z.number().int().min(1),
    media_category: z.enum(Object.keys(CATEGORIES) as [Category, ...Category[]]).optional(),
    additional_owners: z
      .array(z.string().regex(/^\d{1,19}$/))
      .max(100)
      .optional(),
    shared: z.boolean().optional(),
  })
  .strict();

/** What the emulator keeps of a media upload (its object's data). */
export type XMedia = {
  media_type: string;
  total_bytes: number;
  category: Category;
  media_key: string;
  owner: string;
  additional_owners: string[];
  /** Bytes received per segment index. */
  segments: Record<string, number>;
  finalized: boolean;
  /** A segment came in a file whose name carries #sandbox-slow: processing takes 150 s. */
  slow?: boolean;
  /** Where the post's page shows it, once finalized. */
  url?: string;
  /** When X drops it (ms): a day after its initialize, then a day after its finalize. */
  expires_at?: number;
};

export const mediaOf = (object: LedgerObject) => object.data as unknown as XMedia;

const processes = (media: XMedia) => media.category !== "tweet_image";

const expiresAt = (object: LedgerObject) =>
  mediaOf(object).expires_at ?? object.createdAt + MEDIA_EXPIRES_SECONDS * 1000;

const expiresAfter = (object: LedgerObject) =>
  Math.max(0, Math.floor((expiresAt(object) - Date.now()) / 1000));

export const expired = (object: LedgerObject) => expiresAfter(object) <= 0;

/** The upload `id` as the caller may use it: its own (or shared with it), else X's not-found. */
export async function ownMedia(x: Emulated, id: string, handle: string, userId: string) {
  if (!/^\d{1,19}$/.test(id)) refuse(400, "invalid_request", `The \`media_id\` value [${id}] is not valid.`);
  const object = await x.object(id);
  const media = object?.kind === MEDIA_KIND ? mediaOf(object) : null;
  if (!object || !media || (object.handle !== handle && !media.additional_owners.includes(userId)))
    return refuse(404, "not_found", `Could not find media with id: [${id}].`);
  return { object, media };
}

function processingInfo(object: LedgerObject, media: XMedia) {
  if (!processes(media) || !media.finalized) return undefined;
  if (isReady(object)) return { state: "succeeded", progress_percent: 100 };
  const total = Math.max(1, object.readyAt - object.createdAt);
  const done = Math.min(99, Math.floor(((Date.now() - object.createdAt) / total) * 100));
  const left = Math.ceil((object.readyAt - Date.now()) / 1000);
  return {
    state: done <= 0 ? "pending" : "in_progress",
    check_after_secs: Math.min(MAX_CHECK_AFTER_SECS, Math.max(1, left)),
    progress_percent: Math.max(0, done),
  };
}

/** An upload as X answers it (initialize, finalize, status). */
function answer(object: LedgerObject, media: XMedia, extra: Record<string, unknown> = {}) {
  const info = processingInfo(object, media);
  return {
    data: {
      id: object.id,
      media_key: media.media_key,
      expires_after_secs: expiresAfter(object),
      ...extra,
      ...(info ? { processing_info: info } : {}),
    },
  };
}

export async function initialize(x: Emulated) {
  const caller = await x.caller();
  const body = await x.json(initializeBody);
  const category = body.media_category ?? categoryOf(body.media_type);
  const rules = CATEGORIES[category];
  if (!(rules.types as readonly string[]).includes(body.media_type))
    refuse(400, "invalid_request", `The media type ${body.media_type} is not supported for ${category}.`);
  if (body.total_bytes > rules.max) refuse(400, "invalid_request", `File size exceeds ${rules.max} bytes.`);
  const id = snowflake(x.now());
  const media: XMedia = {
    media_type: body.media_type,
    total_bytes: body.total_bytes,
    category,
    media_key: `${rules.key}_${id}`,
    owner: caller.platformId,
    additional_owners: body.additional_owners ?? [],
    segments: {},
    finalized: false,
    expires_at: x.now() + MEDIA_EXPIRES_SECONDS * 1000,
  };
  const object = await x.createObject({ id, handle: caller.handle, kind: MEDIA_KIND, data: media });
  return answer(object, media);
}

/** A multipart (or urlencoded) body of at most a segment and its fields. */
async function segmentForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data|^application\/x-www-form-urlencoded/i.test(type))
    return refuse(400, "invalid_request", "The request must be multipart/form-data.");
  const bytes = await readCapped(request, SEGMENT_MAX_BYTES * 2);
  if (bytes === "too_large") return refuse(413, "too_large", "The segment is larger than 5 MB.");
  if (bytes === null) return refuse(400, "invalid_request", "The request body broke off.");
  try {
    return await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    return refuse(400, "invalid_request", "The multipart body could not be read.");
  }
}

async function segmentBytes(form: FormData): Promise<Uint8Array> {
  const file = form.get("media");
  if (file !== null && typeof file !== "string") return new Uint8Array(await file.arrayBuffer());
  const base64 = form.get("media_data") ?? file;
  if (typeof base64 !== "string" || base64 === "")
    return refuse(400, "invalid_request", "One of `media` or `media_data` is required.");
  try {
    return Uint8Array.from(atob(base64.replace(/\s/g, "")), (char) => char.charCodeAt(0));
  } catch {
    return refuse(400, "invalid_request", "The `media_data` value is not valid base64.");
  }
}

const partKey = (id: string, segment: number) => `${id}.${segment}`;

export async function append(x: Emulated, request: Request, id: string) {
  const caller = await x.caller();
  const { object, media } = await ownMedia(x, id, caller.handle, caller.platformId);
  if (media.finalized) refuse(400, "invalid_request", "The media upload is already finalized.");
  if (expired(object)) refuse(400, "invalid_request", "The media upload has expired.");
  const form = await segmentForm(request);
  const index = Number(form.get("segment_index"));
  const raw = form.get("segment_index");
  if (typeof raw !== "string" || !/^\d{1,3}$/.test(raw) || index > MAX_SEGMENT_INDEX)
    refuse(400, "invalid_request", "The `segment_index` value must be an integer between 0 and 999.");
  const bytes = await segmentBytes(form);
  if (bytes.byteLength > SEGMENT_MAX_BYTES) refuse(413, "too_large", "The segment is larger than 5 MB.");
  const part = form.get("media");
  const slow = media.slow === true || (part !== null && typeof part !== "string" && isSlow(part.name));
  await x.storeMedia(partKey(id, index), bytes, "application/octet-stream");
  await x.updateObject(id, { segments: { ...media.segments, [String(index)]: bytes.byteLength }, slow });
  return { data: { expires_at: Math.floor(expiresAt(object) / 1000) } };
}

/** Puts the segments together where the post's page finds the media; its URL. */
async function assemble(x: Emulated, id: string, media: XMedia): Promise<string> {
  const indexes = Object.keys(media.segments)
    .map(Number)
    .sort((a, b) => a - b);
  if (media.total_bytes > ASSEMBLE_MAX_BYTES) return `${x.base}/media/${partKey(id, indexes[0]!)}`;
  const whole = new Uint8Array(media.total_bytes);
  let offset = 0;
  for (const index of indexes) {
    const part = await x.env.MEDIA.get(`sandbox/twitter/${partKey(id, index)}`);
    if (!part) continue;
    const bytes = new Uint8Array(await part.arrayBuffer());
    whole.set(bytes.subarray(0, whole.length - offset), offset);
    offset += bytes.byteLength;
  }
  await x.dropMedia(indexes.map((index) => partKey(id, index)));
  return x.storeMedia(id, whole, media.media_type);
}

export async function finalize(x: Emulated, id: string) {
  const caller = await x.caller();
  const { object, media } = await ownMedia(x, id, caller.handle, caller.platformId);
  if (media.finalized) refuse(400, "invalid_request", "The media upload is already finalized.");
  if (expired(object)) refuse(400, "invalid_request", "The media upload has expired.");
  const received = Object.values(media.segments).reduce((sum, size) => sum + size, 0);
  if (received !== media.total_bytes)
    refuse(400, "invalid_request", "Segments do not add up to provided total file size.");
  const url = await assemble(x, id, media);
  const readyAt = processes(media)
    ? Date.now() + (media.slow ? SLOW_PROCESSING_MS : PROCESSING_MS)
    : Date.now();
  // The media id lives a day from now, whatever was left of the upload session's day.
  const expires_at = Date.now() + MEDIA_EXPIRES_SECONDS * 1000;
  const updated = await x.updateObject(id, { finalized: true, url, expires_at }, readyAt);
  const done = { ...media, finalized: true, url, expires_at };
  return answer({ ...updated!, readyAt }, done, { size: media.total_bytes });
}

export async function status(x: Emulated, query: URLSearchParams) {
  const caller = await x.caller();
  if (query.get("command") !== "STATUS")
    refuse(400, "invalid_request", "The `command` query parameter must be STATUS.");
  const id = query.get("media_id") ?? "";
  const { object, media } = await ownMedia(x, id, caller.handle, caller.platformId);
  if (!media.finalized) refuse(400, "invalid_request", "The media upload is not finalized.");
  // Past expires_after_secs the id is no longer usable anywhere (docs.x.com › Get upload status).
  if (expired(object)) refuse(400, "invalid_request", "The media upload has expired.");
  return answer(object, media);
}

/** How X's Media object names the kind of an upload: `photo`, `animated_gif` or `video`. */
export const mediaTypeOf = (media: XMedia) =>
  media.category === "tweet_image" ? "photo" : media.category === "tweet_gif" ? "animated_gif" : "video";

/** Whether a media id can be attached to a post now: finalized, processed, not expired. */
export const attachable = (object: LedgerObject, media: XMedia) =>
  media.finalized && isReady(object) && !expired(object);
