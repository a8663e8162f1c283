// LinkedIn's Images and Videos APIs on the emulator (learn.microsoft.com › LinkedIn › Marketing ›
// Community Management › Shares › Images API / Videos API): an upload is initialized for an owner the
// caller may act as (WAITING_UPLOAD), its bytes PUT to the upload URL LinkedIn hands out (on the
// emulator) while that URL is valid (uploadUrlExpiresAt), then the media is PROCESSING and AVAILABLE, or
// PROCESSING_FAILED (an image whose bytes are no image). A video is initialized with its size, uploaded
// in 4 MiB parts whose ETags finalizeUpload must list in order, then processed; a post may use either
// only once AVAILABLE. LinkedIn's uploads carry no text, so `#sandbox-slow` is read from the media's own
// bytes (a comment or metadata field holding the tag, the first part of a video): such media processes
// for 150 s (emulator.ts `readyAt`).
import type { Context } from "hono";
import { z } from "zod";
import type { BareEnv } from "../../http/env";
import { readCapped } from "../../lib/capped-body";
import { type Emulated, isReady, type LedgerObject, refuse } from "../emulator";
import { SANDBOX_LIMITS } from "../ledger";
import { isSlow } from "../triggers";
import { authorAs } from "./channels";
import {
  freshLetters,
  listOf,
  UPLOAD_URL_TTL_MS,
  VIDEO_MAX_BYTES,
  VIDEO_MIN_BYTES,
  VIDEO_PART_BYTES,
} from "./rules";

type Ctx = Context<BareEnv>;

/** How long the emulator processes an image after its upload, and a video after finalizeUpload. */
const IMAGE_PROCESSING_MS = 0;
/** Whether uploaded bytes carry `#sandbox-slow` (in a text field of the file: LinkedIn sees no post text). */
const slowBytes = (bytes: Uint8Array) => isSlow(new TextDecoder("latin1").decode(bytes));
export const VIDEO_PROCESSING_MS = 1_000;

const initializeImage = z.object({
  initializeUploadRequest: z.object({
    owner: z.string().min(1).max(200),
    mediaLibraryMetadata: z.unknown().optional(),
  }),
});
const initializeVideo = z.object({
  initializeUploadRequest: z.object({
    owner: z.string().min(1).max(200),
    fileSizeBytes: z.number().int().positive(),
    uploadCaptions: z.boolean().optional(),
    uploadThumbnail: z.boolean().optional(),
  }),
});
const finalizeVideo = z.object({
  finalizeUploadRequest: z.object({
    video: z.string().startsWith("urn:li:video:"),
    uploadToken: z.string(),
    uploadedPartIds: z.array(z.string()).max(200),
  }),
});

export type ImageData = {
  owner: string;
  status: "WAITING_UPLOAD" | "UPLOADED" | "FAILED";
  /** When the upload URL stops taking bytes (epoch ms). */
  expiresAt?: number;
  url?: string;
  type?: string;
  [key: string]: unknown;
};
export type VideoData = {
  owner: string;
  size: number;
  uploadToken: string;
  parts: Array<string | null>;
  finalized: boolean;
  /** The first part carried `#sandbox-slow`. */
  slow?: boolean;
  url?: string;
  [key: string]: unknown;
};

/** The media's state as LinkedIn names it. */
export function imageStatus(image: LedgerObject) {
  const data = image.data as ImageData;
  if (data.status === "FAILED") return "PROCESSING_FAILED";
  if (data.status !== "UPLOADED") return "WAITING_UPLOAD";
  return isReady(image) ? "AVAILABLE" : "PROCESSING";
}
export function videoStatus(video: LedgerObject) {
  const data = video.data as VideoData;
  if (!data.finalized) return "WAITING_UPLOAD";
  return isReady(video) ? "AVAILABLE" : "PROCESSING";
}

/** An image's type from its first bytes (the PUT is application/octet-stream). */
function sniff(bytes: Uint8Array): string {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "image/jpeg";
  if (bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) return "image/gif";
  return "application/octet-stream";
}

const uploadUrl = (e: Emulated, id: string, part?: number) =>
  `${e.base}/dms-uploads/${encodeURIComponent(id)}${part === undefined ? "" : `/parts/${part}`}`;

