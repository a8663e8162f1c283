// Calls to the X API v2 for an account: its token as a Bearer header (never in a URL), X's failure rules
// (errors.ts) before the common ones, and every answer checked against its schema.
import type { z } from "zod";
import { accessTokenOf } from "../answers";
import { callPlatform } from "../call";
import { type AccountAuth, PlatformError, type PublishedPost, type PublishingContext } from "../types";
import { classifyX } from "./errors";

export const LABEL = "X (Twitter)";
export const API = "https://api.x.com/2";

/** Where a post can be seen: x.com/<handle>/status/<id> (x.com/i/status/<id> works without a handle). */
export const postUrl = (handle: string, id: string) =>
  `https://x.com/${handle ? encodeURIComponent(handle) : "i"}/status/${id}`;

export const publishedAs = (account: AccountAuth, id: string): PublishedPost => ({
  id,
  url: postUrl(account.handle, id),
});

export type XApi = {
  get<T>(account: AccountAuth, what: string, url: string, schema: z.ZodType<T>): Promise<T>;
  /** A POST with a JSON body (an object), a multipart body (FormData) or none (null). */
  post<T>(
    account: AccountAuth,
    what: string,
    url: string,
    body: object | FormData | null,
    schema: z.ZodType<T>,
  ): Promise<T>;
};

/** The account's token as a Bearer header; without one, the shared `token_missing` auth failure. */
const bearer = (account: AccountAuth) => `Bearer ${accessTokenOf(LABEL, account)}`;

/**
 * The answer in the expected shape, else a PlatformError: after a POST the platform did act (it answered
 * 2xx), so an unreadable answer leaves the outcome unknown; a GET can simply be asked again.
 */
function expected<T>(schema: z.ZodType<T>, body: unknown, what: string, safe: boolean): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new PlatformError(`${what}: unexpected answer`, {
    kind: safe ? "transient" : "unknown_outcome",
    code: "invalid_response",
  });
}

export function xApi(context: PublishingContext): XApi {
  const call = async (what: string, url: string, init: RequestInit, safe: boolean) =>
    callPlatform(context.fetch, what, url, init, { classify: classifyX(what, safe, context.now) });
  return {
    async get(account, what, url, schema) {
      const headers = { authorization: bearer(account), accept: "application/json" };
      return expected(schema, await call(what, url, { method: "GET", headers }, true), what, true);
    },
    async post(account, what, url, body, schema) {
      const headers: Record<string, string> = { authorization: bearer(account), accept: "application/json" };
      let payload: BodyInit | undefined;
      if (body instanceof FormData) payload = body;
      else if (body !== null) {
        headers["content-type"] = "application/json";
        payload = JSON.stringify(body);
      }
      const answer = await call(what, url, { method: "POST", headers, body: payload }, false);
      return expected(schema, answer, what, false);
    },
  };
}
