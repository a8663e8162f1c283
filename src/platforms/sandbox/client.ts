// How adapters reach the sandbox: an in-process fetch that hands requests to the worker's own fetch
// handler (never the network; src/app.ts mounts the sandbox's server, src/sandbox/, at /sandbox), the
// sandbox's endpoints on the service's own origin, and its publishing calls, made through callPlatform
// like any platform's so that failures are classified the same way.
import { exports } from "cloudflare:workers";
import { z } from "zod";
import type { Platform } from "../../db/enums";
import type { AdapterSource } from "../adapter";
import { expectShape } from "../answers";
import { callPlatform, redactUrl } from "../call";
import type {
  AccountAuth,
  Endpoints,
  Fetch,
  PlatformSpec,
  PlatformToken,
  PublishedPost,
  Publishing,
} from "../types";
import { mintToken } from "./access";
import { hasSandboxChannels } from "./channels";

/** Hands a request to a worker's fetch handler without the network. */
export type Loopback = (request: Request) => Promise<Response>;

/**
 * The worker's own default export (src/index.ts) through the runtime's loopback binding: the request is
 * answered by this worker, with its own env, from a request handler, a queue consumer, the cron or a
 * Durable Object alike.
 */
const workerLoopback: Loopback = (request) => exports.default.fetch(request);

/**
 * A fetch that only reaches `${origin}/sandbox/…`, answered in-process by `loopback` (the worker itself;
 * tests may pass their own). Redirects come back as they are, never followed. The answer is the worker's,
 * with the worker's env.
 */
export function sandboxFetch(origin: string, loopback: Loopback = workerLoopback): Fetch {
  return async (input, init) => {
    const request = new Request(input, { ...init, redirect: "manual" });
    const url = new URL(request.url);
    if (url.origin !== origin || !url.pathname.startsWith("/sandbox/")) {
      throw new TypeError(`the sandbox fetch only reaches ${origin}/sandbox/, not ${redactUrl(request.url)}`);
    }
    return loopback(request);
  };
}

export const sandboxEndpoints = (origin: string, platform: Platform): Endpoints => ({
  authorize: `${origin}/sandbox/${platform}/oauth/authorize`,
  token: `${origin}/sandbox/${platform}/oauth/token`,
  identity: `${origin}/sandbox/${platform}/me`,
});

const channelList = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      handle: z.string(),
      name: z.string(),
      avatar: z.string().nullable(),
      kind: z.string(),
      accessToken: z.string().optional(),
    }),
  ),
});
const published = z.object({ id: z.string().regex(/^\d+$/), url: z.string() });
const foundList = z.object({ data: z.array(published) });
const count = z.number().int().nonnegative();
const insightsAnswer = z.object({
  metrics: z.object({
    comments: count,
    likes: count,
    shares: count,
    impressions: count,
    quotes: count,
    saves: count,
    engagement_rate: z.number().nonnegative(),
  }),
});
const commentsAnswer = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      text: z.string(),
      created_at: z.iso.datetime(),
      author: z.object({ name: z.string(), username: z.string(), profile_url: z.string() }),
    }),
  ),
});

/**
 * The sandbox as a platform definition: the platform's own, with the sandbox's endpoints and publishing
 * and the standard token calls (the sandbox mints no long-lived tokens and refreshes through its token
 * endpoint), and no hosts to rebase (every call already goes to the sandbox).
 */
export function sandboxDefinition(
  env: Pick<Env, "ENCRYPTION_KEY">,
  fetcher: Fetch,
  origin: string,
  spec: PlatformSpec,
): AdapterSource {
  return {
    ...spec,
    endpoints: sandboxEndpoints(origin, spec.platform),
    connectToken: undefined,
    refresh: undefined,
    authorize: undefined,
    // The emulator takes any draft (its failures come from tags in the text), so no check refuses one first.
    check: undefined,
    hosts: undefined,
    publishing: () => sandboxPublishing(env, fetcher, origin, spec),
  };
}

/** The answer in the expected shape: after a POST the platform did act, after a GET it can be asked again. */
const expect = <T>(schema: z.ZodType<T>, body: unknown, what: string, method: "GET" | "POST") =>
  expectShape(schema, body, what, method === "POST");

/**
 * The sandbox's publishing API, acting for an account. Accounts without a token get a short-lived one
 * minted for each call, so one never outlives the call it was made for.
 */
export function sandboxPublishing(
  env: Pick<Env, "ENCRYPTION_KEY">,
  fetcher: Fetch,
  origin: string,
  spec: PlatformSpec,
): Publishing {
  const base = `${origin}/sandbox/${spec.platform}/posts`;
  const headers = async (account: AccountAuth, body: boolean): Promise<Record<string, string>> => ({
    authorization: `Bearer ${account.accessToken ?? (await mintToken(env, spec.platform, account.handle))}`,
    accept: "application/json",
    ...(body ? { "content-type": "application/json" } : {}),
  });
  const post = async (account: AccountAuth, what: string, url: string, body: object) =>
    expect(
      published,
      await callPlatform(fetcher, `${spec.label} ${what}`, url, {
        method: "POST",
        headers: await headers(account, true),
        body: JSON.stringify(body),
      }),
      `${spec.label} ${what}`,
      "POST",
    );
  const get = async <T>(account: AccountAuth, what: string, url: string, schema: z.ZodType<T>) =>
    expect(
      schema,
      await callPlatform(fetcher, `${spec.label} ${what}`, url, {
        method: "GET",
        headers: await headers(account, false),
      }),
      `${spec.label} ${what}`,
      "GET",
    );
  const postPath = (id: string) => `${base}/${encodeURIComponent(id)}`;
  const asPublished = (answer: PublishedPost): PublishedPost => ({ id: answer.id, url: answer.url });

  return {
    async publish(account, draft) {
      const items = draft.items.map((item) => ({
        text: item.text,
        media: item.media.map((media) => ({ url: media.url, type: media.mime })),
      }));
      return asPublished(await post(account, "publish", base, { items, fingerprint: draft.fingerprint }));
    },
    async find(account, { fingerprint }) {
      const url = `${base}?${new URLSearchParams({ fingerprint })}`;
      const [first] = (await get(account, "find", url, foundList)).data;
      return first ? asPublished(first) : null;
    },
    async insights(account, platformPostId) {
      const url = `${postPath(platformPostId)}/insights`;
      return (await get(account, "insights", url, insightsAnswer)).metrics;
    },
    async comments(account, platformPostId) {
      const url = `${postPath(platformPostId)}/comments`;
      return (await get(account, "comments", url, commentsAnswer)).data.map((comment) => ({
        id: comment.id,
        content: comment.text,
        author_name: comment.author.name,
        created_at: new Date(comment.created_at),
        contact: { ...comment.author },
      }));
    },
    async reply(account, platformPostId, text, fingerprint) {
      const url = `${postPath(platformPostId)}/replies`;
      return asPublished(await post(account, "reply", url, { text, fingerprint }));
    },
    ...(hasSandboxChannels(spec.platform)
      ? {
          async channels(token: PlatformToken) {
            const url = `${origin}/sandbox/${spec.platform}/channels`;
            const account = { handle: "", platformUserId: null, accessToken: token.accessToken };
            return (await get(account, "channels", url, channelList)).data;
          },
        }
      : {}),
  };
}
