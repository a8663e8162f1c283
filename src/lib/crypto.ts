// The one crypto module: hashes, random tokens, HMAC, AES-GCM secrets at rest and per-purpose keys.
import { fromBase64, toBase64, toBase64Url, toHex, utf8 } from "./encoding";

export function randomToken(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", utf8(text)));
}

export async function hmacKey(secret: string | Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const raw = typeof secret === "string" ? utf8(secret) : secret;
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

export async function hmacSha256Hex(key: CryptoKey, message: string): Promise<string> {
  return toHex(await crypto.subtle.sign("HMAC", key, utf8(message)));
}

/** Constant-time string comparison; unequal lengths are unequal without touching the contents. */
export function timingSafeEqualText(a: string, b: string): boolean {
  const left = utf8(a);
  const right = utf8(b);
  if (left.byteLength !== right.byteLength) return false;
  return crypto.subtle.timingSafeEqual(left, right);
}

// ENCRYPTION_KEY is parsed and imported once per isolate per value.
const masterKeys = new Map<string, Promise<{ aes: CryptoKey; hkdf: CryptoKey }>>();

function masterKey(encryptionKey: string | undefined) {
  if (!encryptionKey) throw new Error("ENCRYPTION_KEY is not configured");
  let keys = masterKeys.get(encryptionKey);
  if (!keys) {
    const raw = fromBase64(encryptionKey);
    if (raw.byteLength !== 32) throw new Error("ENCRYPTION_KEY must be base64 of exactly 32 bytes");
    keys = Promise.all([
      crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]),
      crypto.subtle.importKey("raw", raw, "HKDF", false, ["deriveKey"]),
    ]).then(([aes, hkdf]) => ({ aes, hkdf }));
    masterKeys.set(encryptionKey, keys);
  }
  return keys;
}

/** AES-GCM with a random 96-bit nonce; the output is base64(nonce || ciphertext). */
export async function encryptSecret(encryptionKey: string | undefined, plaintext: string): Promise<string> {
  const { aes } = await masterKey(encryptionKey);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes, utf8(plaintext)));
  const out = new Uint8Array(iv.byteLength + sealed.byteLength);
  out.set(iv);
  out.set(sealed, iv.byteLength);
  return toBase64(out);
}

export async function decryptSecret(encryptionKey: string | undefined, sealed: string): Promise<string> {
  const { aes } = await masterKey(encryptionKey);
  const bytes = fromBase64(sealed);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.slice(0, 12) },
    aes,
    bytes.slice(12),
  );
  return new TextDecoder().decode(plain);
}

const derivedKeys = new Map<string, Promise<CryptoKey>>();

/** An HMAC key derived from ENCRYPTION_KEY for one purpose (HKDF-SHA256, purpose as `info`), cached. */
export function derivedHmacKey(encryptionKey: string | undefined, purpose: string): Promise<CryptoKey> {
  const cacheKey = `${purpose}\u0000${encryptionKey}`;
  let key = derivedKeys.get(cacheKey);
  if (!key) {
    key = masterKey(encryptionKey).then(({ hkdf }) =>
      crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: utf8(purpose) },
        hkdf,
        { name: "HMAC", hash: "SHA-256", length: 256 },
        false,
        ["sign", "verify"],
      ),
    );
    derivedKeys.set(cacheKey, key);
  }
  return key;
}

/** Verifies a lowercase-hex HMAC-SHA256 in constant time (crypto.subtle.verify). */
export async function verifyHmacHex(key: CryptoKey, message: string, signatureHex: string): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(signatureHex)) return false;
  const signature = new Uint8Array(32);
  for (let i = 0; i < 32; i++) signature[i] = Number.parseInt(signatureHex.slice(i * 2, i * 2 + 2), 16);
  return crypto.subtle.verify("HMAC", key, signature, utf8(message));
}
