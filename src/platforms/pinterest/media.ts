// A video for a Pin: Pinterest registers the upload (POST /v5/media), the bytes go to the storage URL it
// names as a multipart form POST (its upload_parameters, then the file, streamed from R2 with a known
// length, never held in memory), then the media is polled until Pinterest has processed it. Nothing of
// this is visible on the account, so any failure here is a plain failure to retry (never an unknown
// outcome); the Pin itself is created afterwards.
// developers.pinterest.com › Create boards and Pins › Creating video Pins; Register media upload.
import { utf8 } from "../../lib/encoding";
import { platformCall } from "../call";
import { type DraftMedia, type Fetch, PlatformError } from "../types";
import type { PinterestApi } from "./api";
import { mediaStatus, mediaUpload } from "./schemas";

/** Polls of the media's status at most, and the wait between two: about a minute and a half in all. */
export const MEDIA_POLLS = 18;
export const MEDIA_POLL_INTERVAL_MS = 5000;
/**
 * How long the bytes may take to reach the storage URL: a video is one POST (storage takes no chunks),
 * far more than the common call timeout, yet inside the attempt's five-minute lease.
 */
export const UPLOAD_TIMEOUT_MS = 4 * 60_000;

/** Registering and uploading create nothing on the account: a lost answer is simply a failure. */
function notCreated(error: unknown): unknown {
  if (error instanceof PlatformError && error.kind === "unknown_outcome")
    return new PlatformError(error.message, { kind: "transient", code: error.code });
  return error;
}

/** The common fetch, with a timeout long enough for a whole video in place of the common one. */
const uploadFetch =
  (fetcher: Fetch): Fetch =>
  (input, init) =>
    fetcher(input, { ...init, signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS) });

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

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Uploads the video; answers its media id once Pinterest has processed it. */
export async function uploadVideo(api: PinterestApi, token: string, media: DraftMedia): Promise<string> {
  const registered = await api
    .post("media registration", "media", token, { media_type: "video" }, mediaUpload)
    .catch((error: unknown) => {
      throw notCreated(error);
    });
  const { body, contentType } = await multipartBody(registered.upload_parameters, media);
  // The storage URL is signed by its parameters: Pinterest's token never goes there.
  await platformCall(
    uploadFetch(api.context.fetch),
    "Pinterest video upload",
    api.at(registered.upload_url),
    {
      method: "POST",
      headers: { "content-type": contentType },
      body,
    },
  ).catch((error: unknown) => {
    throw notCreated(error);
  });
  for (let poll = 0; poll < MEDIA_POLLS; poll++) {
    if (poll > 0) await wait(MEDIA_POLL_INTERVAL_MS);
    const status = await api.get("media status", `media/${registered.media_id}`, {}, token, mediaStatus);
    if (status.status === "succeeded") return registered.media_id;
    if (status.status === "failed")
      throw new PlatformError("Pinterest could not process the video.", {
        kind: "permanent",
        code: "media_failed",
      });
  }
  throw new PlatformError("Pinterest is still processing the video; it will be tried again.", {
    kind: "transient",
    code: "media_processing",
  });
}
