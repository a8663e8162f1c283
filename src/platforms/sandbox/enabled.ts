import { derivedHmacKey, hmacSha256Hex } from "../../lib/crypto";

/** The sandbox platform is on only when SANDBOX is exactly "true" (never in production). */
export const sandboxEnabled = (env: { SANDBOX?: string }) => env.SANDBOX === "true";

/** SANDBOX_TIME_SCALE as a number ≥ 1 (anything unreadable is 1). */
export function timeScale(env: { SANDBOX_TIME_SCALE?: string }): number {
  const scale = Number(env.SANDBOX_TIME_SCALE ?? "1");
  return Number.isFinite(scale) && scale >= 1 ? scale : 1;
}

/**
 * The header that marks a request to /sandbox/ as the adapters' own, made in-process (client.ts): with
 * SANDBOX off, test mode's emulators answer such calls, and from outside only the consent pages a test
 * flow sends a browser to (src/sandbox/index.ts).
 */
export const LOOPBACK_HEADER = "x-sandbox-loopback";

/** The header's value: an HMAC that only this deployment can make (ENCRYPTION_KEY), never sent out. */
export async function loopbackMark(env: Pick<Env, "ENCRYPTION_KEY">): Promise<string> {
  return hmacSha256Hex(await derivedHmacKey(env.ENCRYPTION_KEY, "sandbox-loopback"), "sandbox-loopback");
}
