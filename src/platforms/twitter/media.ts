// Media for X posts through the v2 chunked upload (docs.x.com › X API › Media): initialize, append the
// bytes in bounded chunks streamed from R2 by range (never a whole video in memory), finalize, then wait
// for X's processing of videos and GIFs with bounded status polls. Each step is recorded on the row as it
// is done (the publication's progress), so a later attempt resumes the same upload instead of starting
// over: it appends from the next segment, finalizes, or polls the status of what was finalized.
import { pastDeadline, stillProcessing } from "../progress";
import { type AccountAuth, type DraftMedia, PlatformError, type Progress } from "../types";
import { LABEL, type XApi } from "./api";
import { appended, type MediaUpload, mediaUpload, type ProcessingInfo } from "./schemas";

/** Bytes per append: X takes up to 5 MB per segment; 4 MB keeps one chunk's memory small. */
export const CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * Status polls in one attempt, and the seconds of waiting between them (X's `check_after_secs`, each
 * honoured in full): past either, the attempt ends and the next one polls the same media again.
 */
export const MAX_STATUS_POLLS = 15;
export const MAX_WAIT_SECONDS = 90;
/**
 * An upload recorded by an earlier attempt is not used when it expires within this margin: X would
 * refuse it before the post is created (its `expires_after_secs`), so the file is uploaded again.
 */
export const EXPIRY_MARGIN_MS = 5 * 60 * 1000;
/** How long an upload is taken to live when X's answer does not say (it always does: a cautious hour). */
export const DEFAULT_EXPIRES_SECONDS = 60 * 60;

/** X's documented limits, declared in rules.ts: four images, or one video or GIF. */
import { MAX_MEDIA_PER_POST } from "./rules";

export { MAX_MEDIA_PER_POST };

const kindOf = (media: DraftMedia) =>
  media.kind === "video" ? "video" : media.mime === "image/gif" ? "gif" : ("image" as const);

const CATEGORY = { image: "tweet_image", gif: "tweet_gif", video: "tweet_video" } as const;

const refused = (message: string, code = "media_rejected") =>
  new PlatformError(`${LABEL} publish: ${message}`, { kind: "permanent", code });

/** Exactly `length` bytes at `offset` of the file, read from its range stream (at most CHUNK_BYTES). */
async function readChunk(
  media: DraftMedia,
  offset: number,
  length: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunk = new Uint8Array(length);
  let filled = 0;
  const reader = (await media.open({ offset, length })).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (filled + value.byteLength > length) {
      await reader.cancel();
      throw new PlatformError(`${LABEL} publish: ${media.name} is longer than its recorded size`, {
        kind: "permanent",
        code: "media_size_mismatch",
      });
    }
    chunk.set(value, filled);
    filled += value.byteLength;
  }
  if (filled !== length) {
    throw new PlatformError(`${LABEL} publish: ${media.name} is shorter than its recorded size`, {
      kind: "permanent",
      code: "media_size_mismatch",
    });
  }
  return chunk;
}

/**
 * What the row keeps of one media upload (progress key `media.<item>.<position>`), written as each step
 * is done: the id right after initialize, the count of appended segments after each append, `finalizing`
 * before the finalize is sent and `finalized` once it answered, `ready` once X's processing succeeded.
 * `expiresAt` (epoch ms) is when X stops accepting it: docs.x.com › Media upload (chunked) says "the
 * entire file must be uploaded before expires_after_secs seconds", and FINALIZE's page that "the returned
 * media id is only valid for expires_after_secs seconds": it is renewed from the finalize answer and from
 * every status answer after it.
 */
export type MediaRecord = {
  id: string;
  /** X's `media_key` (`3_<id>`, …): what a post's `attachments.media_keys` names it by (find). */
  mediaKey?: string;
  expiresAt: number;
  segments: number;
  finalizing?: boolean;
  finalized?: boolean;
  ready?: boolean;
};

export const mediaKey = (item: number, position: number) => `media.${item}.${position}`;

/** What uploading needs from the attempt: its clock, its pause, its deadline and its progress. */
export type UploadContext = {
  api: XApi;
  account: AccountAuth;
  progress: Progress;
  now(): number;
  sleep(ms: number): Promise<void>;
  deadline?: number;
  /** The context's timeout for a request that sends a file's bytes (every append). */
  uploadTimeoutMs: number;
};

export function recordOf(value: unknown): MediaRecord | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Partial<MediaRecord>;
  return typeof record.id === "string" &&
    typeof record.expiresAt === "number" &&
    typeof record.segments === "number"
    ? (record as MediaRecord)
    : undefined;
}

/** The media keys recorded for item `item`'s files (find recognises a post of media alone by them). */
export function recordedMediaKeys(progress: Progress, item: number): string[] {
  const keys: string[] = [];
  for (let position = 0; position < MAX_MEDIA_PER_POST; position++) {
    const key = recordOf(progress.get(mediaKey(item, position)))?.mediaKey;
    if (key) keys.push(key);
  }
  return keys;
}

const expiresAt = (now: number, seconds: number | undefined) =>
  now + (seconds ?? DEFAULT_EXPIRES_SECONDS) * 1000;

/** A finalized upload, and the processing state its finalize (or status) answered in this attempt. */
export type Uploaded = { record: MediaRecord; info?: ProcessingInfo };

/**
 * Uploads `media` up to its finalize, or resumes what an earlier attempt recorded under `key`: the
 * appends from the next segment of an unfinalized upload, the finalize, nothing for a finalized one. A
 * recorded upload within EXPIRY_MARGIN_MS of its expiry (or past it) is dead for X: it is forgotten
 * and the file is uploaded again from the start.
 */
