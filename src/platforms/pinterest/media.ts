// A video for a Pin: Pinterest registers the upload (POST /v5/media), the bytes go to the storage URL it
// names as a multipart form POST (its upload_parameters, then the file, streamed from R2 with a known
// length, never held in memory), then the media is polled until Pinterest has processed it (status
// registered → processing → succeeded, or failed). Nothing of this is visible on the account, so any
// failure here is a plain failure to retry (never an unknown outcome); the Pin itself is created
// afterwards.
//
// Resuming (issue 20): the media id is recorded (progress `video`) as soon as Pinterest hands it out, and
// `uploaded` once the storage answered 204. A later attempt asks Pinterest the recorded media's status
// instead of registering again: `processing` is polled on, `succeeded` goes straight to the Pin,
// `registered` (the bytes never arrived: the upload form's signed parameters are not kept, they are a
// credential) and `failed` (Pinterest could not process it) are replaced by a new registration. A poll
// stops at its bound or at the attempt's deadline with `still_processing`: the next attempt polls on.
// developers.pinterest.com › Create boards and Pins › Creating video Pins; Register media upload; Get
// media upload details (status: registered, processing, succeeded, failed).
import { utf8 } from "../../lib/encoding";
import { platformCall } from "../call";
import { pollUntil, progressOf } from "../progress";
import { type DraftMedia, PlatformError, type PublishDraft } from "../types";
import type { PinterestApi } from "./api";
import { mediaStatus, mediaUpload } from "./schemas";

/** Polls of the media's status at most, and the wait between two: about a minute and a half in all. */
export const MEDIA_POLLS = 18;
export const MEDIA_POLL_INTERVAL_MS = 5000;
/** Seconds until the next attempt polls a media still processing. */
export const MEDIA_RETRY_SECONDS = 30;
/** Where the media of a video Pin is recorded between attempts (progress key). */
export const VIDEO_PROGRESS = "video";
/** Recorded once a media failed processing and was replaced: a second failure is final. */
export const VIDEO_FAILED_PROGRESS = "video_failed";

/** What an attempt records of the video's media: its id, and whether the storage took the bytes. */
type RecordedMedia = { media_id: string; uploaded: boolean };

function recordedMedia(value: unknown): RecordedMedia | null {
  if (!value || typeof value !== "object") return null;
  const { media_id, uploaded } = value as Record<string, unknown>;
  return typeof media_id === "string" && /^\d+$/.test(media_id)
    ? { media_id, uploaded: uploaded === true }
    : null;
}

/** Registering and uploading create nothing on the account: a lost answer is simply a failure. */
function notCreated(error: unknown): unknown {
  if (error instanceof PlatformError && error.kind === "unknown_outcome")
    return new PlatformError(error.message, { kind: "transient", code: error.code });
  return error;
}

const quoted = (value: string) => value.replace(/["\r\n\\]/g, "_");

/**
 * A multipart/form-data body of `fields` then `media` as the `file` field (storage wants the file
 * last), streamed, with its exact length so the request carries a Content-Length.
 */
async function multipartBody(fields: Record<string, string>, media: DraftMedia) {
  const boundary = `----spboundary${crypto.randomUUID().replaceAll("-", "")}`;
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
  );
  const head = utf8(
    `${parts.join("")}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(media.name)}"\r\nContent-Type: ${quoted(media.mime)}\r\n\r\n`,
  );
  const tail = utf8(`\r\n--${boundary}--\r\n`);
  const source = await media.open();
  const { readable, writable } = new FixedLengthStream(head.length + media.size + tail.length);
  const writer = writable.getWriter();
  const pump = async () => {
    await writer.write(head);
    const reader = source.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await writer.write(value);
    }
    await writer.write(tail);
    await writer.close();
  };
  // A failed read aborts the stream, which fails the request: the error surfaces there.
  pump().catch((error: unknown) => writer.abort(error).catch(() => undefined));
  return { body: readable, contentType: `multipart/form-data; boundary=${boundary}` };
}

type Status = "registered" | "processing" | "succeeded" | "failed" | undefined;

const mediaStatusOf = async (api: PinterestApi, token: string, mediaId: string): Promise<Status> =>
  (await api.get("media status", `media/${mediaId}`, {}, token, mediaStatus)).status;

