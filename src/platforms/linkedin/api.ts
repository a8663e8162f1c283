// LinkedIn's versioned REST API (https://api.linkedin.com/rest), through the shared platform client
// (../client.ts; every URL from LinkedIn's HOSTS, which the context may point elsewhere): the version
// every call names, the Rest.li headers, URN helpers, and LinkedIn's own reading of failures on top of call.ts (a daily quota
// that resets at midnight UTC, a duplicate post, a read the app or the page role may not make).

import { accessTokenOf } from "../answers";
import { type CallOptions, type PlatformAnswer, platformMessage } from "../call";
import { platformClient } from "../client";
import { type AccountAuth, type ByteRange, PlatformError, type PublishingContext } from "../types";

export const tokenOf = (account: { accessToken: string | null }) => accessTokenOf("LinkedIn", account);

/** LinkedIn's hosts: the API (versioned REST under /rest, OpenID under /v2) and the site (OAuth, pages). */
export const HOSTS = { api: "https://api.linkedin.com", web: "https://www.linkedin.com" } as const;
/**
 * The Marketing API version sent as `LinkedIn-Version` (May 2026). LinkedIn supports each monthly version
 * for at least a year, then answers 426; move this forward before it is sunset.
 */
export const LINKEDIN_VERSION = "202605";

/** Rest.li 2.0 wants the characters of its own syntax encoded inside values (URNs in paths and lists). */
export const restli = (value: string) =>
  encodeURIComponent(value).replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A post's public page on the site host `web`: LinkedIn's feed update URL for its URN. */
export const postUrlOn = (web: string, urn: string) => `${web}/feed/update/${urn}/`;

/**
 * Who posts: the account's channel URN (`urn:li:person:…` or `urn:li:organization:…`). Accounts whose
 * platform user id is a bare OpenID `sub` (connected before channels, or by delegation) are the member.
 */
export function authorOf(account: AccountAuth): string {
  const id = account.platformUserId?.trim();
  if (!id) {
    throw new PlatformError("LinkedIn: the account has no LinkedIn member or organization id.", {
      kind: "permanent",
      code: "account_incomplete",
    });
  }
  return id.startsWith("urn:li:") ? id : `urn:li:person:${id}`;
}

export const isOrganization = (urn: string) => urn.startsWith("urn:li:organization:");

/** Seconds until the next midnight UTC, when LinkedIn's daily application and member limits reset. */
export function secondsToMidnightUtc(now: number): number {
  const day = new Date(now);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now) / 1000));
}

const inputErrorCodes = (body: unknown): string[] => {
  const details = (body as { errorDetails?: { inputErrors?: Array<{ code?: unknown }> } } | null)
    ?.errorDetails;
  return (details?.inputErrors ?? []).map((e) => (typeof e?.code === "string" ? e.code : ""));
};

/**
 * LinkedIn's rules before the common ones: a 429 without Retry-After waits for the daily reset at
 * midnight UTC; a 426 (the LinkedIn-Version sent is sunset) is a permanent `linkedin_version_outdated`
 * naming the header, for the operator to move LINKEDIN_VERSION on; a 422 DUPLICATE_POST is named as such; a 403 is `access_denied` (a permission the app
 * was not granted, or a page role that may not read this), which readers may count as "unavailable".
 */
export function classifyFor(what: string, now: () => number): CallOptions["classify"] {
  return (response, body) => {
    if (response.ok) return undefined;
    const quoted = platformMessage(body);
    const message = `${what}: HTTP ${response.status}${quoted ? `: ${quoted}` : ""}`;
    if (response.status === 429 && response.headers.get("retry-after") === null) {
      return new PlatformError(message, {
        kind: "rate_limited",
        code: "rate_limited",
        retryAfterSeconds: secondsToMidnightUtc(now()),
      });
    }
    if (response.status === 426) {
      // Not the user's doing and not something a retry fixes: the operator must move the version on.
      console.error(`LinkedIn refused LinkedIn-Version ${LINKEDIN_VERSION} (426): update LINKEDIN_VERSION`);
      return new PlatformError(
        `${message}. LinkedIn no longer serves the LinkedIn-Version this service sends (${LINKEDIN_VERSION}); the service must be updated to a current version (LINKEDIN_VERSION in src/platforms/linkedin/api.ts) and redeployed.`,
        { kind: "permanent", code: "linkedin_version_outdated" },
      );
    }
    if (inputErrorCodes(body).includes("DUPLICATE_POST")) {
      return new PlatformError(message, { kind: "permanent", code: "duplicate_post" });
    }
    if (response.status === 403)
      return new PlatformError(message, { kind: "permanent", code: "access_denied" });
    return undefined;
  };
}

