// The end of a delegation: the application's callback_url with the proof of who the user is, signed
// with the key's signing secret as it stands now.
import type { FlowTarget } from "../coordinator/flow";
import type { FlowContext } from "../oauth/context";
import { failed } from "../oauth/failed";
import { platformLabel } from "../oauth/label";
import type { FlowOutcome } from "../oauth/outcome";
import type { Identity } from "../platforms/types";
import { proofLocation } from "./proof";
import { currentSigningSecret } from "./queries";

export async function signProof(
  { env, shards }: FlowContext,
  {
    target,
    keyId,
    identity,
    clear,
  }: { target: FlowTarget; keyId: number; identity: Identity; clear: string[] },
): Promise<FlowOutcome> {
  const fail = (description: string) => failed(target, "connection_failed", description, clear);
  const secret = await currentSigningSecret(shards.of(keyId), env.ENCRYPTION_KEY, keyId);
  if (!secret) return fail("The API key that requested this connection is no longer valid.");
  const location = await proofLocation(
    target.callbackUrl,
    secret,
    // The proof signs who the user is, never the profile a connect stores.
    {
      platform: target.platform,
      state: target.state,
      platform_id: identity.platform_id,
      handle: identity.handle,
    },
    Date.now(),
  );
  if (!location)
    return fail(
      `${platformLabel(target.platform)} answered with an account id this service cannot vouch for.`,
    );
  return { kind: "proof", location, cookies: clear };
}
