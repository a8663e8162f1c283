// The synchronous HMAC-SHA256 that signs media links must give exactly WebCrypto's signatures: links
// it signs are verified with crypto.subtle (src/media/links.ts).
import { describe, expect, it } from "vitest";
import { hmacSha256Signer } from "../../src/lib/hmac-sync";

async function webCrypto(key: Uint8Array, message: string) {
  const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", imported, new TextEncoder().encode(message)));
  return [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("hmacSha256Signer", () => {
  it("matches RFC 4231 test case 2", () => {
    const sign = hmacSha256Signer(new TextEncoder().encode("Jefe"));
    expect(sign("what do ya want for nothing?")).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });

  it("matches WebCrypto for keys of 1 to 64 bytes and messages of 0 to 300 bytes, text of any script", async () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    for (let round = 0; round < 120; round++) {
      const key = Uint8Array.from({ length: 1 + (next() % 64) }, () => next() % 256);
      const length = next() % 300;
      const message = Array.from({ length }, () => String.fromCodePoint(32 + (next() % 3000))).join("");
      expect(hmacSha256Signer(key)(message)).toBe(await webCrypto(key, message));
    }
    // Block boundaries of the padded message: 55, 56, 63, 64 and 119 bytes.
    const key = new Uint8Array(32).fill(9);
    for (const n of [0, 55, 56, 63, 64, 119, 120]) {
      expect(hmacSha256Signer(key)("m".repeat(n))).toBe(await webCrypto(key, "m".repeat(n)));
    }
  });

  it("refuses keys longer than a block rather than signing them wrongly", () => {
    expect(() => hmacSha256Signer(new Uint8Array(65))).toThrow();
  });
});
