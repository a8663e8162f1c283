// The redirect that ends a delegation with a signed proof (a failure goes back by src/oauth/failed.ts).
// The signed string comes from the verifier module the applications use, so both sides build it one way.
import { withParams } from "../coordinator/links";
import { hmacKey, hmacSha256Hex } from "../lib/crypto";
import type { Identity } from "../platforms/types";
import { isSignableValue, type ProofFields, proofMessage } from "../verify-proof";

export const PROOF_TTL_SECONDS = 300;

/**
 * No signed value may contain `&` or `=` (see verify-proof.ts): the handle is display text, so those
 * characters are removed from it; a platform id holding one is not an id this service can vouch for.
 */
export const signableHandle = (handle: string) => handle.replace(/[&=]/g, "");

/** The callback URL carrying a signed proof, or null when the platform's id cannot be signed. */
export async function proofLocation(
  callbackUrl: string,
  signingSecret: string,
  proof: { platform: string; state: string } & Identity,
  nowMs: number,
): Promise<string | null> {
  if (!isSignableValue(proof.platform_id) || !isSignableValue(proof.state)) return null;
  const fields: ProofFields = {
    platform: proof.platform,
    platform_id: proof.platform_id,
    handle: signableHandle(proof.handle),
    state: proof.state,
    expires: Math.floor(nowMs / 1000) + PROOF_TTL_SECONDS,
  };
  const sig = await hmacSha256Hex(await hmacKey(signingSecret), proofMessage(fields));
  return withParams(callbackUrl, { ...fields, expires: String(fields.expires), sig });
}
