// videos.insert through Google's resumable upload protocol: a POST with the video's metadata opens an
// upload session (its URL comes back in Location), then the bytes go up in chunks streamed from R2, each
// a PUT with its Content-Range, answered 308 (with the Range received so far) until the last one, which
// is answered with the video resource. Chunks keep every request well inside a Worker's memory, whatever
// the size of the video; each chunk sends a file's bytes, so it has the upload timeout.
//
// Resuming (issue 20): the session URL (and the file's size) is recorded as soon as Google hands it out,
// the video id as soon as the last chunk is answered. A later attempt (or `find`) asks the session what
// it has — a PUT with `Content-Range: bytes */SIZE`, answered 308 with the `Range` received so far, or
// 200/201 with the video resource when the upload had completed — and sends only the rest, or takes the
// video id. A session Google answers 404 or 410 for has expired: it is forgotten and replaced by a new
// one (the bytes go up again; no video existed). Before each chunk the attempt's deadline is checked:
// past it the attempt ends with `still_processing` and the next one resumes the session. Only the last
// chunk can create the video: a lost answer to it is an unknown outcome, which `find` settles by asking
// the recorded session.
// developers.google.com › YouTube Data API › Guides › Resumable uploads (Step 4 "Resume an interrupted
// upload": check the status, resume the upload).
import { platformCall } from "../call";
import { pastDeadline, progressOf, stillProcessing } from "../progress";
import { type DraftMedia, type Fetch, PlatformError, type Progress, type PublishDraft } from "../types";
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
  timeoutMs: api.context.timeouts.upload,
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

/** Where the upload session (its URL and the file's size) is recorded between attempts. */
export const SESSION_PROGRESS = "upload_session";
/** Where the id of the video the upload created is recorded. */
export const VIDEO_PROGRESS = "video_id";
/** Seconds until the next attempt resumes an upload this attempt had no time to finish. */
export const RESUME_AFTER_SECONDS = 5;

type RecordedSession = { url: string; size: number };

/** The recorded session, if it is one this context may send the token to. */
function recordedSession(api: YouTubeApi, value: unknown): RecordedSession | null {
  if (!value || typeof value !== "object") return null;
  const { url, size } = value as Record<string, unknown>;
  if (typeof url !== "string" || typeof size !== "number" || !(size > 0)) return null;
  try {
    return { url: sessionUrl(url, api.base("upload")), size };
  } catch {
    return null;
  }
}

/** The video id an earlier attempt recorded, if any. */
export const recordedVideo = (progress: Progress): string | null => {
  const id = progress.get(VIDEO_PROGRESS);
  return typeof id === "string" && id !== "" ? id : null;
};

