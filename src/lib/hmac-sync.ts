// Synchronous HMAC-SHA256 (RFC 2104 over FIPS 180-4 SHA-256) for one hot path: signing media links, of
// which a page of posts makes hundreds. The key's inner and outer pad blocks are hashed once, so each
// signature of a short message costs two compression rounds and no promise; WebCrypto stays the
// verifier (constant time, src/lib/crypto.ts) and its signatures are byte for byte the same (tested).
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

const w = new Uint32Array(64);

/** Hashes the 64-byte block at `offset` of `bytes` into `state`. */
function compress(state: Uint32Array, bytes: Uint8Array, offset: number) {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let [a, b, c, d, e, f, g, h] = state as unknown as number[];
  for (let i = 0; i < 64; i++) {
    const s1 = ((e! >>> 6) | (e! << 26)) ^ ((e! >>> 11) | (e! << 21)) ^ ((e! >>> 25) | (e! << 7));
    const t1 = (h! + s1 + ((e! & f!) ^ (~e! & g!)) + K[i]! + w[i]!) | 0;
    const s0 = ((a! >>> 2) | (a! << 30)) ^ ((a! >>> 13) | (a! << 19)) ^ ((a! >>> 22) | (a! << 10));
    const t2 = (s0 + ((a! & b!) ^ (a! & c!) ^ (b! & c!))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d! + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0]! += a!;
  state[1]! += b!;
  state[2]! += c!;
  state[3]! += d!;
  state[4]! += e!;
  state[5]! += f!;
  state[6]! += g!;
  state[7]! += h!;
}

/** SHA-256 of `message`, continuing from `state` after `prefixBytes` already hashed (whole blocks). */
function finish(state: Uint32Array, message: Uint8Array, prefixBytes: number): Uint8Array {
  const s = state.slice();
  const total = prefixBytes + message.length;
  const padded = new Uint8Array(Math.ceil((message.length + 9) / 64) * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor((total * 8) / 2 ** 32));
  view.setUint32(padded.length - 4, (total * 8) >>> 0);
  for (let offset = 0; offset < padded.length; offset += 64) compress(s, padded, offset);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, s[i]!);
  return out;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const encoder = new TextEncoder();

/** A signer for one key (at most 64 bytes, as every key here is 32): message → lowercase hex HMAC. */
export function hmacSha256Signer(key: Uint8Array): (message: string) => string {
  if (key.length > 64) throw new Error("HMAC keys longer than a block are not supported here");
  const pad = (byte: number) => {
    const block = new Uint8Array(64).fill(byte);
    for (let i = 0; i < key.length; i++) block[i]! ^= key[i]!;
    const state = Uint32Array.from(INITIAL);
    compress(state, block, 0);
    return state;
  };
  const inner = pad(0x36);
  const outer = pad(0x5c);
  return (message) => {
    const mac = finish(outer, finish(inner, encoder.encode(message), 64), 64);
    let hex = "";
    for (const byte of mac) hex += HEX[byte];
    return hex;
  };
}
