// Media for X posts through the v2 chunked upload (docs.x.com › X API › Media): initialize, append the
// bytes in bounded chunks streamed from R2 by range (never a whole video in memory), finalize, then wait
// for X's processing of videos and GIFs with a bounded number of status polls.
import { type AccountAuth, type DraftMedia, PlatformError } from "../types";
import { LABEL, type XApi } from "./api";
import { appended, mediaUpload, type ProcessingInfo } from "./schemas";

/** Bytes per append: X takes up to 5 MB per segment; 4 MB keeps one chunk's memory small. */
export const CHUNK_BYTES = 4 * 1024 * 1024;
/** Status polls before giving up on a video still processing, and the longest wait between two. */
export const MAX_STATUS_POLLS = 15;
export const MAX_POLL_WAIT_SECONDS = 6;

/** X's documented limits, declared in rules.ts: four images, or one video or GIF. */
export { MAX_MEDIA_PER_POST } from "./rules";

export type Sleep = (ms: number) => Promise<void>;

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

/** Uploads one media file; its media id once X can attach it to a post. */
export async function uploadMedia(
  api: XApi,
  account: AccountAuth,
  media: DraftMedia,
  sleep: Sleep,
): Promise<string> {
  const base = api.url("/media/upload");
  const started = await api.post(
    account,
    `${LABEL} media upload (initialize)`,
    `${base}/initialize`,
    { media_type: media.mime, total_bytes: media.size, media_category: CATEGORY[kindOf(media)] },
    mediaUpload,
  );
  const id = started.data.id;
  for (let offset = 0, segment = 0; offset < media.size; offset += CHUNK_BYTES, segment++) {
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
    );
  }
  const finalized = await api.post(
    account,
    `${LABEL} media upload (finalize)`,
    `${base}/${id}/finalize`,
    null,
    mediaUpload,
  );
  await processed(api, account, id, finalized.data.processing_info, sleep);
  return id;
}

/** Waits while X processes the media (videos, GIFs), as its `check_after_secs` asks, a bounded number of times. */
async function processed(
  api: XApi,
  account: AccountAuth,
  id: string,
  first: ProcessingInfo | undefined,
  sleep: Sleep,
): Promise<void> {
  let info = first;
  for (let polls = 0; info && info.state !== "succeeded"; polls++) {
    if (info.state === "failed") {
      const reason = info.error?.message ?? info.error?.name ?? "no reason given";
      throw refused(`X could not process the media (${reason}).`, "media_processing_failed");
    }
    // No post exists yet, so another attempt may start over.
    if (polls >= MAX_STATUS_POLLS) {
      throw new PlatformError(`${LABEL} publish: the media is still processing; retrying later.`, {
        kind: "transient",
        code: "media_processing",
      });
    }
    const wait = Math.min(Math.max(info.check_after_secs ?? 1, 1), MAX_POLL_WAIT_SECONDS);
    await sleep(wait * 1000);
    const status = await api.get(
      account,
      `${LABEL} media upload (status)`,
      api.url("/media/upload", { command: "STATUS", media_id: id }),
      mediaUpload,
    );
    info = status.data.processing_info;
  }
}
