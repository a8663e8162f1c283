// The real adapter of a platform, on the sandbox's emulator of its API (src/sandbox/<platform>/): the
// platform's own definition and code, with every host pointed at `${origin}/sandbox/<platform>` and its
// calls answered in-process. The one thing the sandbox adds: an account the operator created without
// tokens (the demo data, tests) acts with a short-lived token and its handle's stable platform id, as if
// it had connected, both asked of the emulator (`POST /sandbox/<platform>/accounts/<handle>/session`)
// through the same in-process fetch before each call, never cached: this side knows no emulator fact.
import { type AdapterContext, createAdapter } from "../adapter";
import { everyHostAt, type PlatformDefinition } from "../define";
import {
  type AccountAuth,
  type CommentRef,
  type Fetch,
  type PlatformAdapter,
  PlatformError,
  type PublishedPost,
} from "../types";
import { sandboxClient } from "./credentials";

/** The emulator's session for a tokenless account: an access token and the account's platform id. */
async function session(fetch: Fetch, base: string, handle: string) {
  const response = await fetch(`${base}/accounts/${encodeURIComponent(handle)}/session`, { method: "POST" });
  const body = (await response.json().catch(() => null)) as {
    access_token?: unknown;
    platform_id?: unknown;
    error?: { code?: unknown };
  } | null;
  // The user removed the app (POST …/accounts/{handle}/revoke): a revoked grant, as a platform's 401 says
  // it (the code src/accounts/tokens.ts calls TOKEN_REVOKED), so the account expires.
  if (response.status === 401 && body?.error?.code === "token_revoked")
    throw new PlatformError(`The user has revoked the application's access (${handle}).`, {
      kind: "auth",
      code: "token_revoked",
    });
  if (!response.ok || typeof body?.access_token !== "string" || typeof body.platform_id !== "string")
    throw new PlatformError(`The sandbox gave no session for ${handle} (HTTP ${response.status}).`, {
      kind: "transient",
      code: "sandbox_session",
    });
  return { accessToken: body.access_token, platformId: body.platform_id };
}

export function emulatedAdapter(
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
  const base = `${origin}/sandbox/${platform}`;
  const signedIn = async (account: AccountAuth): Promise<AccountAuth> => {
    if (account.accessToken !== null && account.platformUserId !== null) return account;
    const given = await session(fetch, base, account.handle);
    return {
      ...account,
      platformUserId: account.platformUserId ?? given.platformId,
      accessToken: account.accessToken ?? given.accessToken,
    };
  };
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
    resolve: async (account, id, publishedAt) => {
      const resolved = await adapter.resolve(await signedIn(account), id, publishedAt);
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
    ...(adapter.replyToComment && {
      replyToComment: async (account: AccountAuth, comment: CommentRef, text: string) =>
        adapter.replyToComment!(await signedIn(account), comment, text),
    }),
    ...(adapter.hideComment && {
      hideComment: async (account: AccountAuth, comment: CommentRef, hidden: boolean) =>
        adapter.hideComment!(await signedIn(account), comment, hidden),
    }),
    ...(adapter.deleteComment && {
      deleteComment: async (account: AccountAuth, comment: CommentRef) =>
        adapter.deleteComment!(await signedIn(account), comment),
    }),
  };
}
