// Calls to the X API v2 for an account, through the shared platform client (../client.ts): every URL built
// from X's hosts (HOSTS: the context may point them elsewhere), its token as a Bearer header (never in a
// URL), X's failure rules (errors.ts) before the common ones, and every answer checked against its schema.
import type { z } from "zod";
import { accessTokenOf } from "../answers";
import { platformClient, type Query } from "../client";
import type { AccountAuth, PublishedPost, PublishingContext } from "../types";
import { classifyX } from "./errors";

export const LABEL = "X (Twitter)";
/** X's hosts: the API (v2 under /2, OAuth, media upload) and the site (consent, post pages). */
export const HOSTS = { api: "https://api.x.com", web: "https://x.com" } as const;

/** Where a post can be seen, on X's site: /<handle>/status/<id> (/i/status/<id> works without a handle). */
export const postPath = (handle: string, id: string) =>
  `/${handle ? encodeURIComponent(handle) : "i"}/status/${id}`;

export type XApi = {
  /** `path` under the API's `/2` on the context's base for X's API host. */
  url(path: string, query?: Query): string;
  /** The post and where it can be seen, on the context's base for X's site (x.com). */
  publishedAs(account: AccountAuth, id: string): PublishedPost;
  get<T>(account: AccountAuth, what: string, url: string, schema: z.ZodType<T>): Promise<T>;
  /**
   * A POST with a JSON body (an object), a multipart body (FormData) or none (null). `timeoutMs`: a
   * request that sends a file's bytes (an append) takes the context's upload timeout.
   */
  post<T>(
    account: AccountAuth,
    what: string,
    url: string,
    body: object | FormData | null,
    schema: z.ZodType<T>,
    options?: { timeoutMs?: number },
  ): Promise<T>;
};

/** The account's token as a Bearer header; without one, the shared `token_missing` auth failure. */
const bearer = (account: AccountAuth) => `Bearer ${accessTokenOf(LABEL, account)}`;

export function xApi(context: PublishingContext): XApi {
  const client = platformClient(context, HOSTS);
  const classify = (what: string, safe: boolean) => ({ classify: classifyX(what, safe, context.now) });
  return {
    url: (path, query) => client.url("api", `/2${path}`, query),
    publishedAs: (account, id) => ({ id, url: client.url("web", postPath(account.handle, id)) }),
    async get(account, what, url, schema) {
      const headers = { authorization: bearer(account), accept: "application/json" };
      return client.json(what, url, { method: "GET", headers }, schema, classify(what, true));
    },
    async post(account, what, url, body, schema, options = {}) {
      const headers: Record<string, string> = { authorization: bearer(account), accept: "application/json" };
      let payload: BodyInit | undefined;
      if (body instanceof FormData) payload = body;
      else if (body !== null) {
        headers["content-type"] = "application/json";
        payload = JSON.stringify(body);
      }
      const init = { method: "POST", headers, body: payload };
      return client.json(what, url, init, schema, { ...classify(what, false), ...options });
    },
  };
}
