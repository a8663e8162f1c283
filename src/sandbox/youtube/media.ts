// videos.insert through the resumable upload protocol on the emulator: the metadata opens a session (its
// URI in Location), the bytes are PUT in order with Content-Range (308 Resume Incomplete with the Range
// received until the last, which answers the video resource), a `bytes */SIZE` PUT asks the session's
// state, and an expired session answers 404.
// developers.google.com › YouTube Data API › Videos: insert; Guides › Resumable uploads.
import { readCapped } from "../../lib/capped-body";
import { type Emulated, lostAnswer, refuse } from "../emulator";
import { json } from "./errors";
import { videoOf } from "./publish";
import {
  CHUNK_UNIT,
  checkMetadata,
  EMULATED_CHUNK_MAX,
  MAX_VIDEO_BYTES,
  newVideoId,
  partsOf,
  type Req,
  randomId,
  type VideoResource,
  videoResource,
} from "./rules";

export type Session = {
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

/** videos.insert, resumable: the metadata opens a session; its URI comes back in Location. */
export async function openUpload(emulated: Emulated, req: Req): Promise<Response> {
  const caller = await emulated.caller();
  if (req.query("uploadType") !== "resumable")
    return refuse(400, "invalid_request", "The sandbox accepts uploadType=resumable only.", {
      code: "invalidParameter",
    });
  const parts = partsOf(req, [
    "snippet",
    "status",
    "contentDetails",
    "recordingDetails",
    "localizations",
    "id",
  ]);
  const size = req.header("x-upload-content-length");
  if (size !== undefined && !/^\d+$/.test(size))
    return refuse(400, "invalid_request", "X-Upload-Content-Length must be a number.", {
      code: "invalidParameter",
    });
  if (size !== undefined && (Number(size) === 0 || Number(size) > MAX_VIDEO_BYTES))
    return refuse(400, "invalid_request", "The video is empty or larger than 256 GB.", {
      code: "invalidParameter",
    });
  const type = (req.header("x-upload-content-type") ?? "video/*").toLowerCase();
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
      part: req.query("part") ?? "",
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
    part: req.query("part") ?? "",
  });
  return new Response(null, {
    status: 200,
    headers: {
      location: `${emulated.base}/upload/youtube/v3/videos?${query}`,
      "x-guploader-uploadid": session.id,
    },
  });
}

/** The session URI: the bytes in order, each PUT with its Content-Range; 308 until the last. */
export async function uploadBytes(emulated: Emulated, req: Req): Promise<Response> {
  const id = req.query("upload_id") ?? "";
  const object = id ? await emulated.object(id) : null;
  if (object?.kind !== "upload_session")
    return refuse(404, "not_found", "The upload session does not exist or has expired.", {
      code: "notFound",
    });
  // The session URI is the credential; a token sent along must still be the channel's.
  if (req.header("authorization")) {
    const caller = await emulated.caller();
    if (caller.handle !== object.handle)
      return refuse(403, "forbidden", "The upload session belongs to another channel.", {
        code: "forbidden",
      });
  }
  const session = object.data as unknown as Session;
  if (session.videoId) {
    const done = await emulated.post(session.videoId);
    if (done) return json(await videoOf(emulated, done, new Set(session.part.split(",")), true), 200);
  }
  // An expired session is gone: Google answers 404 and the upload starts over with a new session.
  if (session.expiresAt !== undefined && Date.now() >= session.expiresAt)
    return refuse(404, "not_found", "The upload session does not exist or has expired.", {
      code: "notFound",
    });
  const range = contentRange(req.header("content-range"));
  const declared = Number(req.header("content-length") ?? "0");
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
  const bytes = await readCapped(req.raw, length);
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
    ? await emulated.storeMedia(
        videoId,
        bytes,
        session.type === "video/*" ? "video/mp4" : session.type,
        object.handle,
      )
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
  return json(
    await videoOf(emulated, post, new Set([...session.part.split(","), "snippet", "status"]), true),
    201,
  );
}
