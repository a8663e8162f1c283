// POST /callback: the channel pick of a connect (src/accounts/channels.ts), a same-origin form sent with
// the flow's browser cookie. The first pick of the browser that consented takes the sealed tokens.
import { openChoice } from "../accounts/channels";
import type { TakeResult } from "../coordinator/choice";
import { browserCookieName, clearBrowserCookie, readChoiceToken } from "../coordinator/links";
import { flowCoordinator } from "../coordinator/names";
import { sha256Hex } from "../lib/crypto";
import type { FlowContext } from "../oauth/context";
import { failed } from "../oauth/failed";
import type { FlowOutcome } from "../oauth/outcome";
import { isPlatform } from "../platforms/catalog";
import { storeConnect } from "./store-connect";

/** The form as posted: `flow` (the signed flow id the page carried) and the chosen `channel`'s id. */
export type PickForm = { flow: string | undefined; channel: string };

const NOT_A_CHOICE = "This choice does not belong to a connection request, or it was already made.";
const NOT_A_CONNECT = "This choice does not belong to a connection request.";

export async function pick(
  ctx: FlowContext,
  form: PickForm,
  cookie: (name: string) => string | undefined,
): Promise<FlowOutcome> {
  const { env, origin } = ctx;
  if (form.flow === undefined || form.channel === "") return { kind: "invalid_link", detail: NOT_A_CONNECT };
  // The form names the flow signed (links.ts): a forged or invented one is refused as an unknown flow
  // would be, before any Durable Object is reached.
  const flowId = await readChoiceToken(env, form.flow);
  if (!flowId) return { kind: "invalid_link", detail: NOT_A_CHOICE };
  const browserSecret = cookie(browserCookieName(flowId));
  const gate = env.COORDINATOR.getByName(flowCoordinator(flowId));
  const taken = await ctx.metered<TakeResult>(async () =>
    gate.takeConnectChoice(browserSecret ? await sha256Hex(browserSecret) : null),
  );
  if (taken.kind === "unknown" || taken.kind === "wrong_browser")
    return { kind: "invalid_link", detail: NOT_A_CHOICE };
  const clear = [clearBrowserCookie(flowId, origin)];
  const { target } = taken;
  if (!target.connect || !isPlatform(target.platform)) return { kind: "invalid_link", detail: NOT_A_CONNECT };
  if (taken.kind === "expired")
    return failed(
      target,
      "connection_failed",
      "The choice took too long. Start again from the application.",
      clear,
    );
  const pending = await openChoice(env.ENCRYPTION_KEY, taken.sealed);
  const channel = pending?.channels.find((candidate) => candidate.id === form.channel);
  if (!pending || !channel)
    return failed(target, "connection_failed", "The chosen channel is not one of those offered.", clear);
  return storeConnect(
    ctx.shards,
    env.ENCRYPTION_KEY,
    { ...target, connect: target.connect },
    target.platform,
    { ...pending, channel },
    clear,
  );
}
