// Pinterest API v5 calls, in one place, through the shared platform client (../client.ts): every URL
// built from Pinterest's hosts (HOSTS; the context may point them elsewhere), the Bearer header and the
// reading of answers with zod. Failures are classified by the common rules (401 auth, other 4xx permanent
// with Pinterest's `message`, 5xx transient), except a 429: x-ratelimit-reset counts the seconds until
// the window resets (rateLimited below; a Retry-After, should one come, still wins).
// developers.pinterest.com › API reference v5; Rate limits.
import type { z } from "zod";
import { accessTokenOf, expectShape } from "../answers";
import { type CallOptions, DEFAULT_RETRY_AFTER_SECONDS, retryAfterSeconds, statusFailure } from "../call";
import { platformClient } from "../client";
import { rebase } from "../define";
import { PlatformError, type PublishingContext } from "../types";

export { permanent } from "../answers";
export { expectShape };

/** The platform's name in messages. */
export const LABEL = "Pinterest";

export const tokenOf = (account: { accessToken: string | null }) => accessTokenOf(LABEL, account);

/**
 * Pinterest's hosts: the API (v5 under /v5), the site (consent, Pin pages) and the storage a video's
 * bytes are posted to (the `upload_url` the media registration answers).
 */
export const HOSTS = {
  api: "https://api.pinterest.com",
  web: "https://www.pinterest.com",
  upload: "https://pinterest-media-upload.s3-accelerate.amazonaws.com",
} as const;

/**
 * A 429 read Pinterest's way: `x-ratelimit-reset` is the seconds left in the window (an epoch time, should
 * one come, is read as one); a Retry-After, should one come, wins.
 */
export const rateLimited =
  (what: string) =>
  (response: Response, body: unknown): PlatformError | undefined => {
    if (response.status !== 429) return undefined;
    const retryAfter = response.headers.get("retry-after");
    const reset = Number(response.headers.get("x-ratelimit-reset") ?? Number.NaN);
    const seconds =
      retryAfter !== null
        ? retryAfterSeconds(retryAfter)
        : !Number.isFinite(reset) || reset < 0
          ? DEFAULT_RETRY_AFTER_SECONDS
          : reset > 1e9
            ? Math.max(0, Math.ceil(reset - Date.now() / 1000))
            : Math.ceil(reset);
    const failure = statusFailure(what, response, JSON.stringify(body ?? null));
    return new PlatformError(failure.message, {
      kind: "rate_limited",
      code: "rate_limited",
      retryAfterSeconds: seconds,
    });
  };

/**
 * The API Sandbox, where a Trial-access app creates its Pins (PINTEREST_API_BASE points the `api` host
 * there). Its OpenAPI marks media uploads and Pin analytics `x-sandbox: disabled`, and the Sandbox page
 * lists neither: a video Pin cannot be made and no analytics can be read there.
 * developers.pinterest.com › Developer tools › Sandbox.
 */
export const SANDBOX_API_HOST = "api-sandbox.pinterest.com";

/** Whether an `api` base is the API Sandbox (trial access). */
export const isSandboxHost = (base: string) =>
  URL.canParse(base) && new URL(base).hostname === SANDBOX_API_HOST;

/** Pinterest's error code for a Trial-access app creating a Pin on the production host. */
export const TRIAL_ACCESS_CODE = 29;

/**
 * Code 29: the app has Trial access, which creates Pins only on the API Sandbox. Nothing a retry fixes:
 * the operator points PINTEREST_API_BASE at https://api-sandbox.pinterest.com (or gets Standard access).
 */
export const trialAccess =
  (what: string) =>
  (_response: Response, body: unknown): PlatformError | undefined => {
    const code = body && typeof body === "object" ? (body as { code?: unknown }).code : undefined;
    if (code !== TRIAL_ACCESS_CODE) return undefined;
    const said = (body as { message?: unknown }).message;
    return new PlatformError(
      `${what} was refused with Pinterest's error code 29: this app has Trial access, which may create Pins only on the API Sandbox. Set PINTEREST_API_BASE=https://api-sandbox.pinterest.com (Pins there are visible to their creator only), or get Standard access.${typeof said === "string" ? ` Pinterest said: ${said}` : ""}`,
      { kind: "permanent", code: "pinterest_trial_access" },
    );
  };

/** Pinterest's reading of a failed answer: its 429, then code 29; else the common rules. */
export const classify =
  (what: string) =>
  (response: Response, body: unknown): PlatformError | undefined =>
    rateLimited(what)(response, body) ?? trialAccess(what)(response, body);

/** The options of a Pinterest API call. */
const callOptions = (what: string): CallOptions => ({ classify: classify(what) });

/** A Pin's page on the site (the `web` host, where the context points it). */
export const pinUrl = (pinId: string, web: string = HOSTS.web) => `${web}/pin/${encodeURIComponent(pinId)}/`;

export type PinterestApi = ReturnType<typeof pinterestApi>;

/** GETs and JSON POSTs against api.pinterest.com/v5 with the account's token. */
export function pinterestApi(context: PublishingContext) {
  const client = platformClient(context, HOSTS);
  const headers = (token: string) => ({ authorization: `Bearer ${token}`, accept: "application/json" });
  return {
    context,
    /** Trial access: the API Sandbox, without video uploads or analytics. */
    onSandbox: isSandboxHost(client.hosts.api ?? HOSTS.api),
    async get<T>(
      what: string,
      path: string,
      query: Record<string, string>,
      token: string,
      schema: z.ZodType<T>,
    ): Promise<T> {
      const label = `${LABEL} ${what}`;
      const url = client.url("api", `/v5/${path}`, query);
      return client.json(label, url, { method: "GET", headers: headers(token) }, schema, callOptions(label));
    },
    async post<T>(
      what: string,
      path: string,
      token: string,
      payload: unknown,
      schema: z.ZodType<T>,
    ): Promise<T> {
      const label = `${LABEL} ${what}`;
      const init = {
        method: "POST",
        headers: { ...headers(token), "content-type": "application/json" },
        body: JSON.stringify(payload),
      };
      return client.json(label, client.url("api", `/v5/${path}`), init, schema, callOptions(label));
    },
    /** The Pin's page, on the `web` host the context points at. */
    pinUrl: (pinId: string) => pinUrl(pinId, client.hosts.web),
    /** A URL Pinterest handed out (the upload_url), moved where the context points its host. */
    at: (url: string) => rebase(url, HOSTS, client.hosts),
  };
}

/** PostMetrics from the platform's counts (the shared formula, ../metrics.ts). */
export { withEngagement } from "../metrics";
