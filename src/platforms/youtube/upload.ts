// videos.insert through Google's resumable upload protocol: a POST with the video's metadata opens an
// upload session (its URL comes back in Location), then the bytes go up in chunks streamed from R2, each
// a PUT with its Content-Range, answered 308 (with the Range received so far) until the last one, which
// is answered with the video resource. Chunks keep every request well inside the platform call timeout
// and a Worker's memory, whatever the size of the video. Only the last chunk can create the video: a
// failure before it is transient (the next attempt opens a new session), a lost answer to it is an
// unknown outcome, reconciled by `find`.
// developers.google.com › YouTube Data API › Resumable Uploads.
import { platformCall } from "../call";
import { type DraftMedia, type Fetch, PlatformError } from "../types";
import { expectShape, type YouTubeApi } from "./api";
import { insertedVideo } from "./schemas";

/** Bytes per PUT: Google requires a multiple of 256 KiB for every chunk but the last. */
export const CHUNK_BYTES = 32 * 256 * 1024;

/** The header the 308 answer is given, once mapped to a 2xx so the common call code passes it through. */
const INCOMPLETE = "x-upload-incomplete";

/** A fetch that does not follow a 308 (Google's "Resume Incomplete") and hands it on as a plain 200. */
const resumableFetch =
  (fetcher: Fetch): Fetch =>
  async (input, init) => {
    const response = await fetcher(input, { ...init, redirect: "manual" });
    if (response.status !== 308) return response;
    await response.body?.cancel();
    const headers = new Headers({ [INCOMPLETE]: "1" });
    const range = response.headers.get("range");
    if (range) headers.set("range", range);
    return new Response(null, { status: 200, headers });
  };

/** Nothing was created yet: a lost answer is simply a failure to retry. */
function notCreated(error: unknown): unknown {
  if (error instanceof PlatformError && error.kind === "unknown_outcome")
    return new PlatformError(error.message, { kind: "transient", code: error.code });
  return error;
}

/**
 * A chunk's answer the YouTube way, except that 404 and 410 mean the upload session expired: nothing was
 * created, and the next attempt starts a new session.
 */
const chunkOptions = (api: YouTubeApi, what: string) => ({
  classify(response: Response, body: unknown) {
    if (response.status === 404 || response.status === 410)
      return new PlatformError(`${what}: the upload session expired (HTTP ${response.status})`, {
        kind: "transient",
        code: "upload_session_expired",
      });
    return api.options(what).classify(response, body);
  },
});

/**
 * The session URL must be on the upload host (Google's, or the base this context reaches it at): the
 * access token goes along with every chunk.
 */
function sessionUrl(location: string | null, uploadBase: string): string {
  const url = location && URL.canParse(location) ? new URL(location) : null;
  const onBase = url?.toString().startsWith(`${uploadBase}/`) === true;
  const google = url?.protocol === "https:" && /(^|\.)googleapis\.com$/.test(url.hostname);
  if (!url || !(onBase || google))
    throw new PlatformError("YouTube upload session: the answer has no upload URL", {
      kind: "transient",
      code: "invalid_response",
    });
  return url.toString();
}

/** The first byte the server has not received yet, from a 308's `Range: bytes=0-N` (none: nothing). */
function receivedUpTo(range: string | null): number {
  const match = /^bytes=0-(\d+)$/.exec(range?.trim() ?? "");
  return match ? Number(match[1]) + 1 : 0;
}

/** `length` bytes of the media from `offset`, streamed from R2 with a known length (Content-Length). */
async function chunkBody(media: DraftMedia, offset: number, length: number) {
  const source = await media.open({ offset, length });
  const { readable, writable } = new FixedLengthStream(length);
  // A failed read aborts the stream, which fails the request: the error surfaces there.
  source.pipeTo(writable).catch(() => undefined);
  return readable;
}

export type VideoMetadata = {
  snippet: { title: string; description: string; tags: string[]; categoryId: string };
  status: { privacyStatus: string; selfDeclaredMadeForKids: boolean };
};

/** Uploads `media` as a new video with `metadata`; answers the created video's id. */
export async function uploadVideo(
  api: YouTubeApi,
  token: string,
  metadata: VideoMetadata,
  media: DraftMedia,
): Promise<string> {
  const { fetch: fetcher } = api.context;
  if (media.size <= 0)
    throw new PlatformError("The video file is empty.", { kind: "permanent", code: "empty_media" });
  const what = "YouTube upload session";
  const query = new URLSearchParams({ uploadType: "resumable", part: "snippet,status" });
  const opened = await platformCall(
    fetcher,
    what,
    api.url("upload", "/upload/youtube/v3/videos", Object.fromEntries(query)),
    {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json; charset=UTF-8",
        "x-upload-content-length": String(media.size),
        "x-upload-content-type": media.mime,
      },
      body: JSON.stringify(metadata),
    },
    api.options(what),
  ).catch((error: unknown) => {
    throw notCreated(error);
  });
  const session = sessionUrl(opened.headers.get("location"), api.base("upload"));

  const chunked = resumableFetch(fetcher);
  const size = media.size;
  let offset = 0;
  // One PUT per chunk, and a few more should the server report it kept less than was sent.
  const budget = Math.ceil(size / CHUNK_BYTES) + 3;
  for (let request = 0; request < budget; request++) {
    const length = Math.min(CHUNK_BYTES, size - offset);
    const last = offset + length === size;
    const label = "YouTube upload";
    const answer = await platformCall(
      chunked,
      label,
      session,
      {
        method: "PUT",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": media.mime,
          "content-range": `bytes ${offset}-${offset + length - 1}/${size}`,
        },
        body: await chunkBody(media, offset, length),
      },
      chunkOptions(api, label),
    ).catch((error: unknown) => {
      throw last ? error : notCreated(error);
    });
    if (answer.headers.get(INCOMPLETE) === null) {
      const video = expectShape(insertedVideo, answer.body, label, true);
      const status = video.status?.uploadStatus;
      if (status === "rejected" || status === "failed") {
        const why = video.status?.rejectionReason ?? video.status?.failureReason ?? status;
        throw new PlatformError(`YouTube refused the video (${why}).`, {
          kind: "permanent",
          code: `video_${status}`,
        });
      }
      return video.id;
    }
    offset = receivedUpTo(answer.headers.get("range"));
    // Every byte arrived, yet the upload is not complete: whether the video exists is not known.
    if (offset >= size)
      throw new PlatformError(`${label}: the upload was not completed`, {
        kind: "unknown_outcome",
        code: "upload_incomplete",
      });
  }
  throw new PlatformError("YouTube upload: the server kept losing chunks", {
    kind: "transient",
    code: "upload_incomplete",
  });
}