export const isAccessDenied = (error: unknown) =>
  error instanceof PlatformError && error.code === "access_denied";

/** Before anything is published, a lost answer cannot have left a post behind: it is worth a retry. */
export function beforePublishing(error: unknown): unknown {
  if (error instanceof PlatformError && error.kind === "unknown_outcome") {
    return new PlatformError(error.message, { kind: "transient", code: error.code });
  }
  return error;
}

const isLinkedInHost = (url: string) => {
  const host = URL.canParse(url) ? new URL(url).hostname : "";
  return host === "linkedin.com" || host.endsWith(".linkedin.com");
};

/** The calls a publishing half makes, each with LinkedIn's headers and failure rules. */
export function linkedinApi(context: PublishingContext) {
  const client = platformClient(context, HOSTS);
  const headers = (token: string, json: boolean): Record<string, string> => ({
    authorization: `Bearer ${token}`,
    "linkedin-version": LINKEDIN_VERSION,
    "x-restli-protocol-version": "2.0.0",
    accept: "application/json",
    ...(json ? { "content-type": "application/json" } : {}),
  });
  const call = (what: string, url: string, init: RequestInit, timeoutMs?: number): Promise<PlatformAnswer> =>
    client.call(`LinkedIn ${what}`, url, init, {
      classify: classifyFor(`LinkedIn ${what}`, context.now),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });

  return {
    /** The context's clock and its wait between status polls (tests move a fake clock). */
    now: () => context.now(),
    sleep: (ms: number) => context.sleep(ms),
    /** The versioned REST API's base on the context's API host: `${api.rest}/posts`. */
    rest: client.url("api", "/rest"),
    /** OAuth 2.0 token revocation, on the site host. */
    revokeUrl: client.url("web", "/oauth/v2/revoke"),
    /** A post's public page (on the context's site host). */
    postUrl: (urn: string) => postUrlOn(client.url("web", ""), urn),
    /** A comment's page: the post's page, scrolled to the comment. */
    commentUrl: (postUrn: string, commentUrn: string) =>
      `${postUrlOn(client.url("web", ""), postUrn)}?commentUrn=${encodeURIComponent(commentUrn)}`,
    async get(what: string, url: string, token: string, extra: Record<string, string> = {}) {
      return (await call(what, url, { method: "GET", headers: { ...headers(token, false), ...extra } })).body;
    },
    /**
     * A form POST to an OAuth endpoint (client credentials in the body): LinkedIn's error text is not
     * quoted into the failure, which may be stored or shown.
     */
    async form(what: string, url: string, fields: Record<string, string>) {
      return client.call(
        `LinkedIn ${what}`,
        url,
        {
          method: "POST",
          headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields),
        },
        { quoteErrors: false },
      );
    },
    post(what: string, url: string, token: string, body: unknown) {
      return call(what, url, { method: "POST", headers: headers(token, true), body: JSON.stringify(body) });
    },
    /**
     * A DELETE; true when LinkedIn answers 404 (nothing there any more: what a delete asked for), so the
     * caller can treat a second delete as done.
     */
    async delete(what: string, url: string, token: string): Promise<boolean> {
      const label = `LinkedIn ${what}`;
      const classify = classifyFor(label, context.now);
      try {
        await client.call(
          label,
          url,
          { method: "DELETE", headers: headers(token, false) },
          {
            classify: (response, body) =>
              response.status === 404
                ? new PlatformError(`${label}: HTTP 404`, { kind: "permanent", code: "not_found" })
                : classify?.(response, body),
          },
        );
        return false;
      } catch (error) {
        if (error instanceof PlatformError && error.code === "not_found") return true;
        throw error;
      }
    },
    /**
     * PUTs `range` of a media file to an upload URL, streamed from R2 with a known length (a
     * FixedLengthStream sends Content-Length, never chunked), with the context's upload timeout: a
     * part of megabytes takes longer than an ordinary call. The token goes only to LinkedIn's hosts.
     */
    async upload(
      what: string,
      url: string,
      token: string,
      open: (range: ByteRange) => Promise<ReadableStream<Uint8Array>>,
      range: ByteRange,
    ) {
      const source = await open(range);
      const { readable, writable } = new FixedLengthStream(range.length);
      // A failed read surfaces as the request's own failure; nothing waits on the pipe itself.
      source.pipeTo(writable).catch(() => undefined);
      return call(
        what,
        url,
        {
          method: "PUT",
          headers: {
            "content-type": "application/octet-stream",
            ...(isLinkedInHost(url) ? { authorization: `Bearer ${token}` } : {}),
          },
          body: readable,
        },
        context.timeouts.upload,
      );
    },
  };
}

export type LinkedInApi = ReturnType<typeof linkedinApi>;
