// Signed, time-limited media links: GET /media/{id}?expires=<unix s>&sig=<hex HMAC-SHA256>.
// The HMAC key is derived from ENCRYPTION_KEY for this purpose only. Expiry is rounded up to the next
// hour and then extended by MEDIA_LINK_TTL_SECONDS, so a link is valid for 24 to 25 hours and the same
// media item gets the same URL for an hour (friendly to browser and CDN caches).
import { derivedHmacKey, derivedKeyBytes, verifyHmacHex } from "../lib/crypto";
import { hmacSha256Signer } from "../lib/hmac-sync";

export const MEDIA_LINK_TTL_SECONDS = 24 * 3600;
const PURPOSE = "media-link-v1";

const message = (mediaId: number, expires: number) => `media:${mediaId}:${expires}`;

export function linkExpiry(nowMs: number): number {
  return Math.ceil(nowMs / 3_600_000) * 3600 + MEDIA_LINK_TTL_SECONDS;
}

const signers = new Map<string, Promise<(message: string) => string>>();

/** The link signer of this ENCRYPTION_KEY: synchronous after its key is derived once per isolate. */
function signerOf(encryptionKey: string | undefined) {
  const cacheKey = encryptionKey ?? "";
  let signer = signers.get(cacheKey);
  if (!signer) {
    signer = derivedKeyBytes(encryptionKey, PURPOSE).then(hmacSha256Signer);
    // A failure (no ENCRYPTION_KEY) is not cached: it is reported on every call.
    signer.catch(() => signers.delete(cacheKey));
    signers.set(cacheKey, signer);
  }
  return signer;
}

export async function signMediaUrl(
  env: Pick<Env, "ENCRYPTION_KEY">,
  origin: string,
  mediaId: number,
  nowMs = Date.now(),
): Promise<string> {
  const expires = linkExpiry(nowMs);
  const sign = await signerOf(env.ENCRYPTION_KEY);
  return `${origin}/media/${mediaId}?expires=${expires}&sig=${sign(message(mediaId, expires))}`;
}

export async function verifyMediaLink(
  env: Pick<Env, "ENCRYPTION_KEY">,
  mediaId: number,
  expires: number,
  sig: string,
  nowMs = Date.now(),
): Promise<"ok" | "expired" | "invalid"> {
  const key = await derivedHmacKey(env.ENCRYPTION_KEY, PURPOSE);
  if (!(await verifyHmacHex(key, message(mediaId, expires), sig))) return "invalid";
  return expires * 1000 > nowMs ? "ok" : "expired";
}