/** Registers a new media, records its id at once, and posts the bytes to its storage form. */
async function registerAndUpload(
  api: PinterestApi,
  token: string,
  media: DraftMedia,
  progress: ReturnType<typeof progressOf>,
): Promise<string> {
  const registered = await api
    .post("media registration", "media", token, { media_type: "video" }, mediaUpload)
    .catch((error: unknown) => {
      throw notCreated(error);
    });
  await progress.set(VIDEO_PROGRESS, { media_id: registered.media_id, uploaded: false });
  const { body, contentType } = await multipartBody(registered.upload_parameters, media);
  // The storage URL is signed by its parameters: Pinterest's token never goes there. It sends the
  // file's bytes: the upload timeout, not the common call timeout.
  await platformCall(
    api.context.fetch,
    "Pinterest video upload",
    api.at(registered.upload_url),
    { method: "POST", headers: { "content-type": contentType }, body },
    { timeoutMs: api.context.timeouts.upload },
  ).catch((error: unknown) => {
    throw notCreated(error);
  });
  await progress.set(VIDEO_PROGRESS, { media_id: registered.media_id, uploaded: true });
  return registered.media_id;
}

/**
 * The recorded media, if it can still become this Pin's video: its id and last known status; null when
 * there is none or it must be replaced (failed, or its bytes never arrived).
 */
async function resumable(
  api: PinterestApi,
  token: string,
  recorded: RecordedMedia | null,
): Promise<{ mediaId: string; status: Status } | null> {
  if (!recorded) return null;
  const status = await mediaStatusOf(api, token, recorded.media_id).catch((error: unknown) => {
    // A media Pinterest no longer knows (404) is replaced; anything else ends the attempt (retried).
    if (error instanceof PlatformError && error.kind === "permanent") return "gone" as const;
    throw error;
  });
  if (status === "gone" || status === "failed") return null;
  // Registered but the storage never answered: the bytes did not arrive, and the form's signed
  // parameters were not kept. Recorded as uploaded: Pinterest has not seen them yet, poll on.
  if (status === "registered" && !recorded.uploaded) return null;
  return { mediaId: recorded.media_id, status };
}

/**
 * Uploads the video, or resumes the one an earlier attempt recorded; answers its media id once
 * Pinterest has processed it. Past its polls or the attempt's deadline: `still_processing`.
 */
export async function uploadVideo(
  api: PinterestApi,
  token: string,
  media: DraftMedia,
  draft: Pick<PublishDraft, "progress" | "deadline">,
): Promise<string> {
  const progress = progressOf(draft);
  const { context } = api;
  const resumed = await resumable(api, token, recordedMedia(progress.get(VIDEO_PROGRESS)));
  if (resumed?.status === "succeeded") return resumed.mediaId;
  // A failed or never-uploaded media is replaced: a new registration (one more media upload).
  const mediaId = resumed?.mediaId ?? (await registerAndUpload(api, token, media, progress));
  const polling = {
    looks: MEDIA_POLLS,
    intervalMs: MEDIA_POLL_INTERVAL_MS,
    deadline: draft.deadline,
    message: "Pinterest is still processing the video; the next attempt polls the same media.",
    retryAfterSeconds: MEDIA_RETRY_SECONDS,
  };
  return pollUntil(context, polling, async (look) => {
    // A resumed media's first look is the status just read.
    const status = look === 0 && resumed ? resumed.status : await mediaStatusOf(api, token, mediaId);
    if (status === "succeeded") return mediaId;
    if (status === "failed") {
      // Replaced once: the next attempt registers a new media rather than poll a dead one. A second
      // failure is the video's own fault (Pinterest does not say why): the post fails for good.
      if (progress.get(VIDEO_FAILED_PROGRESS) === true)
        throw new PlatformError("Pinterest could not process the video (twice).", {
          kind: "permanent",
          code: "media_failed",
        });
      await progress.set(VIDEO_FAILED_PROGRESS, true);
      await progress.set(VIDEO_PROGRESS, undefined);
      throw new PlatformError("Pinterest could not process the video; it will be uploaded again.", {
        kind: "transient",
        code: "media_failed",
      });
    }
    return undefined;
  });
}

/**
 * Whether a Pin can exist for the video media an earlier attempt recorded: not before Pinterest has
 * processed it (Create Pin refuses a media that has not succeeded). No recorded media: unknown.
 */
export async function videoPinPossible(
  api: PinterestApi,
  token: string,
  progress: ReturnType<typeof progressOf>,
): Promise<boolean> {
  const recorded = recordedMedia(progress.get(VIDEO_PROGRESS));
  if (!recorded) return true;
  const status = await mediaStatusOf(api, token, recorded.media_id).catch(() => "succeeded" as const);
  return status === "succeeded";
}
