// Starting an OAuth flow, the one way for all three: a delegation (POST /api/oauth/delegate/sessions), a
// connect (POST /api/v1/accounts/connect) and a reconnect (POST /api/v1/accounts/{id}/reconnect). Each
// is one single-use flow in its own Coordinator instance, named by a signed authorize link.
import { AUTHORIZE_TTL_MS, type NewFlow } from "../coordinator/flow";
import { AUTHORIZE_PATH, newAuthorizeToken } from "../coordinator/links";
import { flowCoordinator } from "../coordinator/names";
import type { Metered } from "./context";

/**
 * Who started a flow. A flow records one number for it (`keyId`, re-checked before a connect stores
 * anything, src/accounts/connect.ts): an API key's id, or, for a flow started from the console's
 * accounts page, the console session's id negated (ids are positive, so the two never meet).
 */
export type Starter = { keyId: number } | { consoleSessionId: number };
export const consoleStarter = (sessionId: number) => -sessionId;
export const starterOf = (recorded: number): Starter =>
  recorded < 0 ? { consoleSessionId: -recorded } : { keyId: recorded };

/** Where a flow started from the console brings the browser back: the accounts page, with the result. */
export const CONSOLE_RETURN_PATH = "/console/accounts";

/** What the three endpoints answer: the link to send the user's browser to, and its lifetime. */
export type AuthorizeLink = { authorize_url: string; expires_in: number };

/** Creates the flow (the request's one Durable Object call) and answers its authorize link. */
export async function startFlow(
  env: Pick<Env, "COORDINATOR" | "ENCRYPTION_KEY">,
  metered: Metered,
  origin: string,
  flow: NewFlow,
): Promise<AuthorizeLink> {
  const { id, token } = await newAuthorizeToken(env);
  const coordinator = env.COORDINATOR.getByName(flowCoordinator(id));
  await metered(() => coordinator.createDelegation(flow));
  return { authorize_url: `${origin}${AUTHORIZE_PATH}/${token}`, expires_in: AUTHORIZE_TTL_MS / 1000 };
}
