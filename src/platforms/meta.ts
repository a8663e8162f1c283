// What the Facebook Pages, Instagram and Threads adapters share: all are Meta Graph APIs, with one error
// format (`{error: {code, error_subcode, is_transient, message}}`, mostly under HTTP 400 whatever the
// cause), one way of saying when a throttled app may call again (the usage headers), form-encoded POST
// bodies, cursor paging and the same summary counts. developers.facebook.com › Graph API › Overview › Handling
// Errors; Rate Limiting; Instagram Platform › Error Codes.

import { z } from "zod";
import { hmacKey, hmacSha256Hex } from "../lib/crypto";
import { accessTokenOf, expectShape } from "./answers";
import { type CallOptions, platformCall, platformMessage } from "./call";
import { withEngagement } from "./metrics";
import { type Fetch, PlatformError, type PostMetrics } from "./types";

/** The Graph API version every Meta call names. */
export const GRAPH_VERSION = "v25.0";

/** What a throttled app waits when Meta's headers do not say: its windows roll over an hour. */
export const META_THROTTLE_SECONDS = 300;
/** What a full content publishing quota waits: the quota is a moving 24 hours, its reset unknown. */
export const PUBLISHING_LIMIT_SECONDS = 3600;

// Codes from the Graph API's error reference: the token is invalid, expired or its session ended.
const AUTH_CODES = new Set([102, 190, 463, 467]);
// Application (4), user (17), Page (32), custom (613) and business use case (80001-80014) throttling;
// Instagram's 9 is its "Application request limit reached" / publishing quota.
const THROTTLE_CODES = new Set([4, 9, 17, 32, 613]);
const isBusinessThrottle = (code: number) => code >= 80_001 && code <= 80_014;
// 1 and 2 are the Graph API's "unknown" and "service temporarily unavailable"; -1 and -2 Instagram's
// server error and media download timeout ("try again").
const TRANSIENT_CODES = new Set([1, 2, -1, -2]);
/** Instagram: "You reached maximum number of posts that is allowed to be published by API in 24 hours." */
const PUBLISHING_LIMIT_SUBCODE = 2_207_042;
/** Instagram's code 4 with this subcode is an anti-spam restriction, not a throttle. */
const RESTRICTED_SUBCODE = 2_207_051;

type MetaError = { code?: number; error_subcode?: number; is_transient?: boolean };

function metaError(body: unknown): MetaError | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const error = (body as Record<string, unknown>).error;
  if (typeof error !== "object" || error === null) return undefined;
  const fields = error as Record<string, unknown>;
  const number = (value: unknown) => (typeof value === "number" ? value : undefined);
  return {
    code: number(fields.code),
    error_subcode: number(fields.error_subcode),
    is_transient: typeof fields.is_transient === "boolean" ? fields.is_transient : undefined,
  };
}

/**
 * Seconds until a throttled app may call again, from the `estimated_time_to_regain_access` (minutes)
 * Meta puts in X-Business-Use-Case-Usage (per business, per type) and X-App-Usage, or Retry-After.
 */
export function usageRetryAfter(headers: Headers): number | undefined {
  let minutes = 0;
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) {
      for (const [key, field] of Object.entries(value)) {
        if (key === "estimated_time_to_regain_access" && typeof field === "number") {
          minutes = Math.max(minutes, field);
        } else walk(field);
      }
    }
  };
  for (const name of ["x-business-use-case-usage", "x-app-usage", "x-page-usage"]) {
    const raw = headers.get(name);
    if (!raw) continue;
    try {
      walk(JSON.parse(raw));
    } catch {
      // An unreadable header says nothing; the default wait applies.
    }
  }
  if (minutes > 0) return Math.ceil(minutes * 60);
  const retryAfter = Number(headers.get("retry-after") ?? Number.NaN);
  return Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
}

/**
 * Meta's reading of a failed answer (or of an error sent with a 2xx): throttling and quotas are
 * `rate_limited`, an invalid or expired token `auth`, a blocked or duplicate post `permanent`, what
 * Meta marks transient `transient`. Anything else falls through to the common classification.
 */
