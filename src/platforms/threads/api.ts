// Calls to the Threads Graph API (graph.threads.net/v1.0): the token as an `Authorization: Bearer`
// header (Graph hosts read it there as well as in the documented access_token parameter, and a header
// stays out of URL logs), writes as form bodies, answers read through zod, and Meta's error codes turned
// into the engine's failure kinds by the classifier Facebook and Instagram share (../meta.ts).
import type { z } from "zod";
import { accessTokenOf, expectShape } from "../answers";
import { callPlatform } from "../call";
import { metaFailure as sharedMetaFailure } from "../meta";
import type { Fetch, PlatformError } from "../types";

export { expectShape };

export const tokenOf = (account: { accessToken: string | null }) => accessTokenOf("Threads", account);

export const GRAPH = "https://graph.threads.net/v1.0";
/** The profile a post's handle points to when the API withholds a permalink. */
export const PROFILE = "https://www.threads.com/@";

/**
 * Meta's reading of a failed answer, shared with Facebook and Instagram (../meta.ts): its `error.code`,
 * not the HTTP status, says what happened (a rate limit arrives as a 400, an expired token as a 400 or
 * 401). Undefined falls through to the common classification in call.ts.
 */
export const metaFailure =
  (what: string, quote = true) =>
  (response: Response, body: unknown): PlatformError | undefined =>
    sharedMetaFailure(what, response, body, quote);

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
