// GET /authorize/{token}: the browser opens the single-use link and is sent on to the platform's consent
// page, bound to this browser by a cookie and to this flow by the signed platform `state`.
import { FLOW_TTL_MS, type OpenResult } from "../coordinator/flow";
import { browserCookie, CALLBACK_PATH, platformState, readAuthorizeToken } from "../coordinator/links";
import { flowCoordinator } from "../coordinator/names";
import { randomToken, sha256Hex } from "../lib/crypto";
import { pkceChallenge } from "../platforms/adapter";
import { consentLocation, lookupAdapter } from "../platforms/index";
import type { FlowContext } from "./context";
import { failed } from "./failed";
import { platformLabel } from "./label";
import type { FlowOutcome } from "./outcome";

export async function authorize({ env, metered, origin }: FlowContext, token: string): Promise<FlowOutcome> {
  const id = await readAuthorizeToken(env, token);
  if (!id)
    return {
      kind: "invalid_link",
      detail: "This connection link is not valid. It may have been copied incompletely.",
    };
  const browserSecret = randomToken(32);
  const stateSecret = randomToken(32);
  const codeVerifier = randomToken(32);
  const redirectUri = `${origin}${CALLBACK_PATH}`;
  const gate = env.COORDINATOR.getByName(flowCoordinator(id));
  const browserHash = await sha256Hex(browserSecret);
  // Only hashes of the two secrets reach the flow: the state secret rides with the platform, the
  // browser's in its cookie.
  const opened = await metered<OpenResult>(async () =>
    gate.openDelegation({
      browserHash,
      stateSecretHash: await sha256Hex(stateSecret),
      codeVerifier,
      redirectUri,
    }),
  );
  if (opened.kind === "unknown")
    return { kind: "invalid_link", detail: "This connection link is not valid." };
  const { target } = opened;
  if (opened.kind === "expired")
    return failed(
      target,
      "expired_request",
      "This connection link was already used or has expired. Start again from the application.",
    );
  const lookup = lookupAdapter(env, target.platform, origin, target.mode);
  if (lookup.kind !== "ok")
    return failed(
      target,
      "connection_failed",
      `${platformLabel(target.platform)} is not available on this service.`,
    );
  const { adapter } = lookup;
  const state = await platformState(env, id, stateSecret);
  const location = await adapter.authorizeUrl({
    redirectUri,
    state,
    codeChallenge: adapter.pkce ? await pkceChallenge(codeVerifier) : undefined,
    purpose: target.connect ? "connect" : "delegation",
  });
  return {
    kind: "consent",
    location: await consentLocation(
      env,
      { mode: target.mode, connectingUserId: target.connect?.userId ?? null },
      location,
      state,
    ),
    cookie: browserCookie(id, browserSecret, origin, FLOW_TTL_MS / 1000),
  };
}
