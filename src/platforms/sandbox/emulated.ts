// The real adapter of a platform, on the sandbox's emulator of its API (src/sandbox/<platform>/): the
// platform's own definition and code, with every host pointed at `${origin}/sandbox/<platform>` and its
// calls answered in-process. The one thing the sandbox adds: an account the operator created without
// tokens (the demo data, tests) acts with a short-lived token minted for each call, and its platform id
// is its handle's stable one, as if it had connected.
import { type AdapterContext, createAdapter } from "../adapter";
import { everyHostAt, type PlatformDefinition } from "../define";
import type { AccountAuth, Fetch, PlatformAdapter, PublishedPost } from "../types";
import { mintToken } from "./access";
import { sandboxClient, sandboxPlatformId } from "./shapes";

export function emulatedAdapter(
  env: Pick<Env, "ENCRYPTION_KEY">,
  definition: PlatformDefinition,
  origin: string,
  fetch: Fetch,
  options: Pick<AdapterContext, "sleep" | "timeouts" | "now"> = {},
): PlatformAdapter {
  const platform = definition.platform;
  const adapter = createAdapter(definition, {
    ...options,
    credentials: sandboxClient(platform),
    fetch,
    hosts: everyHostAt(definition.hosts, `${origin}/sandbox/${platform}`),
  });
  const signedIn = async (account: AccountAuth): Promise<AccountAuth> => ({
    ...account,
    platformUserId: account.platformUserId ?? (await sandboxPlatformId(platform, account.handle)),
    accessToken: account.accessToken ?? (await mintToken(env, platform, account.handle)),
  });
  // Every post's URL is the sandbox's page of it (ARCHITECTURE "Sandbox platform"), whatever the
  // platform's own URL would be (x.com/<handle>/status/<id>, youtube.com/watch?v=…).
  // A post without a public address yet (awaiting its public id) or ever (private) keeps its null URL.
  const paged = (post: PublishedPost): PublishedPost =>
    post.url === null
      ? post
      : { ...post, url: `${origin}/sandbox/${platform}/posts/${encodeURIComponent(post.id)}` };
  return {
    ...adapter,
    publish: async (account, draft) => paged(await adapter.publish(await signedIn(account), draft)),
    find: async (account, lookup) => {
      const found = await adapter.find(await signedIn(account), lookup);
      return found && paged(found);
    },
    resolve: async (account, id) => {
      const resolved = await adapter.resolve(await signedIn(account), id);
      return resolved && paged(resolved);
    },
    insights: async (account, id) => adapter.insights(await signedIn(account), id),
    ...(adapter.comments && {
      comments: async (account: AccountAuth, id: string) => adapter.comments!(await signedIn(account), id),
    }),
    ...(adapter.reply && {
      reply: async (account: AccountAuth, id: string, text: string, fingerprint: string) =>
        paged(await adapter.reply!(await signedIn(account), id, text, fingerprint)),
    }),
  };
}
