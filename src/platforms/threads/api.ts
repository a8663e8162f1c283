// Calls to the Threads Graph API (graph.threads.net/v1.0): the token as an `Authorization: Bearer`
// header (Graph hosts read it there as well as in the documented access_token parameter, and a header
// stays out of URL logs), writes as form bodies, answers read through zod, and Meta's error codes turned
// into the engine's failure kinds by the classifier Facebook and Instagram share (../meta.ts).
import type { z } from "zod";
import { accessTokenOf, expectShape } from "../answers";
import { platformClient } from "../client";
import { metaDeleteCall, metaFailure as sharedMetaFailure } from "../meta";
import type { PlatformError, PublishingContext } from "../types";

export { expectShape };

export const tokenOf = (account: { accessToken: string | null }) => accessTokenOf("Threads", account);

/** Threads' hosts: the Graph API (under /v1.0; tokens at /oauth) and the consent page. */
export const HOSTS = { graph: "https://graph.threads.net", web: "https://threads.com" } as const;
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
  /** DELETE of a node; an object already gone rejects with code `not_found` (../meta.ts). */
  delete(what: string, path: string): Promise<void>;
};

/** The Graph API acting with `token`, through the shared client: every URL from the context's hosts. */
export function threadsApi(context: Pick<PublishingContext, "fetch" | "hosts">, token: string): ThreadsApi {
  const client = platformClient(context, HOSTS);
  const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
  return {
    async get(what, path, query, schema) {
      const label = `Threads ${what}`;
      const url = client.url("graph", `/v1.0/${path}`, query);
      return client.json(label, url, { method: "GET", headers }, schema, { classify: metaFailure(label) });
    },
    async post(what, path, form, schema) {
      const label = `Threads ${what}`;
      const init = {
        method: "POST",
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form),
      };
      const url = client.url("graph", `/v1.0/${path}`);
      return client.json(label, url, init, schema, { classify: metaFailure(label) });
    },
    async delete(what, path) {
      const label = `Threads ${what}`;
      await client.call(
        label,
        client.url("graph", `/v1.0/${path}`),
        { method: "DELETE", headers },
        metaDeleteCall(label),
      );
    },
  };
}

/** The account's Threads user id ("me" names the token's own user where none was stored). */
export const userPath = (account: { platformUserId: string | null }) =>
  encodeURIComponent(account.platformUserId ?? "me");
