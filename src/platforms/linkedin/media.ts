// Media for a LinkedIn post: images through the Images API (initializeUpload, then one PUT of the bytes,
// then a bounded wait until the image is AVAILABLE) and videos through the Videos API (initializeUpload
// with the size, one PUT per part LinkedIn names by byte range, finalizeUpload with the parts' ETags,
// then a bounded wait for processing). A post may reference media only once it is AVAILABLE
// (learn.microsoft.com › LinkedIn › Marketing › Community Management › Shares › Images API / Videos API).
// Bytes stream from R2 a range at a time, each PUT with the context's upload timeout; nothing here is
// visible on LinkedIn until a post references it, so every failure is at worst transient (see
// beforePublishing).
//
// Resuming (docs/platforms.md › LinkedIn › Resuming an interrupted publication): each medium's URN is
// recorded on the row (`media:<index>`) as soon as initializeUpload hands it out, with what is known of
// its upload (the image's upload URL and its validity; `sent` once the bytes or the video's finalize are
// acknowledged). A later attempt asks LinkedIn for that URN's status and goes on from there: AVAILABLE
// is used, PROCESSING is waited for, an image still WAITING_UPLOAD gets its bytes again on the same
// upload URL while it is valid. Replaced (a new initializeUpload) only: an upload LinkedIn never
// received whose URL has expired (or a video's, whose part URLs are not kept), and media LinkedIn
// reports PROCESSING_FAILED (once: a second failure is the file's, permanent).

import { pastDeadline, stillProcessing } from "../progress";
import { type DraftMedia, PlatformError, type Progress } from "../types";
import { beforePublishing, type LinkedInApi } from "./api";
import { expect, imageStatus, imageUpload, videoStatus, videoUpload } from "./schemas";

/** How long to wait between looks at a video still processing (ms); then the attempt ends, resumable. */
export const VIDEO_WAITS_MS = [2_000, 3_000, 5_000, 5_000, 5_000, 10_000];
/** How long to wait between looks at an image still processing (ms). */
export const IMAGE_WAITS_MS = [1_000, 2_000, 3_000, 5_000, 5_000, 10_000];
/** When the next attempt comes back to media still processing (s). */
export const PROCESSING_RETRY_SECONDS = 30;

export type MediaOptions = { videoWaitsMs?: readonly number[]; imageWaitsMs?: readonly number[] };

/** What a publication's attempt brings to the media steps: the row's progress and its deadline. */
export type MediaStep = {
  progress: Progress;
  deadline?: number;
  options: MediaOptions;
};

/** What is recorded of one medium (`media:<index>`). */
type Recorded = {
  urn: string;
  /** The image's upload URL and when it stops taking bytes (epoch ms), to send them again. */
  uploadUrl?: string;
  expiresAt?: number;
  /** The bytes (an image) or the finalize (a video) were acknowledged. */
  sent?: boolean;
  /** PROCESSING_FAILED answers seen so far for this medium (each replaced once). */
  failures?: number;
};

const keyOf = (index: number) => `media:${index}`;

function recordedOf(progress: Progress, index: number, kind: "image" | "video"): Recorded | null {
  const value = progress.get(keyOf(index)) as Partial<Recorded> | undefined;
  return typeof value?.urn === "string" && value.urn.startsWith(`urn:li:${kind}:`)
    ? (value as Recorded)
    : null;
}

const statusUrl = (api: LinkedInApi, urn: string) =>
  `${api.rest}/${urn.startsWith("urn:li:video:") ? "videos" : "images"}/${encodeURIComponent(urn)}`;

async function statusOf(api: LinkedInApi, token: string, urn: string): Promise<string> {
  const video = urn.startsWith("urn:li:video:");
  const what = video ? "video status" : "image status";
  return expect(
    video ? videoStatus : imageStatus,
    await api.get(what, statusUrl(api, urn), token),
    what,
    "transient",
  ).status;
}

/** PROCESSING_FAILED a second time for the same medium: the file itself, which a retry cannot fix. */
const processingFailed = (kind: "image" | "video") =>
  new PlatformError(`LinkedIn could not process the ${kind}.`, {
    kind: "permanent",
    code: `${kind}_processing_failed`,
  });

