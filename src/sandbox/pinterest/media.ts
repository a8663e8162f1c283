// Pinterest's video media on the emulator: the registration (POST /v5/media), its status
// (GET /v5/media/{id}: registered → processing → succeeded) and the storage form POST of the upload_url
// it hands out (the upload_parameters, then `file`; 204), with the storage's own XML errors.
// developers.pinterest.com › Create boards and Pins › Creating video Pins; Register media upload; Get
// media upload details.
import { z } from "zod";
import { timingSafeEqualText } from "../../lib/crypto";
import { digits } from "../../platforms/sandbox/ids";
import { type Emulated, isReady, refuse } from "../emulator";
import { ID_DIGITS, UPLOAD_MAX_BYTES } from "./rules";

/** Where Pinterest's media registration sends the bytes (declared as the adapter's `upload` host). */
export const UPLOAD_URL = "https://pinterest-media-upload.s3-accelerate.amazonaws.com/";
/** How long Pinterest processes an uploaded video in the sandbox (#sandbox-slow: 150 s). */
export const VIDEO_PROCESSING_MS = 0;
/** The ledger kind of a registered media. */
export const MEDIA_KIND = "pinterest_media";
const DAY_MS = 86_400_000;

type MediaObject = NonNullable<Awaited<ReturnType<Emulated["object"]>>>;

/** registered until the bytes arrive, then processing until ready, then succeeded. */
export function mediaStatus(media: MediaObject): "registered" | "processing" | "succeeded" | "failed" {
  if (media.data.uploaded !== true) return "registered";
  return isReady(media) ? "succeeded" : "processing";
}

const mediaRegistration = z.object({ media_type: z.literal("video") });

/** POST /v5/media: a video registered, answered with where and how to post its bytes (201). */
export async function registerMedia(e: Emulated) {
  const me = await e.caller();
  await e.json(mediaRegistration);
  const mediaId = digits(crypto.getRandomValues(new Uint8Array(16)), ID_DIGITS.media);
  const key = `uploads/sandbox/${me.platformId}:video:${mediaId}`;
  const signature = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
  const now = new Date();
  const amzDate = `${now.toISOString().replace(/[-:]/g, "").slice(0, 15)}Z`;
  await e.createObject({
    id: mediaId,
    handle: me.handle,
    kind: MEDIA_KIND,
    data: { key, signature, uploaded: false },
    // Not ready before its bytes arrive: the upload sets its processing time.
    readyAt: Number.MAX_SAFE_INTEGER,
  });
  return {
    media_id: mediaId,
    media_type: "video",
    upload_url: UPLOAD_URL,
    upload_parameters: {
      "x-amz-date": amzDate,
      "x-amz-signature": signature,
      "x-amz-security-token": "sandbox",
      "x-amz-algorithm": "AWS4-HMAC-SHA256",
      key,
      policy: btoa(JSON.stringify({ expiration: new Date(Date.now() + DAY_MS).toISOString() })),
      "x-amz-credential": `SANDBOX/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request`,
      "Content-Type": "multipart/form-data",
    },
  };
}

/** GET /v5/media/{media_id}: the owner's media and its status. */
export async function mediaOf(e: Emulated, mediaId: string) {
  const me = await e.caller();
  const media = /^\d+$/.test(mediaId) ? await e.object(mediaId) : null;
  if (!media || media.kind !== MEDIA_KIND || media.handle !== me.handle)
    return refuse(404, "not_found", "Media upload not found.", { code: 404 });
  return { media_id: media.id, media_type: "video", status: mediaStatus(media) };
}

/** The storage's own error answer (S3's XML). */
const s3Error = (status: number, code: string, message: string) =>
  new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>sandbox</RequestId></Error>`,
    { status, headers: { "content-type": "application/xml" } },
  );

/** The storage form POST of upload_url: the upload_parameters, then `file`; 204 when stored. */
export async function storageUpload(e: Emulated, request: Request) {
  const length = Number(request.headers.get("content-length") ?? Number.NaN);
  if (!Number.isFinite(length))
    return s3Error(411, "MissingContentLength", "You must provide the Content-Length HTTP header.");
  if (length > UPLOAD_MAX_BYTES)
    return s3Error(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size");
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data"))
    return s3Error(
      412,
      "PreconditionFailed",
      "Bucket POST must be of the enclosure-type multipart/form-data",
    );
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return s3Error(
      400,
      "MalformedPOSTRequest",
      "The body of your POST request is not well-formed multipart/form-data.",
    );
  }
  const key = form.get("key");
  const file = form.get("file");
  if (typeof key !== "string")
    return s3Error(400, "InvalidArgument", "Bucket POST must contain a field named 'key'.");
  const mediaId = /:video:(\d+)$/.exec(key)?.[1];
  const media = mediaId ? await e.object(mediaId) : null;
  if (
    !media ||
    media.kind !== MEDIA_KIND ||
    media.data.key !== key ||
    typeof form.get("x-amz-signature") !== "string" ||
    !timingSafeEqualText(String(form.get("x-amz-signature")), String(media.data.signature)) ||
    typeof form.get("policy") !== "string"
  )
    return s3Error(403, "AccessDenied", "Invalid according to Policy: Policy Condition failed");
  if (!(file instanceof File))
    return s3Error(400, "InvalidArgument", "POST requires exactly one file upload per request.");
  const type = file.type || "video/mp4";
  const url = await e.storeMedia(media.id, file.stream(), type, media.handle);
  await e.updateObject(
    media.id,
    { uploaded: true, url, type, name: file.name },
    e.readyAt(file.name, VIDEO_PROCESSING_MS),
  );
  return new Response(null, { status: 204 });
}
