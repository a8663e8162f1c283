// Builds a PlatformAdapter from a platform's definition (or a bare PlatformSpec): the OAuth plumbing every
// platform shares, written once. What differs (the sandbox's own endpoints and publishing, a test's
// pacing) comes in through the definition itself, never through a flag here.
import { toBase64Url, utf8 } from "../lib/encoding";
import { type CallOptions, callPlatform, DEFAULT_TIMEOUTS } from "./call";
import { type Hosts, type PlatformDefinition, rebase } from "./define";
import { child, text } from "./json";
import {
  type Credentials,
  type Endpoints,
  type Fetch,
  type Identity,
  type PlatformAdapter,
  PlatformError,
  type PlatformSpec,
  type PlatformToken,
  type PublishingContext,
  type Timeouts,
} from "./types";

export type { Publishing } from "./types";

export type AdapterContext = {
  credentials: Credentials;
  fetch: Fetch;
  /**
   * The base URL of each of the platform's hosts (default: the real ones it declares). Every call the
   * adapter makes, OAuth and publishing, is built from them.
   */
  hosts?: Hosts;
  now?: () => number;
  /** Waits between status polls (default: a real timer; tests move a fake clock instead). */
  sleep?: (ms: number) => Promise<void>;
  /** Per-request timeouts (default DEFAULT_TIMEOUTS). */
  timeouts?: Partial<Timeouts>;
};

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What createAdapter builds from: a spec, with the hosts and the authorize step a definition adds. */
export type AdapterSource = PlatformSpec &
  Partial<Pick<PlatformDefinition, "hosts" | "authorize" | "check" | "settings">>;

/** PKCE S256: base64url(SHA-256(verifier)), no padding (RFC 7636). */
export async function pkceChallenge(verifier: string): Promise<string> {
  return toBase64Url(await crypto.subtle.digest("SHA-256", utf8(verifier)));
}

export { child, text } from "./json";

/** The OAuth steps log their failures: they name the step and the status, never the platform's text. */
const OAUTH_CALL: CallOptions = { quoteErrors: false };

