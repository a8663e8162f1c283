// Pinterest API v5 calls, in one place: the base URL, the Bearer header and the reading of answers with
// zod. Failures are classified by the common rules (429 with Retry-After or x-ratelimit-reset, 401 auth,
// other 4xx permanent with Pinterest's `message`, 5xx transient).
// developers.pinterest.com › API reference v5; Rate limits.
import type { z } from "zod";
import { callPlatform } from "../call";
import { type AccountAuth, PlatformError, type PostMetrics, type PublishingContext } from "../types";

export const API = "https://api.pinterest.com/v5";

export const pinUrl = (pinId: string) => `https://www.pinterest.com/pin/${encodeURIComponent(pinId)}/`;

/** The account's access token; an account without one cannot act on Pinterest. */
export function tokenOf(account: AccountAuth): string {
  if (!account.accessToken)
    throw new PlatformError("The Pinterest account has no access token; reconnect it.", {
      kind: "auth",
      code: "no_token",
    });
  return account.accessToken;
}

export const permanent = (code: string, message: string) =>
  new PlatformError(message, { kind: "permanent", code });

/**
 * The answer in the expected shape, else a PlatformError: a 2xx to a request that changes something
 * means it was done, so an unreadable one leaves the outcome unknown; a read can simply be asked again.
 */
export function expectShape<T>(schema: z.ZodType<T>, body: unknown, what: string, changes: boolean): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new PlatformError(`${what}: unexpected answer`, {
    kind: changes ? "unknown_outcome" : "transient",
    code: "invalid_response",
  });
}

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

/** PostMetrics from the platform's counts: engagement is every interaction per impression, in percent. */
export function withEngagement(counts: Omit<PostMetrics, "engagement_rate">): PostMetrics {
  const engaged = counts.likes + counts.comments + counts.shares + counts.quotes + counts.saves;
  const rate = counts.impressions > 0 ? Math.round((engaged / counts.impressions) * 10_000) / 100 : 0;
  return { ...counts, engagement_rate: rate };
}
