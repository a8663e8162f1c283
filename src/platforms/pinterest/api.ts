// Pinterest API v5 calls, in one place, through the shared platform client (../client.ts): every URL
// built from Pinterest's hosts (HOSTS; the context may point them elsewhere), the Bearer header and the
// reading of answers with zod. Failures are classified by the common rules (429 with Retry-After or x-ratelimit-reset, 401 auth,
// other 4xx permanent with Pinterest's `message`, 5xx transient).
// developers.pinterest.com › API reference v5; Rate limits.
import type { z } from "zod";
import { accessTokenOf, expectShape } from "../answers";
import { platformClient } from "../client";
import type { PublishingContext } from "../types";

export { permanent } from "../answers";
export { expectShape };

export const tokenOf = (account: { accessToken: string | null }) => accessTokenOf("Pinterest", account);

/** Pinterest's hosts: the API (v5 under /v5) and the site (consent, Pin pages). */
export const HOSTS = { api: "https://api.pinterest.com", web: "https://www.pinterest.com" } as const;

export const pinUrl = (pinId: string) => `https://www.pinterest.com/pin/${encodeURIComponent(pinId)}/`;

export type PinterestApi = ReturnType<typeof pinterestApi>;

/** GETs and JSON POSTs against api.pinterest.com/v5 with the account's token. */
export function pinterestApi(context: PublishingContext) {
  const client = platformClient(context, HOSTS);
  const headers = (token: string) => ({ authorization: `Bearer ${token}`, accept: "application/json" });
  return {
    context,
    async get<T>(
      what: string,
      path: string,
      query: Record<string, string>,
      token: string,
      schema: z.ZodType<T>,
    ): Promise<T> {
      const label = `Pinterest ${what}`;
      const url = client.url("api", `/v5/${path}`, query);
      return client.json(label, url, { method: "GET", headers: headers(token) }, schema);
    },
    async post<T>(
      what: string,
      path: string,
      token: string,
      payload: unknown,
      schema: z.ZodType<T>,
    ): Promise<T> {
      const label = `Pinterest ${what}`;
      const init = {
        method: "POST",
        headers: { ...headers(token), "content-type": "application/json" },
        body: JSON.stringify(payload),
      };
      return client.json(label, client.url("api", `/v5/${path}`), init, schema);
    },
  };
}

/** PostMetrics from the platform's counts (the shared formula, ../metrics.ts). */
export { withEngagement } from "../metrics";