export function createAdapter(spec: AdapterSource, context: AdapterContext): PlatformAdapter {
  const { credentials } = context;
  const real = spec.hosts ?? {};
  const hosts = { ...real, ...context.hosts };
  // Every URL on a declared host goes to the context's base for it (the same URL when none is given).
  const fetcher: Fetch = (input, init) =>
    context.fetch(
      typeof input === "string" || input instanceof URL ? rebase(String(input), real, hosts) : input,
      init,
    );
  const endpoints: Endpoints = {
    authorize: rebase(spec.endpoints.authorize, real, hosts),
    token: rebase(spec.endpoints.token, real, hosts),
    identity: rebase(spec.endpoints.identity, real, hosts),
  };
  const platformContext: PublishingContext = {
    fetch: fetcher,
    credentials,
    now: context.now ?? (() => Date.now()),
    hosts,
    sleep: context.sleep ?? realSleep,
    timeouts: { ...DEFAULT_TIMEOUTS, ...context.timeouts },
  };
  const publishing = spec.publishing(platformContext);

  /** A POST to the token endpoint with the client credentials, answered with the platform's token. */
  async function tokenCall(what: string, params: URLSearchParams, grant: string): Promise<PlatformToken> {
    const headers: Record<string, string> = {
      accept: "application/json",
      "content-type": "application/x-www-form-urlencoded",
    };
    if (spec.tokenAuth === "basic") {
      headers.authorization = `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`;
    } else {
      params.set(spec.clientIdParam, credentials.clientId);
      params.set("client_secret", credentials.clientSecret);
    }
    const body = await callPlatform(
      fetcher,
      what,
      endpoints.token,
      { method: "POST", headers, body: params },
      OAUTH_CALL,
    );
    // Some platforms answer 200 with an OAuth error body.
    if (text(body, "error")) {
      throw new PlatformError(`${what}: the platform refused the ${grant}`, {
        kind: "permanent",
        code: "invalid_grant",
      });
    }
    const token = spec.parseToken(body);
    if (!token)
      throw new PlatformError(`${what}: the answer has no access token`, { code: "invalid_response" });
    return token;
  }

  return {
    platform: spec.platform,
    pkce: spec.pkce,

    authorizeUrl(request) {
      if (spec.authorize) return spec.authorize(request, platformContext);
      const { redirectUri, state, codeChallenge, purpose = "delegation" } = request;
      const url = new URL(endpoints.authorize);
      const params = url.searchParams;
      const connect = purpose === "connect";
      params.set(spec.clientIdParam, credentials.clientId);
      params.set("redirect_uri", redirectUri);
      params.set("response_type", "code");
      params.set("scope", (connect ? spec.connect.scopes : spec.scopes).join(spec.scopeSeparator));
      params.set("state", state);
      const extras = connect ? spec.connect.authorizeExtras : spec.authorizeExtras;
      for (const [name, value] of Object.entries(extras ?? {})) params.set(name, value);
      if (spec.pkce) {
        if (!codeChallenge) throw new Error(`${spec.label} needs a PKCE code challenge`);
        params.set("code_challenge", codeChallenge);
        params.set("code_challenge_method", "S256");
      }
      return url.toString();
    },

    async exchangeCode({ code, redirectUri, codeVerifier, purpose }) {
      // Always a POST form body: a code and a client secret never travel in a URL, where logs keep them.
      const params = new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
      });
      if (spec.pkce && codeVerifier) params.set("code_verifier", codeVerifier);
      for (const [name, value] of Object.entries(spec.exchangeExtras ?? {})) params.set(name, value);
      const token = await tokenCall(`${spec.label} token exchange`, params, "code");
      return purpose === "connect" && spec.connectToken ? spec.connectToken(token, platformContext) : token;
    },

    refreshToken(refreshToken) {
      if (spec.refresh) return spec.refresh(refreshToken, platformContext);
      const params = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken });
      return tokenCall(`${spec.label} token refresh`, params, "refresh token");
    },

    async identity(token: PlatformToken) {
      const what = `${spec.label} identity`;
      const request = await spec.identityRequest(endpoints.identity, token, credentials);
      const body = await callPlatform(
        fetcher,
        what,
        request.url,
        { method: "GET", headers: { accept: "application/json", ...request.headers } },
        OAUTH_CALL,
      );
      const identity = spec.parseIdentity(body, token);
      if (!identity)
        throw new PlatformError(`${what}: the answer has no user id`, { code: "invalid_response" });
      // A lone surrogate would not survive URL encoding, and the signature covers the value as sent.
      const result: Identity = { platform_id: identity.platform_id, handle: identity.handle.toWellFormed() };
      if (identity.name) result.name = identity.name.toWellFormed().slice(0, 200);
      if (identity.avatar && /^https:\/\//.test(identity.avatar) && identity.avatar.length <= 2048)
        result.avatar = identity.avatar;
      if (identity.verified !== undefined) result.verified = identity.verified;
      return result;
    },

    isDenial: (error) => spec.denialErrors.includes(error),
    async publish(account, draft) {
      // The platform's one check (the dry run's) refuses a draft before any call: a rule lives in one place.
      // On the settings as the schema completes them; settings it refuses are the adapter's own refusal.
      const parsed = spec.settings?.safeParse(draft.settings);
      const problem = (parsed?.success ? spec.check : undefined)?.({
        items: draft.items.map(({ text, media }) => ({
          text,
          media: media.map(({ mime, kind, size }) => ({ mime, kind, size })),
        })),
        settings: parsed?.data as Record<string, unknown>,
      })[0];
      if (problem)
        throw new PlatformError(`${spec.label}: ${problem.message}`, {
          kind: "permanent",
          code: problem.code ?? "unsupported_content",
        });
      return publishing.publish(account, draft);
    },
    find: (account, lookup) => publishing.find(account, lookup),
    resolve: async (account, postId, publishedAt) =>
      publishing.resolve ? publishing.resolve(account, postId, publishedAt) : null,
    insights: (account, postId) => publishing.insights(account, postId),
    ...(publishing.comments && { comments: publishing.comments }),
    ...(publishing.reply && { reply: publishing.reply }),
    ...(publishing.replyToComment && { replyToComment: publishing.replyToComment }),
    ...(publishing.hideComment && { hideComment: publishing.hideComment }),
    ...(publishing.deleteComment && { deleteComment: publishing.deleteComment }),
    async revoke(account) {
      if (!publishing.revoke) return false;
      await publishing.revoke(account);
      return true;
    },
    channels: async (token, identity) => (publishing.channels ? publishing.channels(token, identity) : null),
  };
}

/** The token as an `Authorization: Bearer` header: never in the URL, where logs and caches keep it. */
export const bearer = (token: PlatformToken) => ({ authorization: `Bearer ${token.accessToken}` });

/** identityRequest: a GET with the token as a Bearer header, plus an optional fixed query. */
export const bearerGet =
  (query = "") =>
  async (endpoint: string, token: PlatformToken) => ({ url: `${endpoint}${query}`, headers: bearer(token) });

/** parseIdentity for a flat user object: its id (else the token's user id) and its handle. */
export const flatIdentity =
  (idKey: string, handleKey: string) =>
  (body: unknown, token: PlatformToken): Identity | null => {
    const id = text(body, idKey) ?? token.userId;
    return id ? { platform_id: id, handle: text(body, handleKey) ?? "" } : null;
  };

/**
 * The common token answer: `access_token` (and optionally a user id under `userIdKey`), with
 * `refresh_token` and `expires_in` (seconds) where the answer has them.
 */
export function accessToken(body: unknown, userIdKey?: string): PlatformToken | null {
  const token = text(body, "access_token");
  if (!token) return null;
  const result: PlatformToken = { accessToken: token };
  const userId = userIdKey ? text(body, userIdKey) : undefined;
  if (userId) result.userId = userId;
  const refreshToken = child(body, "refresh_token");
  if (typeof refreshToken === "string" && refreshToken !== "") result.refreshToken = refreshToken;
  const expiresIn = Number(child(body, "expires_in"));
  if (Number.isFinite(expiresIn) && expiresIn > 0) result.expiresIn = Math.floor(expiresIn);
  return result;
}