export async function initializeImageUpload(c: Ctx, e: Emulated) {
  const caller = await e.caller();
  const { owner } = (await e.json(initializeImage)).initializeUploadRequest;
  const author = await authorAs(caller, owner, "initializeUploadRequest/owner");
  const expiresAt = Date.now() + UPLOAD_URL_TTL_MS;
  const image = await e.createObject({
    id: `urn:li:image:${freshLetters()}`,
    handle: author.handle,
    kind: "image",
    data: { owner, status: "WAITING_UPLOAD", expiresAt } satisfies ImageData,
  });
  return c.json({
    value: {
      uploadUrlExpiresAt: expiresAt,
      uploadUrl: uploadUrl(e, image.id),
      image: image.id,
    },
  });
}

export async function initializeVideoUpload(c: Ctx, e: Emulated) {
  const caller = await e.caller();
  const request = (await e.json(initializeVideo)).initializeUploadRequest;
  const author = await authorAs(caller, request.owner, "initializeUploadRequest/owner");
  if (request.fileSizeBytes < VIDEO_MIN_BYTES || request.fileSizeBytes > VIDEO_MAX_BYTES) {
    return refuse(
      400,
      "invalid_request",
      "/initializeUploadRequest/fileSizeBytes :: the video must be 75 KB to 500 MB",
      {
        code: "ILLEGAL_ARGUMENT",
      },
    );
  }
  const count = Math.ceil(request.fileSizeBytes / VIDEO_PART_BYTES);
  const video = await e.createObject({
    id: `urn:li:video:${freshLetters()}`,
    handle: author.handle,
    kind: "video",
    data: {
      owner: request.owner,
      size: request.fileSizeBytes,
      uploadToken: crypto.randomUUID().replaceAll("-", ""),
      parts: Array.from({ length: count }, () => null),
      finalized: false,
    } satisfies VideoData,
  });
  const data = video.data as VideoData;
  return c.json({
    value: {
      uploadUrlsExpireAt: Date.now() + UPLOAD_URL_TTL_MS,
      video: video.id,
      uploadInstructions: data.parts.map((_, index) => ({
        uploadUrl: uploadUrl(e, video.id, index),
        firstByte: index * VIDEO_PART_BYTES,
        lastByte: Math.min(request.fileSizeBytes, (index + 1) * VIDEO_PART_BYTES) - 1,
      })),
      uploadToken: data.uploadToken,
    },
  });
}

/** The PUT of an image's bytes, or of one part of a video: 201 for an image, 200 with an ETag for a part. */
export async function uploadBytes(c: Ctx, e: Emulated) {
  const id = c.req.param("id") ?? "";
  const part = c.req.param("part");
  const object = await e.object(id);
  if (!object || (part === undefined) !== (object.kind === "image")) {
    return refuse(404, "not_found", "The upload URL is unknown or has expired.");
  }
  // Never more than the sandbox stores per upload (SANDBOX_LIMITS), whatever the part or image declares.
  const read = await readCapped(c.req.raw, SANDBOX_LIMITS.mediaBytesPerUpload);
  if (read === "too_large") return refuse(413, "too_large", "The upload is too large.");
  if (read === null) return refuse(400, "invalid_request", "The upload broke off.");
  const bytes = read;
  if (object.kind === "image") {
    const data = object.data as ImageData;
    // An upload URL takes bytes once, until it expires (uploadUrlExpiresAt).
    if (data.status !== "WAITING_UPLOAD" || (data.expiresAt !== undefined && data.expiresAt <= Date.now())) {
      return refuse(404, "not_found", "The upload URL is unknown or has expired.");
    }
    if (bytes.length === 0) return refuse(400, "invalid_request", "The image is empty.");
    const type = sniff(bytes);
    if (type === "application/octet-stream") {
      // Accepted, then not processed: LinkedIn reports PROCESSING_FAILED for bytes that are no image.
      await e.updateObject(object.id, { status: "FAILED" });
      return c.body(null, 201);
    }
    const url = await e.storeMedia(object.id, bytes, type, object.handle);
    const ready = slowBytes(bytes) ? e.readyAt("#sandbox-slow") : Date.now() + IMAGE_PROCESSING_MS;
    await e.updateObject(object.id, { status: "UPLOADED", url, type }, ready);
    return c.body(null, 201);
  }
  const data = object.data as VideoData;
  const index = Number(part);
  if (!Number.isInteger(index) || index < 0 || index >= data.parts.length || data.finalized) {
    return refuse(404, "not_found", "The upload URL is unknown or has expired.");
  }
  const expected = Math.min(data.size, (index + 1) * VIDEO_PART_BYTES) - index * VIDEO_PART_BYTES;
  if (bytes.length !== expected) {
    return refuse(400, "invalid_request", `The part must hold ${expected} bytes, not ${bytes.length}.`);
  }
  const etag = `/ambry-video/${freshLetters()}`;
  const parts = [...data.parts];
  parts[index] = etag;
  const patch: Record<string, unknown> = { parts };
  if (index === 0) {
    patch.url = await e.storeMedia(object.id, bytes, "video/mp4", object.handle);
    patch.slow = slowBytes(bytes);
  }
  await e.updateObject(object.id, patch);
  return c.body(null, 200, { etag });
}