export async function uploadMedia(upload: UploadContext, media: DraftMedia, key: string): Promise<Uploaded> {
  const { api, account, progress } = upload;
  const base = api.url("/media/upload");
  let record = recordOf(progress.get(key));
  // X refuses an upload (or a media id) past its expires_after_secs: a new one is started.
  if (record && record.expiresAt - upload.now() < EXPIRY_MARGIN_MS) record = undefined;
  if (!record) {
    const started = await api.post(
      account,
      `${LABEL} media upload (initialize)`,
      `${base}/initialize`,
      { media_type: media.mime, total_bytes: media.size, media_category: CATEGORY[kindOf(media)] },
      mediaUpload,
    );
    record = {
      id: started.data.id,
      ...(started.data.media_key ? { mediaKey: started.data.media_key } : {}),
      expiresAt: expiresAt(upload.now(), started.data.expires_after_secs),
      segments: 0,
    };
    await progress.set(key, record);
  }
  const id = record.id;
  const segments = Math.ceil(media.size / CHUNK_BYTES);
  // An append whose answer was lost is sent again with the same segment_index: X keeps the last one.
  for (let segment = record.segments; segment < segments && !record.finalized; segment++) {
    if (pastDeadline(upload, upload.now()))
      throw stillProcessing(`${LABEL} publish: the media upload continues in the next attempt.`, 1);
    const offset = segment * CHUNK_BYTES;
    const bytes = await readChunk(media, offset, Math.min(CHUNK_BYTES, media.size - offset));
    const form = new FormData();
    form.set("segment_index", String(segment));
    form.set("media", new Blob([bytes], { type: "application/octet-stream" }), media.name);
    await api.post(
      account,
      `${LABEL} media upload (append ${segment})`,
      `${base}/${id}/append`,
      form,
      appended,
      { timeoutMs: upload.uploadTimeoutMs },
    );
    record = { ...record, segments: segment + 1 };
    await progress.set(key, record);
  }
  if (record.finalized) return { record };
  // A finalize sent by an earlier attempt whose answer was lost: X answers the status of a finalized
  // upload, and refuses a second finalize, so the status is asked first.
  if (record.finalizing) {
    const status = await statusOf(api, account, id).catch((error: unknown) => {
      if (error instanceof PlatformError && error.kind === "permanent") return null;
      throw error;
    });
    if (status) return finished(upload, key, record, status.data);
  }
  record = { ...record, finalizing: true };
  await progress.set(key, record);
  const finalized = await api.post(
    account,
    `${LABEL} media upload (finalize)`,
    `${base}/${id}/finalize`,
    null,
    mediaUpload,
  );
  return finished(upload, key, record, finalized.data);
}

/** The record with the expiry X's answer renews (its `expires_after_secs` counts from now). */
const renewed = (record: MediaRecord, answer: MediaUpload, now: number): MediaRecord =>
  answer.expires_after_secs === undefined
    ? record
    : { ...record, expiresAt: expiresAt(now, answer.expires_after_secs) };

/** Records a finalized upload: ready when X has nothing (more) to process. */
async function finished(
  upload: UploadContext,
  key: string,
  record: MediaRecord,
  answer: MediaUpload,
): Promise<Uploaded> {
  const { finalizing: _, ...rest } = renewed(record, answer, upload.now());
  const info = answer.processing_info;
  const done: MediaRecord = { ...rest, finalized: true };
  if (!info || info.state === "succeeded") done.ready = true;
  await upload.progress.set(key, done);
  return { record: done, info };
}

const statusOf = (api: XApi, account: AccountAuth, id: string) =>
  api.get(
    account,
    `${LABEL} media upload (status)`,
    api.url("/media/upload", { command: "STATUS", media_id: id }),
    mediaUpload,
  );

/**
 * Waits while X processes a finalized upload (videos, GIFs), polling its status as `check_after_secs`
 * asks. Past MAX_STATUS_POLLS, MAX_WAIT_SECONDS of waiting in this attempt or the attempt's deadline,
 * the attempt ends with `stillProcessing` (retried after X's `check_after_secs`): the next attempt polls
 * the same media id, nothing is uploaded again. Processing that failed is final (re-uploading the same
 * file would fail the same way): the record is forgotten and the publication fails.
 */
export async function processed(upload: UploadContext, key: string, uploaded: Uploaded): Promise<void> {
  let { record } = uploaded;
  if (record.ready) return;
  const { api, account } = upload;
  let waited = 0;
  // What this attempt's finalize answered; else (resuming) X is asked at once.
  let known = uploaded.info;
  for (let polls = 0; ; polls++) {
    let info = known;
    if (!known) {
      const status = (await statusOf(api, account, record.id)).data;
      record = renewed(record, status, upload.now());
      info = status.processing_info;
    }
    known = undefined;
    if (!info || info.state === "succeeded") {
      await upload.progress.set(key, { ...record, ready: true });
      return;
    }
    if (info.state === "failed") {
      await upload.progress.set(key, undefined);
      const reason = info.error?.message ?? info.error?.name ?? "no reason given";
      throw refused(`X could not process the media (${reason}).`, "media_processing_failed");
    }
    const wait = Math.max(info.check_after_secs ?? 1, 1);
    const late = upload.deadline !== undefined && upload.now() + wait * 1000 > upload.deadline;
    if (polls >= MAX_STATUS_POLLS || waited + wait > MAX_WAIT_SECONDS || late) {
      // The expiry the status answers renewed, for the next attempt's check.
      await upload.progress.set(key, record);
      throw stillProcessing(`${LABEL} publish: X is still processing the media; it is polled again.`, wait);
    }
    await upload.sleep(wait * 1000);
    waited += wait;
  }
}
