// Calls to the Threads Graph API (graph.threads.net/v1.0): the token as an `Authorization: Bearer`
// header (Graph hosts read it there as well as in the documented access_token parameter, and a header
// stays out of URL logs), writes as form bodies, answers read through zod, and Meta's error codes
// (190, 4/17/32/613, transient ones) turned into the engine's failure kinds once, here.
import type { z } from "zod";
import { child } from "../adapter";
import { accessTokenOf, expectShape } from "../answers";
import { callPlatform, platformMessage, rateLimitReset } from "../call";
import { type Fetch, PlatformError } from "../types";

export { expectShape };

export const tokenOf = (account: { accessToken: string | null }) => accessTokenOf("Threads", account);

export const GRAPH = "https://graph.threads.net/v1.0";
/** The profile a post's handle points to when the API withholds a permalink. */
export const PROFILE = "https://www.threads.com/@";

/** Meta's throttling codes: app (4), user (17), page (32) and per-method (613) call limits. */
const THROTTLED = new Set([4, 17, 32, 613]);
/** Meta's "unknown" (1) and "service temporarily unavailable" (2) codes. */
const TEMPORARY = new Set([1, 2]);

/**
 * Meta's reading of a failed answer: its `error.code`, not the HTTP status, says what happened (a rate
 * limit arrives as a 400, an expired token as a 400 or 401). Undefined falls through to the common
 * classification in call.ts.
 */
export function metaFailure(what: string, quote = true) {
  return (response: Response, body: unknown): PlatformError | undefined => {
    const error = child(body, "error");
    const code = Number(child(error, "code"));
    if (!Number.isInteger(code)) return undefined;
    const quoted = quote ? platformMessage(body) : undefined;
    const message = `${what}: HTTP ${response.status}${quoted ? `: ${quoted}` : ""}`;
    if (code === 190) return new PlatformError(message, { kind: "auth", code: "token_invalid" });
    if (THROTTLED.has(code)) {
      return new PlatformError(message, {
        kind: "rate_limited",
        code: "rate_limited",
        retryAfterSeconds: rateLimitReset(response.headers),
      });
    }
    if (TEMPORARY.has(code) || child(error, "is_transient") === true)
      return new PlatformError(message, { kind: "transient", code: "server_error" });
    return undefined;
  };
}

export type ThreadsApi = {
  get<T>(what: string, path: string, query: Record<string, string>, schema: z.ZodType<T>): Promise<T>;
  post<T>(what: string, path: string, form: Record<string, string>, schema: z.ZodType<T>): Promise<T>;
};

/** The Graph API acting with `token`. */
export function threadsApi(fetcher: Fetch, token: string): ThreadsApi {
  const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
  return {
    async get(what, path, query, schema) {
      const label = `Threads ${what}`;
      const url = `${GRAPH}/${path}?${new URLSearchParams(query)}`;
      const body = await callPlatform(
        fetcher,
        label,
        url,
        { method: "GET", headers },
        {
          classify: metaFailure(label),
        },
      );
      return expectShape(schema, body, label, false);
    },
    async post(what, path, form, schema) {
      const label = `Threads ${what}`;
      const body = await callPlatform(
        fetcher,
        label,
        `${GRAPH}/${path}`,
        {
          method: "POST",
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(form),
        },
        { classify: metaFailure(label) },
      );
      return expectShape(schema, body, label, true);
    },
  };
}

/** The account's Threads user id ("me" names the token's own user where none was stored). */
export const userPath = (account: { platformUserId: string | null }) =>
  encodeURIComponent(account.platformUserId ?? "me");