/** A video resource answered by the last chunk (or a status query): its id, or a permanent refusal. */
function videoIdOf(body: unknown, label: string): string {
  const video = expectShape(insertedVideo, body, label, true);
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

export type SessionState =
  | { kind: "complete"; videoId: string }
  | { kind: "incomplete"; received: number }
  | { kind: "gone" };

/**
 * What the session has: a PUT with no bytes and `Content-Range: bytes * /SIZE` (no space), answered
 * 308 with the Range received so far, 200/201 with the video resource when the upload completed, 404
 * or 410 when the session expired. The query creates nothing: a lost answer is a plain failure.
 */
export async function sessionStatus(
  api: YouTubeApi,
  token: string,
  session: RecordedSession,
): Promise<SessionState> {
  const label = "YouTube upload status";
  try {
    const answer = await platformCall(
      resumableFetch(api.context.fetch),
      label,
      session.url,
      {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-range": `bytes */${session.size}` },
        body: "",
      },
      // A status query sends no bytes: the call timeout.
      { ...chunkOptions(api, label), timeoutMs: api.context.timeouts.call },
    );
    if (answer.headers.get(INCOMPLETE) !== null)
      return { kind: "incomplete", received: receivedUpTo(answer.headers.get("range")) };
    return { kind: "complete", videoId: videoIdOf(answer.body, label) };
  } catch (error) {
    if (error instanceof PlatformError && error.code === "upload_session_expired") return { kind: "gone" };
    throw notCreated(error);
  }
}

/** The session recorded by an earlier attempt, asked what it has; null when nothing is recorded. */
export async function recordedSessionState(
  api: YouTubeApi,
  token: string,
  progress: Progress,
): Promise<(SessionState & { session: RecordedSession }) | null> {
  const session = recordedSession(api, progress.get(SESSION_PROGRESS));
  if (!session) return null;
  const state = await sessionStatus(api, token, session);
  if (state.kind === "complete") await progress.set(VIDEO_PROGRESS, state.videoId);
  return { ...state, session };
}

/** Opens a new upload session for `media` with `metadata`; answers its URL. */
async function openSession(api: YouTubeApi, token: string, metadata: VideoMetadata, media: DraftMedia) {
  const what = "YouTube upload session";
  const query = new URLSearchParams({ uploadType: "resumable", part: "snippet,status" });
  const opened = await platformCall(
    api.context.fetch,
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
  return sessionUrl(opened.headers.get("location"), api.base("upload"));
}

/**
 * Uploads `media` as a new video with `metadata`, or resumes the upload an earlier attempt recorded;
 * answers the created video's id.
 */
export async function uploadVideo(
  api: YouTubeApi,
  token: string,
  metadata: VideoMetadata,
  media: DraftMedia,
  draft: Pick<PublishDraft, "progress" | "deadline"> = {},
): Promise<string> {
  if (media.size <= 0)
    throw new PlatformError("The video file is empty.", { kind: "permanent", code: "empty_media" });
  const progress = progressOf(draft);
  const done = recordedVideo(progress);
  if (done) return done;

  const size = media.size;
  let session: string | null = null;
  let offset = 0;
  const recorded = await recordedSessionState(api, token, progress);
  if (recorded?.kind === "complete") return recorded.videoId;
  // A session for a file of another size is not this upload's: replaced like an expired one.
  if (recorded?.kind === "incomplete" && recorded.session.size === size) {
    session = recorded.session.url;
    offset = recorded.received;
  }
  if (session === null) {
    // Nothing recorded, or Google says the session is gone (404/410, expired): a new session.
    session = await openSession(api, token, metadata, media);
    await progress.set(SESSION_PROGRESS, { url: session, size });
  }

  const chunked = resumableFetch(api.context.fetch);
  // One PUT per chunk left, and a few more should the server report it kept less than was sent.
  const budget = Math.ceil((size - offset) / CHUNK_BYTES) + 3;
  for (let request = 0; request < budget; request++) {
    if (offset >= size)
      // Every byte arrived, yet the session did not answer the video: whether it exists is not known.
      throw new PlatformError("YouTube upload: the upload was not completed", {
        kind: "unknown_outcome",
        code: "upload_incomplete",
      });
    if (pastDeadline(draft, api.context.now()))
      throw stillProcessing(
        `YouTube upload: ${offset} of ${size} bytes sent; the next attempt sends the rest.`,
        RESUME_AFTER_SECONDS,
      );
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
    ).catch(async (error: unknown) => {
      // An expired session is forgotten: the next attempt opens a new one.
      if (error instanceof PlatformError && error.code === "upload_session_expired")
        await progress.set(SESSION_PROGRESS, undefined);
      // Before the last chunk no video exists: the next attempt asks the session and sends the rest.
      throw last ? error : notCreated(error);
    });
    if (answer.headers.get(INCOMPLETE) === null) {
      const body = answer.body as { id?: unknown } | null;
      if (body && typeof body.id === "string") await progress.set(VIDEO_PROGRESS, body.id);
      return videoIdOf(answer.body, label);
    }
    offset = receivedUpTo(answer.headers.get("range"));
  }
  throw new PlatformError("YouTube upload: the server kept losing chunks", {
    kind: "transient",
    code: "upload_incomplete",
  });
}
