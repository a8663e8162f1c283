// Calls to TikTok's Open API v2 (open.tiktokapis.com/v2): JSON bodies with the user's token as a
// Bearer header, answers read through zod, and TikTok's own error codes (an `error.code` other than
// "ok", in error statuses and in some 200s) turned into the engine's failure kinds once, here.
// developers.tiktok.com › API v2 › Error handling; Content Posting API › Direct Post (error codes).
import type { z } from "zod";
import { child, text } from "../adapter";
import { accessTokenOf, expectShape } from "../answers";
import { callPlatform, platformMessage, rateLimitReset } from "../call";
import { platformClient } from "../client";
import { type FailureKind, type Fetch, PlatformError, type PublishingContext } from "../types";

export { expectShape };

export const tokenOf = (account: { accessToken: string | null }) => accessTokenOf("TikTok", account);

/** TikTok's hosts: the Open API (v2 under /v2, OAuth too) and the site (consent, post pages). */
export const HOSTS = { api: "https://open.tiktokapis.com", web: "https://www.tiktok.com" } as const;

/** A daily cap (posts per creator, pending shares, the app's active users) frees up slowly. */
const DAILY_CAP_WAIT_SECONDS = 3600;

/** TikTok's codes whose kind differs from what their HTTP status alone would say. */
const KINDS: Record<string, FailureKind> = {
  rate_limit_exceeded: "rate_limited",
  spam_risk_too_many_posts: "rate_limited",
  spam_risk_too_many_pending_share: "rate_limited",
  reached_active_user_cap: "rate_limited",
  access_token_invalid: "auth",
  // A scope the user did not grant: refreshing cannot add it, only a reconnect can.
  scope_not_authorized: "permanent",
  scope_permission_missed: "permanent",
  internal_error: "transient",
};

function kindOfStatus(status: number): FailureKind {
  if (status === 429) return "rate_limited";
  if (status >= 500) return "transient";
  if (status === 401) return "auth";
  return "permanent";
}

/**
 * TikTok's reading of an answer: `error.code` (an OAuth endpoint's `error` string) other than "ok" is a
 * failure, even in a 200. Undefined (no code, or "ok") falls through to call.ts.
 */
export function tiktokFailure(what: string, quote = true) {
  return (response: Response, body: unknown): PlatformError | undefined => {
    const error = child(body, "error");
    const code = typeof error === "string" ? error : text(error, "code");
    if (!code || code === "ok") return undefined;
    const quoted = quote ? platformMessage(body) : undefined;
    const message = `${what}: ${code}${quoted ? `: ${quoted}` : ""}`;
    const kind = KINDS[code] ?? kindOfStatus(response.status);
    const safeCode = /^[a-z][a-z0-9_]{0,63}$/.test(code) ? code : "content_rejected";
    if (kind !== "rate_limited") return new PlatformError(message, { kind, code: safeCode });
    const retryAfterSeconds =
      code === "rate_limit_exceeded" ? rateLimitReset(response.headers) : DAILY_CAP_WAIT_SECONDS;
    return new PlatformError(message, { kind, code: safeCode, retryAfterSeconds });
  };
}

export type TiktokApi = {
  /**
   * A POST of `body` as JSON (no body when undefined). `write` says whether it changes anything, which
   * decides what an unreadable answer means.
   */
  post<T>(
    what: string,
    path: string,
    body: object | undefined,
    schema: z.ZodType<T>,
    options?: { write?: boolean; fetch?: Fetch },
  ): Promise<T>;
  /** A post's public URL on the site (the `web` host): TikTok serves photo posts under /video/ too. */
  postUrl(handle: string, id: string): string;
};

/** The Open API acting with `token`, through the shared client: every URL from the context's hosts. */
export function tiktokApi(
  context: Pick<PublishingContext, "fetch" | "hosts"> & Partial<Pick<PublishingContext, "timeouts">>,
  token: string,
): TiktokApi {
  const client = platformClient(context, HOSTS);
  return {
    postUrl: (handle, id) =>
      client.url("web", `/@${encodeURIComponent(handle)}/video/${encodeURIComponent(id)}`),
    async post(what, path, body, schema, options = {}) {
      const label = `TikTok ${what}`;
      const headers = {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        "content-type": "application/json; charset=UTF-8",
      };
      const init: RequestInit = { method: "POST", headers };
      if (body !== undefined) init.body = JSON.stringify(body);
      const write = options.write ?? true;
      let answer: unknown;
      try {
        const url = client.url("api", `/v2/${path}`);
        // A call through its own fetch (the status fetch's id quoting) takes the call timeout too.
        const classify = { classify: tiktokFailure(label), timeoutMs: context.timeouts?.call };
        answer = options.fetch
          ? await callPlatform(options.fetch, label, url, init, classify)
          : (await client.call(label, url, init, classify)).body;
      } catch (error) {
        // TikTok reads with POST too; a lost answer to a read changed nothing and can be asked again.
        if (!write && error instanceof PlatformError && error.kind === "unknown_outcome")
          throw new PlatformError(error.message, { kind: "transient", code: error.code });
        throw error;
      }
      return expectShape(schema, answer, label, write);
    },
  };
}
