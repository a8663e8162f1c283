// GET /callback: the platform sends the browser back with a code (or an error). The flow is finished
// once (single use, this browser only), the code exchanged for a token and the user's identity read;
// then a delegation signs its proof (sign-proof.ts) and a connect stores its account or asks which
// channel to store (finish-connect.ts).
import type { FinishResult } from "../coordinator/flow";
import { browserCookieName, clearBrowserCookie, readPlatformState } from "../coordinator/links";
import { flowCoordinator } from "../coordinator/names";
import { sha256Hex } from "../lib/crypto";
import type { FlowContext } from "../oauth/context";
import { failed } from "../oauth/failed";
import { platformLabel } from "../oauth/label";
import type { FlowOutcome } from "../oauth/outcome";
import { lookupAdapter } from "../platforms/index";
import { PlatformError, type PlatformToken } from "../platforms/types";
import { finishConnect } from "./finish-connect";
import { signProof } from "./sign-proof";

/** The callback's query as the platform sent it (absent parameters undefined). */
export type CallbackQuery = { state?: string; code?: string; error?: string };

export const NOT_A_CALLBACK = "This sign-in response does not belong to a connection request.";

export async function callback(
  ctx: FlowContext,
  query: CallbackQuery,
  cookie: (name: string) => string | undefined,
): Promise<FlowOutcome> {
  const { env, origin } = ctx;
  // A forged or invented state is refused before any Durable Object is reached (links.ts).
  const parsed = await readPlatformState(env, query.state);
  if (!parsed) return { kind: "invalid_link", detail: NOT_A_CALLBACK };
  const browserSecret = cookie(browserCookieName(parsed.id));
  const gate = env.COORDINATOR.getByName(flowCoordinator(parsed.id));
  const finished = await ctx.metered<FinishResult>(async () =>
    gate.finishDelegation({
      stateSecretHash: await sha256Hex(parsed.secret),
      browserHash: browserSecret ? await sha256Hex(browserSecret) : null,
    }),
  );
  switch (finished.kind) {
    case "unknown":
      return { kind: "invalid_link", detail: NOT_A_CALLBACK };
    case "used":
      return failed(finished.target, "expired_request", "This connection request was already completed.");
    case "expired":
      return failed(
        finished.target,
        "connection_failed",
        "The connection took too long. Start again from the application.",
      );
    case "wrong_browser":
      return failed(
        finished.target,
        "connection_failed",
        "The connection was finished in a different browser from the one that started it.",
      );
  }
  const { target, keyId, codeVerifier, redirectUri } = finished;
  const clear = [clearBrowserCookie(parsed.id, origin)];
  const name = platformLabel(target.platform);
  const fail = (description: string) => failed(target, "connection_failed", description, clear);
  const lookup = lookupAdapter(env, target.platform, origin, target.mode);
  if (lookup.kind !== "ok") return fail(`${name} is not available on this service.`);
  const { adapter } = lookup;
  if (query.error !== undefined) {
    if (adapter.isDenial(query.error))
      return failed(target, "access_denied", `The user declined to connect their ${name} account.`, clear);
    return fail(`${name} did not complete the sign-in.`);
  }
  if (!query.code) return fail(`${name} did not complete the sign-in.`);
  let identity: Awaited<ReturnType<typeof adapter.identity>>;
  let token: PlatformToken;
  try {
    token = await adapter.exchangeCode({
      code: query.code,
      redirectUri,
      codeVerifier: adapter.pkce ? codeVerifier : undefined,
      purpose: target.connect ? "connect" : "delegation",
    });
    // A delegation uses the token for this one call and drops it: nothing about the account is kept.
    identity = await adapter.identity(token);
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    console.warn(`delegation: ${error.message}`);
    return fail(`${name} did not complete the connection.`);
  }
  if (target.connect)
    return finishConnect(ctx, {
      flowId: parsed.id,
      browserSecret,
      target: { ...target, connect: target.connect },
      adapter,
      token,
      identity,
      clear,
    });
  return signProof(ctx, { target, keyId, identity, clear });
}
