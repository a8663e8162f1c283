// The end of a connect flow's callback: the account is stored, as the channel the user picks where the
// platform has several (src/accounts/channels.ts). With several, the consented tokens wait sealed in
// the flow's Coordinator instance for this browser's pick (pick.ts).
import { sealChoice } from "../accounts/channels";
import type { ConnectTarget, FlowTarget } from "../coordinator/flow";
import { choiceToken } from "../coordinator/links";
import { flowCoordinator } from "../coordinator/names";
import { sha256Hex } from "../lib/crypto";
import type { FlowContext } from "../oauth/context";
import { failed } from "../oauth/failed";
import { platformLabel } from "../oauth/label";
import type { FlowOutcome } from "../oauth/outcome";
import {
  type Channel,
  type Identity,
  type PlatformAdapter,
  PlatformError,
  type PlatformToken,
} from "../platforms/types";
import { storeConnect } from "./store-connect";

export type Consented = {
  flowId: string;
  browserSecret: string | undefined;
  target: FlowTarget & { connect: ConnectTarget };
  adapter: PlatformAdapter;
  token: PlatformToken;
  identity: Identity;
  /** The Set-Cookie that clears the flow's browser cookie, sent with the redirect that ends the flow. */
  clear: string[];
};

export async function finishConnect(ctx: FlowContext, consented: Consented): Promise<FlowOutcome> {
  const { env } = ctx;
  const { flowId, browserSecret, target, adapter, token, identity, clear } = consented;
  const name = platformLabel(target.platform);
  const fail = (description: string) => failed(target, "connection_failed", description, clear);
  let channels: Channel[] | null;
  try {
    channels = await adapter.channels(token, identity);
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    console.warn(`connect: ${error.message}`);
    return fail(`${name} did not list where this account can publish.`);
  }
  if (channels?.length === 0)
    return fail(`This ${name} account has nowhere this service can publish to (no Page or channel).`);
  if (channels && channels.length > 1) {
    const gate = env.COORDINATOR.getByName(flowCoordinator(flowId));
    await ctx.metered(async () =>
      gate.holdConnectChoice({
        browserHash: await sha256Hex(browserSecret ?? ""),
        sealed: await sealChoice(env.ENCRYPTION_KEY, { token, identity, channels }),
        target,
      }),
    );
    return { kind: "choose_channel", flow: await choiceToken(env, flowId), platformLabel: name, channels };
  }
  return storeConnect(
    ctx.shards,
    env.ENCRYPTION_KEY,
    target,
    adapter.platform,
    {
      token,
      identity,
      channel: channels?.[0] ?? null,
    },
    clear,
  );
}