export function metaFailure(what: string, response: Response, body: unknown, quote = true) {
  const error = metaError(body);
  if (!error) return undefined;
  const quoted = quote ? platformMessage(body) : undefined;
  const message = `${what}: HTTP ${response.status}${quoted ? `: ${quoted}` : ""}`;
  const code = error.code ?? Number.NaN;
  if (AUTH_CODES.has(code)) {
    const expired = code === 463 || error.error_subcode === 463;
    // 458: the user removed the app; 460: they changed their password. Final, whatever the token's age.
    const revoked = error.error_subcode === 458 || error.error_subcode === 460;
    const kind = revoked ? "token_revoked" : expired ? "token_expired" : "token_invalid";
    return new PlatformError(message, { kind: "auth", code: kind });
  }
  if (code === 4 && error.error_subcode === RESTRICTED_SUBCODE)
    return new PlatformError(message, { kind: "permanent", code: "restricted" });
  if (error.error_subcode === PUBLISHING_LIMIT_SUBCODE) {
    return new PlatformError(message, {
      kind: "rate_limited",
      code: "publishing_limit",
      retryAfterSeconds: usageRetryAfter(response.headers) ?? PUBLISHING_LIMIT_SECONDS,
    });
  }
  if (THROTTLE_CODES.has(code) || isBusinessThrottle(code)) {
    return new PlatformError(message, {
      kind: "rate_limited",
      code: "rate_limited",
      retryAfterSeconds: usageRetryAfter(response.headers) ?? META_THROTTLE_SECONDS,
    });
  }
  if (code === 368) return new PlatformError(message, { kind: "permanent", code: "policy_blocked" });
  if (code === 506) return new PlatformError(message, { kind: "permanent", code: "duplicate_post" });
  if (code === 10 || (code >= 200 && code <= 299))
    return new PlatformError(message, { kind: "permanent", code: "permission_denied" });
  if (error.is_transient === true || TRANSIENT_CODES.has(code))
    return new PlatformError(message, { kind: "transient", code: "platform_error" });
  // An error object in a 2xx answer is still a refusal.
  if (response.ok) return new PlatformError(message, { kind: "permanent", code: "content_rejected" });
  return undefined;
}

/** The code and subcode of "Object with ID … does not exist" (Graph API › Handling Errors: 100/33). */
const GONE = { code: 100, subcode: 33 };

/**
 * A DELETE's options: an object already gone is `not_found` (the caller decides whether that is done),
 * the rest read as every call's.
 */
export const metaDeleteCall = (what: string): CallOptions => ({
  quoteErrors: true,
  classify(response, body) {
    const error = metaError(body);
    if (error?.code === GONE.code && error.error_subcode === GONE.subcode)
      return new PlatformError(`${what}: the object no longer exists`, {
        kind: "permanent",
        code: "not_found",
      });
    return metaFailure(what, response, body);
  },
});

/** The calls' options: Meta's classification, quoting the platform's message (or not, for OAuth steps). */
export const metaCall = (what: string, quote = true): CallOptions => ({
  quoteErrors: quote,
  classify: (response, body) => metaFailure(what, response, body, quote),
});

/** appsecret_proof: HMAC-SHA256 of the access token keyed with the app secret, hex. */
export const appSecretProof = async (secret: string, token: string) =>
  hmacSha256Hex(await hmacKey(secret), token);

export type GraphParams = Record<string, string | number | boolean | object | null | undefined>;

/** A form body; arrays and objects go JSON-encoded, as the Graph API reads them (attached_media…). */
export function graphForm(params: GraphParams): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    form.set(name, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  return form;
}

/** The answer in the expected shape; else unknown after a POST (it was accepted), transient after a GET. */
export const shaped = <T>(schema: z.ZodType<T>, body: unknown, what: string, method: "GET" | "POST"): T =>
  expectShape(schema, body, what, method === "POST");

export type Graph = {
  get<T>(what: string, path: string, query: Record<string, string>, schema: z.ZodType<T>): Promise<T>;
  post<T>(what: string, path: string, params: GraphParams, schema: z.ZodType<T>): Promise<T>;
  /** DELETE of a node; an object already gone rejects with code `not_found` (metaDeleteCall). */
  delete(what: string, path: string): Promise<void>;
};

/**
 * A Graph API client acting with one token: sent as `Authorization: Bearer`, never in a URL; with
 * `appSecret`, every call also carries its appsecret_proof (Facebook's "Require App Secret").
 */
