// The real adapter of a platform, on the sandbox's emulator of its API (src/sandbox/<platform>/): the
// platform's own definition and code, with every host pointed at `${origin}/sandbox/<platform>` and its
// calls answered in-process. The one thing the sandbox adds: an account the operator created without
// tokens (the demo data, tests) acts with a short-lived token minted for each call, and its platform id
// is its handle's stable one, as if it had connected.
import type { Platform } from "../../db/enums";
import { createAdapter } from "../adapter";
import { everyHostAt, type PlatformDefinition } from "../define";
import type { AccountAuth, Fetch, PlatformAdapter } from "../types";
import { mintToken } from "./access";
import { sandboxClient, sandboxPlatformId } from "./shapes";

/** The platforms whose emulator is built; the others still run on the generic sandbox publisher. */
export const EMULATED: ReadonlySet<Platform> = new Set<Platform>(["twitter"]);

export function emulatedAdapter(
  env: Pick<Env, "ENCRYPTION_KEY">,
  definition: PlatformDefinition,
  origin: string,
  fetch: Fetch,
): PlatformAdapter {
  const platform = definition.platform;
  const adapter = createAdapter(definition, {
    credentials: sandboxClient(platform),
    fetch,
    hosts: everyHostAt(definition.hosts, `${origin}/sandbox/${platform}`),
  });
  const signedIn = async (account: AccountAuth): Promise<AccountAuth> => ({
    ...account,
    platformUserId: account.platformUserId ?? (await sandboxPlatformId(platform, account.handle)),
    accessToken: account.accessToken ?? (await mintToken(env, platform, account.handle)),
  });
  return {
    ...adapter,
    publish: async (account, draft) => adapter.publish(await signedIn(account), draft),
    find: async (account, lookup) => adapter.find(await signedIn(account), lookup),
    insights: async (account, id) => adapter.insights(await signedIn(account), id),
    comments: async (account, id) => adapter.comments(await signedIn(account), id),
    reply: async (account, id, text, fingerprint) =>
      adapter.reply(await signedIn(account), id, text, fingerprint),
  };
}