/**
 * Waits, a bounded number of times and never past the attempt's deadline, for the medium to be
 * AVAILABLE: a post may not use it before. Still processing at the bound: the attempt ends
 * (`still_processing`) and the next one polls the same URN. PROCESSING_FAILED: null (the caller
 * replaces it once).
 */
async function available(
  api: LinkedInApi,
  token: string,
  urn: string,
  step: MediaStep,
  waits: readonly number[],
): Promise<"AVAILABLE" | "PROCESSING_FAILED" | "WAITING_UPLOAD"> {
  const kind = urn.startsWith("urn:li:video:") ? "video" : "image";
  for (let look = 0; ; look++) {
    const status = await statusOf(api, token, urn);
    if (status === "AVAILABLE" || status === "PROCESSING_FAILED" || status === "WAITING_UPLOAD")
      return status;
    const wait = waits[look];
    if (wait === undefined || pastDeadline(step, api.now() + wait)) {
      throw stillProcessing(
        `LinkedIn is still processing the ${kind} ${urn} (${status}); the next attempt looks again.`,
        PROCESSING_RETRY_SECONDS,
      );
    }
    await api.sleep(wait);
  }
}

/** The image's bytes, PUT to its upload URL with the upload timeout; then it is recorded as sent. */
async function sendImage(
  api: LinkedInApi,
  token: string,
  media: DraftMedia,
  step: MediaStep,
  index: number,
  at: Recorded,
) {
  await api.upload("image bytes", at.uploadUrl ?? "", token, (range) => media.open(range), {
    offset: 0,
    length: media.size,
  });
  await step.progress.set(keyOf(index), { ...at, sent: true });
}

/** A new image upload (initializeUpload), recorded at once, then its bytes. */
async function newImage(
  api: LinkedInApi,
  token: string,
  owner: string,
  media: DraftMedia,
  step: MediaStep,
  index: number,
  failures: number,
): Promise<Recorded> {
  const answer = await api.post("image upload", `${api.rest}/images?action=initializeUpload`, token, {
    initializeUploadRequest: { owner },
  });
  const { uploadUrl, image, uploadUrlExpiresAt } = expect(
    imageUpload,
    answer.body,
    "image upload",
    "transient",
  ).value;
  const at: Recorded = {
    urn: image,
    uploadUrl,
    ...(uploadUrlExpiresAt === undefined ? {} : { expiresAt: uploadUrlExpiresAt }),
    ...(failures ? { failures } : {}),
  };
  await step.progress.set(keyOf(index), at);
  await sendImage(api, token, media, step, index, at);
  return { ...at, sent: true };
}

/**
 * The URN once LinkedIn has it AVAILABLE. PROCESSING_FAILED (or bytes acknowledged that LinkedIn says it
 * never got) is replaced by `renew`, once: a second failure is the file's own, for good.
 */
async function whenAvailable(
  api: LinkedInApi,
  token: string,
  first: Recorded,
  step: MediaStep,
  waits: readonly number[],
  kind: "image" | "video",
  renew: (failures: number) => Promise<Recorded>,
): Promise<string> {
  let at = first;
  for (;;) {
    const status = await available(api, token, at.urn, step, waits);
    if (status === "AVAILABLE") return at.urn;
    const failures = (at.failures ?? 0) + 1;
    if (failures > 1) throw processingFailed(kind);
    at = await renew(failures);
  }
}