export function graphClient(options: {
  fetch: Fetch;
  label: string;
  base: string;
  token: string;
  appSecret?: string;
}): Graph {
  const { fetch, label, base, token, appSecret } = options;
  const proof = appSecret ? appSecretProof(appSecret, token) : undefined;
  const url = async (path: string, query: Record<string, string> = {}) => {
    const params = new URLSearchParams(query);
    if (proof) params.set("appsecret_proof", await proof);
    const search = params.toString();
    return `${base}/${path}${search ? `?${search}` : ""}`;
  };
  const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
  return {
    async get(what, path, query, schema) {
      const name = `${label} ${what}`;
      const answer = await platformCall(
        fetch,
        name,
        await url(path, query),
        { method: "GET", headers },
        metaCall(name),
      );
      return shaped(schema, answer.body, name, "GET");
    },
    async post(what, path, params, schema) {
      const name = `${label} ${what}`;
      const answer = await platformCall(
        fetch,
        name,
        await url(path),
        {
          method: "POST",
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
          body: graphForm(params),
        },
        metaCall(name),
      );
      return shaped(schema, answer.body, name, "POST");
    },
    async delete(what, path) {
      const name = `${label} ${what}`;
      await platformCall(fetch, name, await url(path), { method: "DELETE", headers }, metaDeleteCall(name));
    },
  };
}

/**
 * Deletes through `remove`; an object already gone counts as deleted (a retry after a lost answer, or
 * someone else deleted it first).
 */
export async function deleteUnlessGone(remove: () => Promise<void>): Promise<void> {
  try {
    await remove();
  } catch (error) {
    if (error instanceof PlatformError && error.code === "not_found") return;
    throw error;
  }
}

/** Meta's `{success: true}` of a node's update or deletion. */
export const success = z.object({ success: z.boolean().optional() });

/** A path segment for an id the platform gave us (ids are digits and underscores; encode anyway). */
export const node = (id: string, edge?: string) => `${encodeURIComponent(id)}${edge ? `/${edge}` : ""}`;

/** At most this many pages of one edge are read, whatever the platform says of the next. */
export const MAX_PAGES = 10;

/** Up to `max` items of a cursor-paged edge, page after page while the answer names a next page. */
export async function collectPages<T>(
  page: (after: string | undefined) => Promise<{ data: T[]; after?: string; more: boolean }>,
  max: number,
): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < MAX_PAGES && items.length < max; pages++) {
    const answer = await page(after);
    items.push(...answer.data);
    if (!answer.more || !answer.after || answer.data.length === 0) break;
    after = answer.after;
  }
  return items.slice(0, max);
}

/**
 * Runs the steps that follow the call that made the post public (its thread's comments): a failure
 * there leaves a post on the platform, so it is an unknown outcome, reconciled with `find` before any
 * retry, never a plain error that would publish the post a second time.
 */
export async function afterCreation<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof PlatformError) || error.kind === "unknown_outcome") throw error;
    throw new PlatformError(`${error.message} (the post itself was published)`, {
      kind: "unknown_outcome",
      code: error.code,
    });
  }
}

/** PostMetrics from the counts a platform has; the others are 0. */
export function postMetrics(counts: Partial<Omit<PostMetrics, "engagement_rate">>): PostMetrics {
  const metric = (value: number | undefined) =>
    value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
  const m = {
    comments: metric(counts.comments),
    likes: metric(counts.likes),
    shares: metric(counts.shares),
    impressions: metric(counts.impressions),
    quotes: metric(counts.quotes),
    saves: metric(counts.saves),
  };
  return withEngagement(m);
}

/** The same text, as platforms trim what they keep. */
export const sameText = (a: string | undefined, b: string) => (a ?? "").trim() === b.trim();

/** The account's token, or an `auth` failure: a real platform cannot be called without one. */
export const tokenOf = (label: string, accessToken: string | null) => accessTokenOf(label, { accessToken });

/** A Graph API time ("2019-04-05T07:56:32+0000", an offset without colon) as a Date; epoch if unreadable. */
export function graphTime(value: string | undefined): Date {
  const at = value ? Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2")) : Number.NaN;
  return new Date(Number.isNaN(at) ? 0 : at);
}
