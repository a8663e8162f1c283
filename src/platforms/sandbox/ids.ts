// Stable, platform-looking ids for the sandbox, cut from a SHA-256 digest of (platform, handle).
import { toBase64Url } from "../../lib/encoding";

/** `count` decimal digits (no leading zero) read from the digest. */
export function digits(digest: Uint8Array, count: number): string {
  let value = 0n;
  for (const byte of digest.slice(0, 16)) value = (value << 8n) | BigInt(byte);
  const span = 9n * 10n ** BigInt(count - 1);
  return String(10n ** BigInt(count - 1) + (value % span));
}

/** `count` URL-safe base64 characters of the digest. */
export const letters = (digest: Uint8Array, count: number) => toBase64Url(digest).slice(0, count);
