// YouTube Data API v3 calls, in one place: the hosts (HOSTS; the Data API's calls go through the shared
// client, ../client.ts, every URL from them), the Bearer header, the reading of answers with
// zod, and Google's error reasons read once (a daily quota named in a 403 waits for midnight Pacific
// Time, when Google resets it; a short rate limit waits a minute).
// developers.google.com › YouTube Data API › Errors; Quota Calculator.

import type { z } from "zod";
import { accessTokenOf, expectShape } from "../answers";
import { rateLimitReset, statusFailure } from "../call";
import { platformClient } from "../client";
import { field } from "../json";
import { PlatformError, type PublishingContext } from "../types";

export { permanent } from "../answers";
export { expectShape };

/** The platform's name in messages. */
export const LABEL = "YouTube";

export const tokenOf = (account: { accessToken: string | null }) => accessTokenOf(LABEL, account);

/**
 * Google's hosts: the Data API (under /youtube/v3), the upload endpoint (/upload/youtube/v3, the same
 * host), OAuth (token and revocation), the consent page, and the site (watch pages).
 */
export const HOSTS = {
  api: "https://www.googleapis.com",
  upload: "https://www.googleapis.com",
  oauth: "https://oauth2.googleapis.com",
  accounts: "https://accounts.google.com",
  web: "https://www.youtube.com",
} as const;

/** Reasons that mean the project's daily quota is spent: it comes back at midnight Pacific Time. */
const DAILY_QUOTA = new Set(["quotaExceeded", "dailyLimitExceeded"]);
/** Reasons that mean too many requests in a short window. */
const SHORT_LIMIT = new Set(["rateLimitExceeded", "userRateLimitExceeded"]);
/** The channel uploaded as many videos as YouTube allows for now; Google documents no reset time. */
export const UPLOAD_LIMIT_WAIT_SECONDS = 3600;

const PACIFIC = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Los_Angeles",
  hourCycle: "h23",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

function pacificClock(at: number) {
  const parts = PACIFIC.formatToParts(new Date(at));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { hour: part("hour"), seconds: part("hour") * 3600 + part("minute") * 60 + part("second") };
}

/** Seconds from `now` until the next midnight in Pacific Time, when YouTube's daily quotas reset. */
export function secondsUntilPacificMidnight(now: number): number {
  let wait = 86_400 - pacificClock(now).seconds;
  // On the days the clocks change the day has 23 or 25 hours: the guess lands an hour off midnight.
  const landed = pacificClock(now + wait * 1000).hour;
  if (landed === 23) wait += 3600;
  else if (landed === 1) wait -= 3600;
  return Math.max(1, wait);
}

/** Google's `error.errors[0].reason` (`quotaExceeded`, `videoNotFound`, …). */
export function reasonOf(body: unknown): string | undefined {
  const reason = field(field(field(field(body, "error"), "errors"), 0), "reason");
  return typeof reason === "string" && /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(reason) ? reason : undefined;
}

/**
 * YouTube's reading of a failed answer: quotas and rate limits (sent as 403 as often as 429) become
 * `rate_limited` with the time they reset; other refusals keep their common kind and name Google's
 * reason as the code.
 */
export const classify =
  (what: string, now: () => number) =>
  (response: Response, body: unknown): PlatformError | undefined => {
    if (response.ok) return undefined;
    const reason = reasonOf(body);
    if (!reason) return undefined;
    const common = statusFailure(what, response, JSON.stringify(body ?? null));
    if (DAILY_QUOTA.has(reason))
      return new PlatformError(common.message, {
        kind: "rate_limited",
        code: "quota_exceeded",
        retryAfterSeconds: secondsUntilPacificMidnight(now()),
      });
    if (SHORT_LIMIT.has(reason))
      return new PlatformError(common.message, {
        kind: "rate_limited",
        code: "rate_limited",
        retryAfterSeconds: rateLimitReset(response.headers, now()),
      });
    if (reason === "uploadLimitExceeded")
      return new PlatformError(common.message, {
        kind: "rate_limited",
        code: "upload_limit_exceeded",
        retryAfterSeconds: UPLOAD_LIMIT_WAIT_SECONDS,
      });
    if (common.kind === "permanent" || common.kind === "auth")
      return new PlatformError(common.message, { kind: common.kind, code: reason });
    return undefined;
  };

export type YouTubeApi = ReturnType<typeof youtubeApi>;

/** GETs and JSON POSTs against the Data API with the account's token, classified the YouTube way. */
export function youtubeApi(context: PublishingContext) {
  const client = platformClient(context, HOSTS);
  // The context's call timeout, also for the calls made outside the client (the upload session's POST
  // and status query); a PUT of bytes names the upload timeout instead (upload.ts).
  const options = (what: string) => ({
    classify: classify(what, context.now),
    timeoutMs: context.timeouts.call,
  });
  return {
    context,
    options,
    /** `path` on one of Google's hosts (the context's base for it). */
    url: (host: keyof typeof HOSTS, path: string, query?: Record<string, string>) =>
      client.url(host, path, query),
    /** The base URL of a host, as this context reaches it. */
    base: (host: keyof typeof HOSTS) => client.hosts[host]!,
    /** A video's watch page. */
    watchUrl: (videoId: string) => client.url("web", "/watch", { v: videoId }),
    async get<T>(
      what: string,
      path: string,
      query: Record<string, string>,
      token: string,
      schema: z.ZodType<T>,
    ): Promise<T> {
      const label = `${LABEL} ${what}`;
      const url = client.url("api", `/youtube/v3/${path}`, query);
      const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
      return client.json(label, url, { method: "GET", headers }, schema, options(label));
    },
    async post<T>(
      what: string,
      path: string,
      query: Record<string, string>,
      token: string,
      payload: unknown,
      schema: z.ZodType<T>,
    ): Promise<T> {
      const label = `${LABEL} ${what}`;
      const url = client.url("api", `/youtube/v3/${path}`, query);
      const headers = {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        "content-type": "application/json; charset=UTF-8",
      };
      const init = { method: "POST", headers, body: JSON.stringify(payload) };
      return client.json(label, url, init, schema, options(label));
    },
    /** A call with no body that answers 204 No Content (comments.delete, setModerationStatus). */
    async send(
      what: string,
      method: "POST" | "DELETE",
      path: string,
      query: Record<string, string>,
      token: string,
    ) {
      const label = `${LABEL} ${what}`;
      const url = client.url("api", `/youtube/v3/${path}`, query);
      const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
      await client.call(label, url, { method, headers }, options(label));
    },
  };
}

/** PostMetrics from the platform's counts (the shared formula, ../metrics.ts). */
export { withEngagement } from "../metrics";
