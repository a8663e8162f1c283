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

/**
 * Constant-time comparison of values of a fixed, public length (MACs, hashes, tokens of one format);
 * unequal lengths are unequal without touching the contents. Synchronous, so a Durable Object can
 * check and write in one step.
 */
export function timingSafeEqualText(a: string, b: string): boolean {
  const left = utf8(a);
  const right = utf8(b);
  if (left.byteLength !== right.byteLength) return false;
  return crypto.subtle.timingSafeEqual(left, right);
}

/**
 * Constant-time comparison of a secret of any length (the operator token): both sides are hashed to 32
 * bytes first, so the comparison reveals neither the contents nor the length.
 */
export async function secretEquals(a: string, b: string): Promise<boolean> {
  const [left, right] = await Promise.all([
    crypto.subtle.digest("SHA-256", utf8(a)),
    crypto.subtle.digest("SHA-256", utf8(b)),
  ]);
  return crypto.subtle.timingSafeEqual(left, right);
}

/**
 * The keys derived from ENCRYPTION_KEY, parsed and imported once per isolate per value. The raw bytes
 * are only ever the HKDF input: secrets at rest use an AES key derived for that purpose, and every HMAC
 * key is derived for its own purpose. `legacyAes` (the raw bytes as an AES key, as ciphertexts written
 * before the `v2:` format used) only decrypts.
 */
const masterKeys = new Map<string, Promise<{ aes: CryptoKey; legacyAes: CryptoKey; hkdf: CryptoKey }>>();

const SALT = new Uint8Array(32);
export const SECRET_FORMAT = "v2:";

function masterKey(encryptionKey: string | undefined) {
  if (!encryptionKey) throw new Error("ENCRYPTION_KEY is not configured");
  let keys = masterKeys.get(encryptionKey);
  if (!keys) {
    const raw = fromBase64(encryptionKey);
    if (raw.byteLength !== 32) throw new Error("ENCRYPTION_KEY must be base64 of exactly 32 bytes");
    keys = (async () => {
      const hkdf = await crypto.subtle.importKey("raw", raw, "HKDF", false, ["deriveKey", "deriveBits"]);
      const [aes, legacyAes] = await Promise.all([
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: SALT, info: utf8("secrets-at-rest-v2") },
          hkdf,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
        crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["decrypt"]),
      ]);
      return { aes, legacyAes, hkdf };
    })();
    masterKeys.set(encryptionKey, keys);
  }
  return keys;
}

/** AES-GCM with a random 96-bit nonce under the derived key; the output is `v2:` + base64(nonce || ciphertext). */
export async function encryptSecret(encryptionKey: string | undefined, plaintext: string): Promise<string> {
  const { aes } = await masterKey(encryptionKey);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes, utf8(plaintext)));
  const out = new Uint8Array(iv.byteLength + sealed.byteLength);
  out.set(iv);
  out.set(sealed, iv.byteLength);
  return `${SECRET_FORMAT}${toBase64(out)}`;
}

/** Decrypts both formats: `v2:` under the derived key, and the earlier unprefixed one under the raw key. */
export async function decryptSecret(encryptionKey: string | undefined, sealed: string): Promise<string> {
  const { aes, legacyAes } = await masterKey(encryptionKey);
  const current = sealed.startsWith(SECRET_FORMAT);
  const bytes = fromBase64(current ? sealed.slice(SECRET_FORMAT.length) : sealed);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.slice(0, 12) },
    current ? aes : legacyAes,
    bytes.slice(12),
  );
  return new TextDecoder().decode(plain);
}

const derivedKeys = new Map<string, Promise<CryptoKey>>();
const derivedBytes = new Map<string, Promise<Uint8Array>>();

/**
 * The bytes of the HMAC key derivedHmacKey gives for `purpose` (the same HKDF output), for the
 * synchronous signer of a hot path (src/lib/hmac-sync.ts); cached.
 */
export function derivedKeyBytes(encryptionKey: string | undefined, purpose: string): Promise<Uint8Array> {
  const cacheKey = `${purpose}\u0000${encryptionKey}`;
  let bytes = derivedBytes.get(cacheKey);
  if (!bytes) {
    bytes = masterKey(encryptionKey).then(
      async ({ hkdf }) =>
        new Uint8Array(
          await crypto.subtle.deriveBits(
            { name: "HKDF", hash: "SHA-256", salt: SALT, info: utf8(purpose) },
            hkdf,
            256,
          ),
        ),
    );
    derivedBytes.set(cacheKey, bytes);
  }
  return bytes;
}

/** An HMAC key derived from ENCRYPTION_KEY for one purpose (HKDF-SHA256, purpose as `info`), cached. */
export function derivedHmacKey(encryptionKey: string | undefined, purpose: string): Promise<CryptoKey> {
  const cacheKey = `${purpose}\u0000${encryptionKey}`;
  let key = derivedKeys.get(cacheKey);
  if (!key) {
    key = masterKey(encryptionKey).then(({ hkdf }) =>
      crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: SALT, info: utf8(purpose) },
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

const derivedAesKeys = new Map<string, Promise<CryptoKey>>();

/** An AES-256-GCM key derived from ENCRYPTION_KEY for one purpose (HKDF-SHA256, purpose as `info`), cached. */
function derivedAesKey(encryptionKey: string | undefined, purpose: string): Promise<CryptoKey> {
  const cacheKey = `${purpose}\u0000${encryptionKey}`;
  let key = derivedAesKeys.get(cacheKey);
  if (!key) {
    key = masterKey(encryptionKey).then(({ hkdf }) =>
      crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: SALT, info: utf8(purpose) },
        hkdf,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      ),
    );
    derivedAesKeys.set(cacheKey, key);
  }
  return key;
}

/**
 * AES-GCM under the key derived for `purpose`, a random 96-bit nonce, and `context` as associated data
 * (the ciphertext opens only with the same context): nonce ‖ ciphertext.
 */
export async function sealBytes(
  encryptionKey: string | undefined,
  purpose: string,
  plaintext: Uint8Array<ArrayBuffer>,
  context: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = await derivedAesKey(encryptionKey, purpose);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: utf8(context) },
    key,
    plaintext,
  );
  const out = new Uint8Array(iv.byteLength + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), iv.byteLength);
  return out;
}

/** Opens what sealBytes sealed for the same purpose and context; throws on anything else. */
export async function openBytes(
  encryptionKey: string | undefined,
  purpose: string,
  sealed: Uint8Array<ArrayBuffer>,
  context: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = await derivedAesKey(encryptionKey, purpose);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: sealed.slice(0, 12), additionalData: utf8(context) },
    key,
    sealed.slice(12),
  );
  return new Uint8Array(plain);
}