/** The image's URN, AVAILABLE: the one an earlier attempt recorded where it can go on, else a new one. */
export async function uploadImage(
  api: LinkedInApi,
  token: string,
  owner: string,
  media: DraftMedia,
  step: MediaStep,
  index: number,
): Promise<string> {
  const waits = step.options.imageWaitsMs ?? IMAGE_WAITS_MS;
  try {
    let at = recordedOf(step.progress, index, "image");
    if (at && !at.sent) {
      // The bytes were sent, or not, by an attempt that ended before their answer: LinkedIn says which.
      const status = await statusOf(api, token, at.urn);
      if (status !== "WAITING_UPLOAD") {
        at = { ...at, sent: true };
        await step.progress.set(keyOf(index), at);
      } else if (at.uploadUrl && (at.expiresAt === undefined || at.expiresAt > api.now())) {
        // Never received, the upload URL still valid: the same image gets its bytes.
        await sendImage(api, token, media, step, index, at);
        at = { ...at, sent: true };
      } else {
        // Never received and its upload URL has expired: this image can take no bytes; replaced.
        at = null;
      }
    }
    if (!at) at = await newImage(api, token, owner, media, step, index, 0);
    return await whenAvailable(api, token, at, step, waits, "image", (failures) =>
      newImage(api, token, owner, media, step, index, failures),
    );
  } catch (error) {
    throw beforePublishing(error);
  }
}

/** A new video upload: initializeUpload (recorded at once), every part, finalizeUpload (recorded). */
async function newVideo(
  api: LinkedInApi,
  token: string,
  owner: string,
  media: DraftMedia,
  step: MediaStep,
  index: number,
  failures: number,
): Promise<Recorded> {
  const answer = await api.post("video upload", `${api.rest}/videos?action=initializeUpload`, token, {
    initializeUploadRequest: {
      owner,
      fileSizeBytes: media.size,
      uploadCaptions: false,
      uploadThumbnail: false,
    },
  });
  const upload = expect(videoUpload, answer.body, "video upload", "transient").value;
  const at: Recorded = { urn: upload.video, ...(failures ? { failures } : {}) };
  await step.progress.set(keyOf(index), at);
  const uploadedPartIds: string[] = [];
  // One part at a time, in LinkedIn's order: each holds at most one part's bytes in flight.
  for (const [part, instruction] of upload.uploadInstructions.entries()) {
    if (instruction.lastByte < instruction.firstByte || instruction.lastByte >= media.size) {
      throw new PlatformError("LinkedIn video upload: a part lies outside the file", {
        kind: "transient",
        code: "invalid_response",
      });
    }
    const range = {
      offset: instruction.firstByte,
      length: instruction.lastByte - instruction.firstByte + 1,
    };
    const put = await api.upload(
      `video part ${part + 1}`,
      instruction.uploadUrl,
      token,
      (r) => media.open(r),
      range,
    );
    const etag = put.headers.get("etag");
    if (!etag) {
      throw new PlatformError("LinkedIn video upload: a part was stored without an ETag", {
        kind: "transient",
        code: "invalid_response",
      });
    }
    uploadedPartIds.push(etag);
  }
  await api.post("video finalize", `${api.rest}/videos?action=finalizeUpload`, token, {
    finalizeUploadRequest: { video: upload.video, uploadToken: upload.uploadToken, uploadedPartIds },
  });
  const sent = { ...at, sent: true };
  await step.progress.set(keyOf(index), sent);
  return sent;
}

/** The video's URN, AVAILABLE: the one an earlier attempt uploaded where LinkedIn has it, else a new one. */
export async function uploadVideo(
  api: LinkedInApi,
  token: string,
  owner: string,
  media: DraftMedia,
  step: MediaStep,
  index: number,
): Promise<string> {
  const waits = step.options.videoWaitsMs ?? VIDEO_WAITS_MS;
  try {
    let at = recordedOf(step.progress, index, "video");
    if (at && !at.sent) {
      // Finalized by an attempt that lost the answer (PROCESSING or later), or never: the part URLs are
      // not kept (one per 4 MiB), so an unfinished upload is replaced.
      const status = await statusOf(api, token, at.urn);
      at = status === "WAITING_UPLOAD" ? null : { ...at, sent: true };
      if (at) await step.progress.set(keyOf(index), at);
    }
    if (!at) at = await newVideo(api, token, owner, media, step, index, 0);
    return await whenAvailable(api, token, at, step, waits, "video", (failures) =>
      newVideo(api, token, owner, media, step, index, failures),
    );
  } catch (error) {
    throw beforePublishing(error);
  }
}
