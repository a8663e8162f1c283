// The one interface every platform adapter implements, and the declarative spec each platform module
// fills in. Delegation uses the OAuth half; publishing and analytics use the publishing half.
import type { Platform } from "../db/enums";

export type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** Who connected: the platform's permanent user id and the display handle. */
export type Identity = { platform_id: string; handle: string };

/**
 * What a code exchange yields. A delegation holds it in memory for the identity call, then drops it; a
 * connect stores it, encrypted, on the account. `refreshToken` and `expiresIn` (seconds) where the
 * platform's token answer carries them.
 */
export type PlatformToken = {
  accessToken: string;
  userId?: string;
  refreshToken?: string;
  expiresIn?: number;
};

export type Credentials = { clientId: string; clientSecret: string };

export type Endpoints = { authorize: string; token: string; identity: string };

export type AuthorizeRequest = { redirectUri: string; state: string; codeChallenge?: string };
export type ExchangeRequest = { code: string; redirectUri: string; codeVerifier?: string };

/** The account a publishing call acts for: its handle, the platform's user id, its access token. */
export type AccountAuth = {
  handle: string;
  platformUserId: string | null;
  /** Decrypted; null for an account connected without tokens (the sandbox mints its own). */
  accessToken: string | null;
};

export type DraftMedia = { url: string; mime: string; kind: "image" | "video"; size: number; name: string };

/** One item of a thread: the first is the post, each next one a reply to the one before. */
export type DraftItem = { text: string; media: DraftMedia[] };

export type PublishDraft = {
  items: DraftItem[];
  /** The row's validated per-platform settings (src/posts/settings.ts). */
  settings: Record<string, unknown>;
  /**
   * A token the service controls and the platform keeps with the post (a tag, a client reference, a
   * hidden marker), so `find` can tell whether an attempt whose answer was lost was accepted.
   */
  fingerprint: string;
};

export type PublishedPost = { id: string; url: string };

export type PostMetrics = {
  comments: number;
  likes: number;
  shares: number;
  impressions: number;
  quotes: number;
  saves: number;
  engagement_rate: number;
};

export type PlatformComment = {
  /** The platform's comment id: comments are stored once per (post, platform, id). */
  id: string;
  content: string;
  author_name: string;
  created_at: Date;
  contact: { name: string; username: string; profile_url: string | null } | null;
};

export interface PlatformAdapter {
  readonly platform: Platform;
  /** Whether the authorize URL carries a PKCE (S256) challenge, so the exchange needs the verifier. */
  readonly pkce: boolean;
  authorizeUrl(request: AuthorizeRequest): string;
  exchangeCode(request: ExchangeRequest): Promise<PlatformToken>;
  identity(token: PlatformToken): Promise<Identity>;
  /**
   * The platform's `grant_type=refresh_token` call: a new access token (and, where the platform rotates
   * them, a new refresh token). A refused refresh token is a permanent `invalid_grant` PlatformError.
   */
  refreshToken(refreshToken: string): Promise<PlatformToken>;
  /** Whether an `error` the platform sent back to the redirect URI means the user declined. */
  isDenial(error: string): boolean;

  /** Publishes a post (a thread when it has several items) on the account. */
  publish(account: AccountAuth, draft: PublishDraft): Promise<PublishedPost>;
  /** The post an earlier attempt published with this fingerprint, if the platform has it. */
  find(account: AccountAuth, fingerprint: string): Promise<PublishedPost | null>;
  insights(account: AccountAuth, platformPostId: string): Promise<PostMetrics>;
  comments(account: AccountAuth, platformPostId: string): Promise<PlatformComment[]>;
  /** A reply to a published post (auto-plug); `fingerprint` makes it reconcilable like a publish. */
  reply(
    account: AccountAuth,
    platformPostId: string,
    text: string,
    fingerprint: string,
  ): Promise<PublishedPost>;
}

/**
 * How a failed call should be handled:
 * - `permanent`: the platform refused the content or the request (4xx); retrying cannot help;
 * - `transient`: 5xx, network faults; retry with backoff;
 * - `rate_limited`: 429 or a quota; retry after `retryAfterSeconds`;
 * - `auth`: the token is expired or revoked; refresh or reconnect;
 * - `unknown_outcome`: the request may have been accepted (timeout, connection lost after sending):
 *   reconcile with `find` before any retry.
 */
export type FailureKind = "permanent" | "transient" | "rate_limited" | "auth" | "unknown_outcome";

/** The platform did not complete a call. Never carries tokens. */
export class PlatformError extends Error {
  override readonly name = "PlatformError";
  readonly kind: FailureKind;
  /** A short machine code (`content_rejected`, `server_error`, `timeout`, …) shown in a row's `error`. */
  readonly code: string;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    message: string,
    options: { kind?: FailureKind; code?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.kind = options.kind ?? "transient";
    this.code = options.code ?? "platform_error";
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A capability the adapter declares but does not implement yet (publishing to real platforms). */
export class NotImplementedError extends PlatformError {
  constructor(message: string) {
    super(message, { kind: "permanent", code: "not_implemented" });
  }
}

/**
 * Everything that differs between platforms, as data plus small parsers. `createAdapter` turns a spec
 * into a PlatformAdapter. (How the sandbox imitates each platform is the sandbox's own business:
 * sandbox/shapes.ts.)
 */
export type PlatformSpec = {
  platform: Platform;
  /** Human name used in messages. */
  label: string;
  /** The platform's real endpoints (the sandbox swaps in its own). */
  endpoints: Endpoints;
  scopes: readonly string[];
  scopeSeparator: " " | ",";
  pkce: boolean;
  /** Name of the client id parameter in the authorize URL (and token body when credentials go there). */
  clientIdParam: "client_id" | "client_key";
  /**
   * Where the client credentials go on the code exchange (always a POST form): the body, or an HTTP
   * Basic header.
   */
  tokenAuth: "body" | "basic";
  /** Extra fixed authorize parameters. */
  authorizeExtras?: Record<string, string>;
  /** `error` values the platform redirects with when the user declines. */
  denialErrors: readonly string[];
  parseToken(body: unknown): PlatformToken | null;
  identityRequest(
    endpoint: string,
    token: PlatformToken,
    credentials: Credentials,
  ): Promise<{ url: string; headers?: Record<string, string> }>;
  parseIdentity(body: unknown, token: PlatformToken): Identity | null;
};