export async function finalizeVideoUpload(c: Ctx, e: Emulated) {
  const caller = await e.caller();
  const request = (await e.json(finalizeVideo)).finalizeUploadRequest;
  const video = await e.object(request.video);
  if (video?.kind !== "video") return refuse(404, "not_found", `Video ${request.video} does not exist.`);
  const data = video.data as VideoData;
  await authorAs(caller, data.owner, "finalizeUploadRequest/video");
  if (request.uploadToken !== data.uploadToken) {
    return refuse(
      400,
      "invalid_request",
      "/finalizeUploadRequest/uploadToken :: the upload token does not match",
    );
  }
  if (data.parts.some((p) => p === null) || request.uploadedPartIds.join("\n") !== data.parts.join("\n")) {
    return refuse(
      400,
      "invalid_request",
      "/finalizeUploadRequest/uploadedPartIds :: every part's ETag, in order",
    );
  }
  if (!data.finalized)
    await e.updateObject(
      request.video,
      { finalized: true },
      data.slow ? e.readyAt("#sandbox-slow") : Date.now() + VIDEO_PROCESSING_MS,
    );
  return c.body(null, 200);
}

async function ownedMedia(e: Emulated, id: string, kind: "image" | "video") {
  const caller = await e.caller();
  const object = await e.object(id);
  if (!object || object.kind !== kind) return refuse(404, "not_found", `${id} does not exist.`);
  await authorAs(caller, String(object.data.owner), kind === "image" ? "images" : "videos");
  return object;
}

const imageView = (image: LedgerObject) => {
  const status = imageStatus(image);
  return {
    id: image.id,
    owner: image.data.owner,
    status,
    ...(status === "AVAILABLE"
      ? { downloadUrl: image.data.url, downloadUrlExpiresAt: Date.now() + UPLOAD_URL_TTL_MS }
      : {}),
  };
};

export async function getImage(c: Ctx, e: Emulated) {
  return c.json(imageView(await ownedMedia(e, c.req.param("urn") ?? "", "image")));
}

/** rest/images?ids=List(…): a batch answer keyed by image URN; unknown ones under `errors`. */
export async function batchImages(c: Ctx, e: Emulated) {
  await e.caller();
  const ids = listOf(c.req.query("ids"));
  if (ids === null) return refuse(400, "invalid_request", "ids must be List(…) of image URNs");
  const results: Record<string, unknown> = {};
  const errors: Record<string, unknown> = {};
  for (const id of ids) {
    const image = await e.object(id);
    if (image?.kind === "image") results[id] = imageView(image);
    else errors[id] = { status: 404, message: `${id} does not exist.` };
  }
  return c.json({ results, statuses: {}, errors });
}

export async function getVideo(c: Ctx, e: Emulated) {
  const video = await ownedMedia(e, c.req.param("urn") ?? "", "video");
  const status = videoStatus(video);
  return c.json({
    id: video.id,
    owner: video.data.owner,
    status,
    ...(status === "AVAILABLE" ? { duration: 0, downloadUrl: video.data.url } : {}),
  });
}
