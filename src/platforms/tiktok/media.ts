// Sending a video's bytes to TikTok (source FILE_UPLOAD): the file is cut into chunks by TikTok's rules
// and each is streamed from R2 with a ranged read, PUT to the upload URL with its Content-Range, one
// after the other; never more than one chunk's stream is open, and nothing is buffered. The adapter
// (publish.ts) records each chunk sent, so a later attempt goes on from the next one.
// developers.tiktok.com › Content Posting API › Media Transfer Guide (chunk restrictions).
import { platformCall } from "../call";
import { type ByteRange, type DraftMedia, type Fetch, PlatformError } from "../types";
import { MAX_VIDEO_BYTES } from "./rules";

/**
 * The chunk size. TikTok takes chunks of 5 to 64 MB (the last up to 128 MB) and a file under 5 MB whole;
 * 16 MiB keeps each PUT well within the upload timeout (call.ts UPLOAD_TIMEOUT_MS) while a 4 GB file stays at 256
 * chunks, far under TikTok's 1000.
 */
export const CHUNK_BYTES = 16 * 1024 * 1024;

export type ChunkPlan = { chunkSize: number; count: number; ranges: ByteRange[] };

/**
 * TikTok's arithmetic: a file smaller than a chunk goes whole; otherwise `count` = floor(size / chunk)
 * chunks of `chunkSize`, the last one also taking the trailing bytes (so under two chunks' worth).
 */
export function chunkPlan(size: number): ChunkPlan {
  if (!Number.isSafeInteger(size) || size <= 0)
    throw new PlatformError("The video is empty.", { kind: "permanent", code: "invalid_media" });
  if (size > MAX_VIDEO_BYTES)
    throw new PlatformError("TikTok takes videos of at most 4 GB.", {
      kind: "permanent",
      code: "media_too_large",
    });
  const chunkSize = Math.min(size, CHUNK_BYTES);
  const count = Math.floor(size / chunkSize);
  const ranges = Array.from({ length: count }, (_, i) => {
    const offset = i * chunkSize;
    return { offset, length: i === count - 1 ? size - offset : chunkSize };
  });
  return { chunkSize, count, ranges };
}

/** The upload answers carry nothing this adapter reads (201/206, sometimes a body): only the status counts. */
const statusOnly =
  (fetcher: Fetch): Fetch =>
  async (input, init) => {
    const response = await fetcher(input, init);
    if (!response.ok) return response;
    await response.body?.cancel();
    return new Response(null, { status: response.status, headers: response.headers });
  };

/**
 * PUTs one chunk (`range`) of `media` to `uploadUrl` (which carries its own credentials: no token is
 * sent), with the upload timeout: a 16 MiB chunk may take far longer than an ordinary call. TikTok takes
 * the chunks of one upload URL in order (Media Transfer Guide: "File chunks must be uploaded
 * sequentially"), so the caller sends them one after the other.
 */
export async function uploadChunk(
  fetcher: Fetch,
  uploadUrl: string,
  media: DraftMedia,
  range: ByteRange,
  timeoutMs: number,
) {
  const last = range.offset + range.length - 1;
  // A fixed-length stream makes the runtime send Content-Length instead of a chunked body.
  const { readable, writable } = new FixedLengthStream(range.length);
  const source = await media.open(range);
  // A failed read errors `readable`, which fails the PUT below.
  source.pipeTo(writable).catch(() => {});
  await platformCall(
    statusOnly(fetcher),
    `TikTok video upload (bytes ${range.offset}-${last})`,
    uploadUrl,
    {
      method: "PUT",
      headers: {
        "content-type": media.mime,
        "content-length": String(range.length),
        "content-range": `bytes ${range.offset}-${last}/${media.size}`,
      },
      body: readable,
    },
    { timeoutMs },
  );
}
