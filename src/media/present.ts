// The API's Media item. `url` is always a signed, expiring link served by GET /media/{id}; R2 keys
// never leave the worker.
import type { Media } from "../db/schema";
import { signMediaUrl } from "./links";
import type { MediaItem } from "./schemas";

export const presentMedia = (m: Media, url: string): MediaItem => ({
  id: m.id,
  name: m.name,
  url,
  mime_type: m.mimeType,
  size: m.size,
  is_processing: m.state === "processing",
  // The column is text; only a sniffed kind is ever written to it.
  type: m.type,
  ai_generated_id: m.aiGeneratedId,
  is_reference: m.isReference,
  progress: m.progress,
  alt: m.alt,
});

/** Signs every item's link (HMAC per item, key cached) and presents them in order. */
export async function presentMediaList(
  env: Pick<Env, "ENCRYPTION_KEY">,
  origin: string,
  rows: Media[],
  nowMs = Date.now(),
): Promise<MediaItem[]> {
  const urls = await Promise.all(rows.map((m) => signMediaUrl(env, origin, m.id, nowMs)));
  return rows.map((m, i) => presentMedia(m, urls[i]!));
}
