// Calls to the X API v2 for an account, through the shared platform client (../client.ts): every URL built
// from X's hosts (HOSTS: the context may point them elsewhere), its token as a Bearer header (never in a
// URL), X's own reading of a failure (classifyX, below) before the common one, and every answer checked
// against its schema. X's reading: its usage caps, depleted pay-per-use credits and 24-hour posting limits
// (a 429 whose 15-minute window is not the limit that ran out), duplicate content, the problem details
// (RFC 7807) whose `errors[].message` says more than their `detail`, and the 200 answers of a lookup that
// carry only `errors` (a deleted post).
import type { z } from "zod";
import { accessTokenOf } from "../answers";
import { PLATFORM_MESSAGE_MAX, rateLimitReset, redactText } from "../call";
import { platformClient, type Query } from "../client";
import { field, nonEmpty } from "../json";
import { type AccountAuth, PlatformError, type PublishedPost, type PublishingContext } from "../types";

export const LABEL = "X (Twitter)";
/** X's hosts: the API (v2 under /2, OAuth, media upload) and the site (consent, post pages). */
export const HOSTS = { api: "https://api.x.com", web: "https://x.com" } as const;

/** X's post ids: decimal, up to 19 digits; checked before one goes into a URL path or a search query. */
export function postId(id: string): string {
  if (/^\d{1,19}$/.test(id)) return id;
  throw new PlatformError(`${LABEL}: "${id.slice(0, 40)}" is not an X post id`, {
    kind: "permanent",
    code: "invalid_post_id",
  });
}

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
  /** A PUT with a JSON body (hiding a reply) or a DELETE (deleting a post), its answer checked. */
  send<T>(
    account: AccountAuth,
    what: string,
    method: "PUT" | "DELETE",
    url: string,
    body: object | null,
    schema: z.ZodType<T>,
  ): Promise<T>;
  /**
   * A form POST with the app's HTTP Basic credentials (the OAuth endpoints: revocation), whose answer is
   * not read; a refusal never quotes it (the token endpoint's text can echo what it was sent).
   */
  postForm(what: string, url: string, form: URLSearchParams): Promise<void>;
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
    async send(account, what, method, url, body, schema) {
      const headers: Record<string, string> = { authorization: bearer(account), accept: "application/json" };
      if (body !== null) headers["content-type"] = "application/json";
      const init = { method, headers, body: body === null ? undefined : JSON.stringify(body) };
      return client.json(what, url, init, schema, classify(what, false));
    },
    async postForm(what, url, form) {
      const { clientId, clientSecret } = context.credentials;
      const headers = {
        authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      };
      await client.call(what, url, { method: "POST", headers, body: form }, { quoteErrors: false });
    },
  };
}

/**
 * How long a usage cap (the monthly post or read cap of the app's plan) or depleted credits are waited
 * out when X names no reset time: a day, so a cap lifted by a plan change, a new month or a top-up is
 * noticed without hammering X.
 */
export const USAGE_CAP_RETRY_SECONDS = 24 * 60 * 60;

const words = nonEmpty;

const cut = (text: string) => {
  const characters = [...redactText(text)];
  return characters.length > PLATFORM_MESSAGE_MAX
    ? `${characters.slice(0, PLATFORM_MESSAGE_MAX - 1).join("")}…`
    : characters.join("");
};

/** X's words for a failure: the problem's `detail` (or `title`), then its first error's message. */
export function xMessage(body: unknown): string | undefined {
  const first = field(field(body, "errors"), 0);
  const detail = words(field(body, "detail")) ?? words(field(body, "title")) ?? words(field(body, "message"));
  const specific = words(field(first, "message")) ?? words(field(first, "detail"));
  const parts = [detail, specific].filter(
    (part, index, all): part is string => !!part && all.indexOf(part) === index,
  );
  return parts.length > 0 ? cut(parts.join(" ")) : undefined;
}

/** `https://api.x.com/2/problems/resource-not-found` → `resource_not_found`. */
function problemCode(body: unknown): string | undefined {
  const type = words(field(body, "type")) ?? words(field(field(field(body, "errors"), 0), "type"));
  const name = type ? /\/problems\/([a-z][a-z-]{0,62})$/.exec(type)?.[1] : undefined;
  return name?.replaceAll("-", "_");
}

const usageCapped = (body: unknown) =>
  field(body, "title") === "UsageCapExceeded" ||
  /usage-capped$/.test(words(field(body, "type")) ?? "") ||
  /usage cap exceeded/i.test(words(field(body, "detail")) ?? "");

/**
 * Seconds until the 24-hour limit that ran out resets (X's `x-user-limit-24hour-*` and
 * `x-app-limit-24hour-*` headers on post creation), or undefined when neither is exhausted.
 */
export function dailyReset(headers: Headers, now: number): number | undefined {
  let wait: number | undefined;
  for (const prefix of ["x-user-limit-24hour", "x-app-limit-24hour"]) {
    if (headers.get(`${prefix}-remaining`)?.trim() !== "0") continue;
    const reset = Number(headers.get(`${prefix}-reset`) ?? Number.NaN);
    if (!Number.isFinite(reset) || reset < 1e9) continue;
    wait = Math.max(wait ?? 0, Math.ceil(reset - now / 1000), 0);
  }
  return wait;
}

/**
 * The `classify` option of callPlatform for X calls. `safe`: a GET, whose 200 answer with `errors` and
 * no `data` is a failure (after a POST, a 2xx is an acceptance, whatever else it says).
 */
export const classifyX =
  (what: string, safe: boolean, now: () => number) =>
  (response: Response, body: unknown): PlatformError | undefined => {
    const message = xMessage(body);
    if (response.ok) {
      if (!safe || field(body, "data") !== undefined || field(body, "errors") === undefined) return undefined;
      const code = problemCode(body) === "resource_not_found" ? "not_found" : "platform_error";
      return new PlatformError(`${what}: ${message ?? "X answered with errors only"}`, {
        kind: "permanent",
        code,
      });
    }
    const status = response.status;
    const text = `${what}: HTTP ${status}${message ? `: ${message}` : ""}`;
    if (usageCapped(body)) {
      return new PlatformError(text, {
        kind: "rate_limited",
        code: "usage_cap_exceeded",
        retryAfterSeconds: dailyReset(response.headers, now()) ?? USAGE_CAP_RETRY_SECONDS,
      });
    }
    // Pay-per-use: the app's credits ran out (402) until its developer buys more.
    if (status === 402) {
      return new PlatformError(text, {
        kind: "rate_limited",
        code: "credits_depleted",
        retryAfterSeconds: USAGE_CAP_RETRY_SECONDS,
      });
    }
    if (status === 429) {
      return new PlatformError(text, {
        kind: "rate_limited",
        code: "rate_limited",
        retryAfterSeconds: dailyReset(response.headers, now()) ?? rateLimitReset(response.headers, now()),
      });
    }
    if (status === 403 && /duplicate content/i.test(message ?? "")) {
      return new PlatformError(text, { kind: "permanent", code: "duplicate_content" });
    }
    // Other refusals keep X's fuller message; 401, 408 and 5xx are the common rules' (auth, transient).
    if (status >= 400 && status < 500 && status !== 401 && status !== 408) {
      return new PlatformError(text, { kind: "permanent", code: problemCode(body) ?? "content_rejected" });
    }
    return undefined;
  };
