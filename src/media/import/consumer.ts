// The `media-import` queue consumer: streams each item's body from its origin into R2, then marks it
// ready. Messages carry only `{media_id}`. Idempotent: an item that is no longer processing is skipped,
// and the R2 key is fixed per item, so a redelivered message stores the same single object. Transient
// faults retry with exponential backoff; after the last retry the message lands in `media-import-dlq`,
// whose consumer marks the item failed. The batch that settles an item (ready or failed) records its
// media.ready / media.failed event in the outbox (src/events/), announced once it commits.
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { media } from "../../db/schema";
import { shardDatabases } from "../../db/shards";
import { announce } from "../../events/announce";
import { recordMediaSettled } from "../../events/record";
import { FetchFailure, statusFailure } from "../../lib/fetch-failure";
import { type Backoff, backoffSeconds, DEAD_LETTER_BACKOFF, eachMessage, retryAfter } from "../../lib/queue";
import { guardedFetch, importGuard } from "../../lib/url-guard";
import { capFor, mediaLimits } from "../config";
import { holdForDownload } from "../quota";
import { putInParts, putKnownLength } from "../r2-writer";
import { declaredType, SNIFF_BYTES } from "../sniff";
import { declaredLength, readHead } from "../streams";
import { describe, FETCH_HEADERS } from "./resolve";

export type MediaImportMessage = { media_id: number };

export const isImportMessage = (body: unknown): body is MediaImportMessage =>
  typeof body === "object" &&
  body !== null &&
  Number.isSafeInteger((body as MediaImportMessage).media_id) &&
  (body as MediaImportMessage).media_id > 0;

/** Retries after 10, 20, 40, 80, 160 s…, capped at 10 minutes. */
export const IMPORT_BACKOFF: Backoff = { base: 10, cap: 600 };

export async function consumeMediaImport(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const shards = shardDatabases(env);
  await eachMessage(batch, {
    name: "media-import",
    parse: (body) => (isImportMessage(body) ? body : null),
    backoff: IMPORT_BACKOFF,
    // Anything but an FetchFailure is unexpected: eachMessage logs it and retries with the backoff.
    handle: async ({ media_id: id }, message) => {
      const db = shards.of(id);
      try {
        await importMedia(env, db, id);
      } catch (error) {
        if (!(error instanceof FetchFailure)) throw error;
        if (error.permanent) {
          try {
            await failSettled(env, db, id, error.message);
            return;
          } catch (markError) {
            console.error("media-import: could not mark an item failed", id, markError);
          }
        }
        retryAfter(message, backoffSeconds(message.attempts, IMPORT_BACKOFF));
      }
    },
  });
}

/** Dead letters: the item's retries are exhausted, so it is failed for good. */
export async function consumeMediaImportDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const shards = shardDatabases(env);
  await eachMessage(batch, {
    name: "media-import-dlq",
    parse: (body) => (isImportMessage(body) ? body : null),
    deadLetters: true,
    backoff: DEAD_LETTER_BACKOFF,
    handle: async ({ media_id: id }) => {
      const key = await failSettled(env, shards.of(id), id, "import retries exhausted");
      // An attempt may have stored the bytes and then failed to say so: a failed item keeps nothing.
      if (key) await env.MEDIA.delete(key);
    },
  });
}

const failItem = (db: Database, id: number, reason: string, at: Date) =>
  db
    .update(media)
    .set({ state: "failed", progress: 0, size: 0, error: reason.slice(0, 500), updatedAt: at })
    .where(and(eq(media.id, id), eq(media.state, "processing")))
    .returning({ r2Key: media.r2Key });

/** Fails an item still processing; answers its R2 key, or null when it was not processing. */
export async function markFailed(db: Database, id: number, reason: string): Promise<string | null> {
  const [row] = await failItem(db, id, reason, new Date());
  return row?.r2Key ?? null;
}

/** markFailed, its media.failed event recorded in the same batch and announced. */
async function failSettled(env: Env, db: Database, id: number, reason: string): Promise<string | null> {
  const at = new Date();
  const [[row], recorded] = await db.batch([
    failItem(db, id, reason, at),
    recordMediaSettled(db, id, at.getTime()),
  ]);
  await announce(env, recorded);
  return row?.r2Key ?? null;
}

/** Downloads one item into R2. Throws FetchFailure (permanent or not) or any transient fault. */
export async function importMedia(env: Env, db: Database, id: number): Promise<void> {
  const [row] = await db
    .select({
      state: media.state,
      sourceUrl: media.sourceUrl,
      r2Key: media.r2Key,
      workspaceId: media.workspaceId,
    })
    .from(media)
    .where(eq(media.id, id));
  // Settled or gone: an earlier delivery (or a delete) finished it.
  if (row?.state !== "processing") return;
  if (!row.sourceUrl) throw new FetchFailure("no source URL", true);

  const limits = mediaLimits(env);
  const { response, url } = await guardedFetch(row.sourceUrl, {
    guard: importGuard(env),
    headers: FETCH_HEADERS,
    signal: AbortSignal.timeout(limits.downloadMs),
  });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw statusFailure(response.status);
  }
  const length = declaredLength(response);
  const start = await readHead(response.body, SNIFF_BYTES);
  let candidate: ReturnType<typeof describe>;
  try {
    // The same rules as at request time (type by the first bytes, cap by Content-Length): the origin
    // may serve something else by now.
    candidate = describe(
      row.sourceUrl,
      url,
      declaredType(response.headers.get("content-type")),
      start.head,
      length,
      limits,
    );
  } catch (error) {
    await start.body.cancel();
    throw error;
  }
  // Before a byte is stored, the item holds exactly its length, or (no length) what is left of the
  // quota up to its type's cap: one conditional statement, so parallel downloads cannot overfill it.
  let room: number;
  try {
    const [held] = await holdForDownload(
      db,
      id,
      length,
      capFor(limits, candidate.kind),
      limits.quota,
      Date.now(),
    );
    if (!held) throw new FetchFailure("larger than what is left of the workspace's storage quota", true);
    room = held.bytes;
  } catch (error) {
    await start.body.cancel();
    throw error;
  }
  // With a length, the rest of the body is piped natively and can be no longer than promised; without
  // one, the bytes are counted into multipart parts and the download is cut off at the room left.
  const object =
    length === null
      ? await putInParts(env.MEDIA, row.r2Key, start, room, candidate.mime)
      : await putKnownLength(env.MEDIA, row.r2Key, start, length, candidate.mime);

  const at = new Date();
  const [updated, recorded] = await db.batch([
    db
      .update(media)
      .set({
        state: "ready",
        progress: 100,
        size: object.size,
        mimeType: candidate.mime,
        type: candidate.kind,
        etag: object.httpEtag,
        error: null,
        updatedAt: at,
      })
      .where(and(eq(media.id, id), eq(media.state, "processing")))
      .returning({ id: media.id }),
    recordMediaSettled(db, id, at.getTime()),
  ]);
  await announce(env, recorded);
  if (updated.length === 0) {
    // Deleted (or failed for good) while the bytes were moving: leave no orphan. A twin delivery that
    // finished first wrote the same key, so a ready item keeps its object.
    const now = await db.select({ state: media.state }).from(media).where(eq(media.id, id)).get();
    if (!now || now.state === "failed") await env.MEDIA.delete(row.r2Key);
  }
}
