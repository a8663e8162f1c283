// Lowercase hex HMAC-SHA256 for the tests, with nothing but Web Crypto: the delegation tests check proofs
// with it, the platform tests appsecret_proof; pure, so tests in Node (*.unit.test.ts) can use it too.

/** Lowercase hex HMAC-SHA256, computed here independently of the service's code. */
export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
