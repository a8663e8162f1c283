// The upload URL a FILE_UPLOAD init hands out (developers.tiktok.com › Content Posting API › Media
// Transfer Guide): each chunk a PUT with its Content-Range, in order ("File chunks must be uploaded
// sequentially": a chunk that is not the next one is refused); 206 until the last, then 201; refused an
// hour after the init issued it (Direct Post reference).
import { readCapped } from "../../lib/capped-body";
import { timingSafeEqualText } from "../../lib/crypto";
import { type Emulated, refuse } from "../emulator";
import { type Publish, publishOf, settle } from "./publish";
import { EMULATED_CHUNK_MAX, UPLOAD_URL_VALID_MS, VIDEO_TYPES } from "./rules";

/** `bytes first-last/total` of a Content-Range. */
function contentRange(header: string | undefined) {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header?.trim() ?? "");
  if (!match) return null;
  const [first, last, total] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return last >= first && total > last ? { first, last, total } : null;
}

const invalid = (status: 400 | 404, reason: "invalid_request" | "not_found", message: string) =>
  refuse(status, reason, message, { code: "invalid_file_upload" });

/** One chunk PUT to the upload URL (`request`, with its upload_id and upload_token). */
export async function uploadChunk(emulated: Emulated, request: Request) {
  const query = new URL(request.url).searchParams;
  const header = (name: string) => request.headers.get(name) ?? undefined;
  const id = query.get("upload_id") ?? "";
  const object = id ? await emulated.object(id) : null;
  const publish = object?.kind === "publish" ? publishOf(object) : null;
  if (
    !object ||
    !publish ||
    publish.mode !== "FILE_UPLOAD" ||
    !timingSafeEqualText(query.get("upload_token") ?? "", publish.uploadToken ?? "")
  )
    return invalid(404, "not_found", "The upload URL is invalid or expired.");
  if (emulated.now() >= (publish.uploadIssuedAt ?? object.createdAt) + UPLOAD_URL_VALID_MS)
    return invalid(404, "not_found", "The upload URL is invalid or expired.");
  if (publish.complete) return invalid(400, "invalid_request", "The upload is already complete.");
  const type = (header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!VIDEO_TYPES.has(type))
    return invalid(400, "invalid_request", "Content-Type must be video/mp4, video/quicktime or video/webm.");
  const range = contentRange(header("content-range"));
  const size = publish.videoSize!;
  const index = Math.floor(publish.uploaded / publish.chunkSize!);
  const lastIndex = publish.chunkCount! - 1;
  const expected = index === lastIndex ? size - publish.uploaded : publish.chunkSize!;
  if (
    !range ||
    range.total !== size ||
    range.first !== publish.uploaded ||
    range.last - range.first + 1 !== expected
  )
    return invalid(
      400,
      "invalid_request",
      `Content-Range must be bytes ${publish.uploaded}-${publish.uploaded + expected - 1}/${size}.`,
    );
  if (expected > EMULATED_CHUNK_MAX)
    return refuse(413, "too_large", "The sandbox takes chunks of at most 32 MB.");
  const bytes = await readCapped(request, expected);
  if (bytes === null || bytes === "too_large" || bytes.byteLength !== expected)
    return invalid(400, "invalid_request", "The chunk's length does not match its Content-Range.");
  const uploaded = publish.uploaded + expected;
  const complete = uploaded === size;
  const patch: Partial<Publish> = { uploaded, complete };
  // The page shows a video sent in one piece; a chunked one is listed without its bytes.
  if (complete) {
    const url =
      publish.chunkCount === 1
        ? await emulated.storeMedia(publish.videoId, bytes, type, object.handle)
        : `${emulated.base}/media/${publish.videoId}`;
    patch.media = [{ url, type }];
  }
  const updated = await emulated.updateObject(
    object.id,
    patch,
    complete ? emulated.readyAt(publish.text) : undefined,
  );
  if (!complete) return new Response(null, { status: 206 });
  await settle(emulated, updated!);
  return new Response(null, { status: 201 });
}
