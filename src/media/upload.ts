// POST /api/v1/media/upload: multipart/form-data with `workspace_id`, `folder_id?`, then `file`, and
// `alt?` anywhere. The workspace and the folder are checked, and bytes of the storage quota reserved
// (src/media/quota.ts), before a byte of the file is stored, so the target fields must come before the
// file; the file then streams into R2 as it arrives (type from its first bytes, size capped by its type
// and by the bytes reserved). The item's insert swaps the reservation for its exact size; a failure
// drops the reservation.
import type { Database } from "../db/client";
import { type Media, media } from "../db/schema";
import type { Tenant } from "../db/tenancy";
import {
  badRequest,
  invalidInput,
  unknownField,
  unsupportedMediaType,
  validationFailed,
} from "../http/errors";
import { type FormPart, formBoundary, MultipartError, readMultipart } from "../lib/multipart";
import { type MediaLimits, quotaExceeded, quotaUsedUp } from "./config";
import { mediaName } from "./names";
import { reserveTarget } from "./queries";
import { type Reservation, releaseReservation } from "./quota";
import { putInParts } from "./r2-writer";
import { uploadFields } from "./schemas";
import { SNIFF_BYTES, type Sniffed, SUPPORTED_TYPES, sniffMedia } from "./sniff";
import { readHead, TooLarge } from "./streams";

export const MAX_FIELD_BYTES = 4096;

const TEXT_FIELDS = new Set(["workspace_id", "folder_id", "alt"]);

/** A fresh, internal R2 key; never shown to clients. */
export const newMediaKey = () => `media/${crypto.randomUUID()}`;

type Stored = { key: string; object: R2Object; sniffed: Sniffed; filename: string | null };

export type UploadRequest = {
  /** The request's Content-Type header. */
  contentType: string | undefined;
  /** The request's Content-Length header: the file is no larger, so no more is reserved. */
  contentLength: string | undefined;
  body: ReadableStream<Uint8Array> | null;
  db: Database;
  bucket: R2Bucket;
  limits: MediaLimits;
  tenant: Tenant;
};

/** Stores the uploaded file and creates its item (ready at once). */
export async function receiveUpload(request: UploadRequest): Promise<Media> {
  const { body, db, bucket, limits, tenant } = request;
  const boundary = formBoundary(request.contentType);
  if (!boundary) throw unsupportedMediaType("multipart/form-data");
  if (!body) throw validationFailed({ file: ["The file field is required."] });
  const fields: Record<string, string> = {};
  let stored: Stored | null = null;
  let target: { workspace_id: number; folder_id?: number | undefined } | null = null;
  let reservation: Reservation | null = null;

  try {
    for await (const part of readMultipart(body, boundary)) {
      if (part.name === "file") {
        if (part.filename === null || stored) {
          await part.body.cancel();
          throw validationFailed({
            file: [stored ? "Only one file can be uploaded at a time." : "The file field must be a file."],
          });
        }
        const early = uploadFields.safeParse(fields);
        if (!early.success) {
          await part.body.cancel();
          const errors = invalidInput(early.error, fields).body.errors ?? {};
          if (fields.workspace_id === undefined)
            errors.workspace_id = ["The workspace id field must come before the file."];
          throw validationFailed(errors);
        }
        target = early.data;
        reservation = await reserveTarget(
          db,
          { tenant, workspaceId: target.workspace_id, folderId: target.folder_id },
          wanted(request.contentLength, limits),
          limits.quota,
        );
        stored = await storeFile(bucket, part, limits, reservation?.bytes ?? 0);
      } else if (TEXT_FIELDS.has(part.name)) {
        fields[part.name] = await readText(part.body, part.name);
      } else {
        // Never dropped silently: a misspelt `alt` would store an item without its text.
        await part.body.cancel();
        throw unknownField(part.name);
      }
    }

    // `alt` may follow the file; the target fields may not change after it.
    const parsed = uploadFields.safeParse(fields);
    const errors: Record<string, string[]> = {};
    if (!parsed.success) Object.assign(errors, invalidInput(parsed.error, fields).body.errors);
    if (!stored || !target) errors.file = ["The file field is required."];
    if (!parsed.success || !stored || !target) throw validationFailed(errors);
    const data = parsed.data;
    if (data.workspace_id !== target.workspace_id || data.folder_id !== target.folder_id)
      throw validationFailed({
        workspace_id: ["The workspace id and folder id fields must come before the file."],
      });

    // The item's exact size replaces the reservation in one transaction (stored implies reserved).
    const now = new Date();
    const [[row]] = await db.batch([
      db
        .insert(media)
        .values({
          workspaceId: data.workspace_id,
          folderId: data.folder_id ?? null,
          name: mediaName(stored.filename, stored.sniffed),
          r2Key: stored.key,
          mimeType: stored.sniffed.mime,
          type: stored.sniffed.kind,
          size: stored.object.size,
          state: "ready",
          progress: 100,
          alt: data.alt?.trim() || null,
          etag: stored.object.httpEtag,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
      releaseReservation(db, reservation!.id, data.workspace_id, now.getTime()),
    ]);
    return row!;
  } catch (error) {
    if (stored) await bucket.delete(stored.key).catch(() => {});
    if (reservation && target) {
      await releaseReservation(db, reservation.id, target.workspace_id, Date.now()).catch((failure) =>
        console.error("media upload: could not release a reservation", failure),
      );
    }
    if (error instanceof MultipartError) throw badRequest("Malformed multipart/form-data body.");
    throw error;
  }
}

/** The bytes an upload reserves: no more than its body, nor than the largest file any type allows. */
function wanted(contentLength: string | undefined, limits: MediaLimits): number {
  const largest = Math.max(limits.image, limits.video);
  const length = contentLength?.trim();
  return length && /^\d{1,15}$/.test(length) ? Math.min(Number(length), largest) : largest;
}

/** Streams the file into R2, at most its type's cap and the `reserved` bytes of the quota. */
async function storeFile(
  bucket: R2Bucket,
  part: FormPart,
  limits: MediaLimits,
  reserved: number,
): Promise<Stored> {
  const start = await readHead(part.body, SNIFF_BYTES);
  const sniffed = sniffMedia(start.head);
  if (!sniffed) {
    await start.body.cancel();
    throw validationFailed({ file: [`The file must be an image or a video (${SUPPORTED_TYPES}).`] });
  }
  const cap = Math.min(limits[sniffed.kind], reserved);
  if (cap === 0) {
    await start.body.cancel();
    throw validationFailed({ file: [quotaUsedUp(limits)] });
  }
  const byQuota = cap < limits[sniffed.kind];
  const key = newMediaKey();
  try {
    // A part's length is not known before its closing boundary: equal multipart parts it is.
    const object = await putInParts(bucket, key, start, cap, sniffed.mime);
    return { key, object, sniffed, filename: part.filename };
  } catch (error) {
    if (error instanceof TooLarge) {
      throw validationFailed({
        file: [
          byQuota
            ? quotaExceeded(limits, reserved)
            : `The file must not be greater than ${Math.floor(cap / 1024)} kilobytes.`,
        ],
      });
    }
    throw error;
  }
}

async function readText(body: ReadableStream<Uint8Array>, name: string): Promise<string> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    total += next.value.byteLength;
    if (total > MAX_FIELD_BYTES) {
      await reader.cancel();
      throw validationFailed({
        [name]: [`The ${name.replaceAll("_", " ")} field must not be greater than ${MAX_FIELD_BYTES} bytes.`],
      });
    }
    chunks.push(next.value);
  }
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(joined).trim();
}
