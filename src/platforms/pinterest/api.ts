// Pinterest API v5 calls, in one place: the base URL, the Bearer header and the reading of answers with
// zod. Failures are classified by the common rules (429 with Retry-After or x-ratelimit-reset, 401 auth,
// other 4xx permanent with Pinterest's `message`, 5xx transient).
// developers.pinterest.com › API reference v5; Rate limits.
import type { z } from "zod";
import { accessTokenOf, expectShape } from "../answers";
import { callPlatform } from "../call";
import type { PublishingContext } from "../types";

export { permanent } from "../answers";
export { expectShape };

export const tokenOf = (account: { accessToken: string | null }) => accessTokenOf("Pinterest", account);

export const API = "https://api.pinterest.com/v5";

export const pinUrl = (pinId: string) => `https://www.pinterest.com/pin/${encodeURIComponent(pinId)}/`;

export type PinterestApi = ReturnType<typeof pinterestApi>;

/** GETs and JSON POSTs against api.pinterest.com/v5 with the account's token. */
export function pinterestApi(context: PublishingContext) {
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
      const search = new URLSearchParams(query).toString();
      const url = `${API}/${path}${search ? `?${search}` : ""}`;
      const body = await callPlatform(context.fetch, label, url, { method: "GET", headers: headers(token) });
      return expectShape(schema, body, label, false);
    },
    async post<T>(
      what: string,
      path: string,
      token: string,
      payload: unknown,
      schema: z.ZodType<T>,
    ): Promise<T> {
      const label = `Pinterest ${what}`;
      const body = await callPlatform(context.fetch, label, `${API}/${path}`, {
        method: "POST",
        headers: { ...headers(token), "content-type": "application/json" },
        body: JSON.stringify(payload),
      });
      return expectShape(schema, body, label, true);
    },
  };
}

/** PostMetrics from the platform's counts (the shared formula, ../metrics.ts). */
export { withEngagement } from "../metrics";
