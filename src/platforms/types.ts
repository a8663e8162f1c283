// The one interface every platform adapter implements, and the declarative spec each platform module
// fills in. Delegation uses the OAuth half; publishing uses publish/insights.
import type { Platform } from "../db/enums";

export type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** Who connected: the platform's permanent user id and the display handle. */
export type Identity = { platform_id: string; handle: string };

/** What a code exchange yields. Only held in memory for the identity call, then dropped. */
export type PlatformToken = { accessToken: string; userId?: string };

export type Credentials = { clientId: string; clientSecret: string };

export type Endpoints = { authorize: string; token: string; identity: string };

export type AuthorizeRequest = { redirectUri: string; state: string; codeChallenge?: string };
export type ExchangeRequest = { code: string; redirectUri: string; codeVerifier?: string };

export type PostDraft = { text: string; media?: { url: string; type: string }[] };
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

export interface PlatformAdapter {
  readonly platform: Platform;
  /** Whether the authorize URL carries a PKCE (S256) challenge, so the exchange needs the verifier. */
  readonly pkce: boolean;
  authorizeUrl(request: AuthorizeRequest): string;
  exchangeCode(request: ExchangeRequest): Promise<PlatformToken>;
  identity(token: PlatformToken): Promise<Identity>;
  /** Whether an `error` the platform sent back to the redirect URI means the user declined. */
  isDenial(error: string): boolean;
  publish(accessToken: string, post: PostDraft): Promise<PublishedPost>;
  insights(accessToken: string, postId: string): Promise<PostMetrics>;
}

/** The platform did not complete a call (HTTP error, bad answer, timeout). Never carries tokens. */
export class PlatformError extends Error {
  override readonly name = "PlatformError";
}

/** A capability the adapter declares but does not implement yet (publishing to real platforms). */
export class NotImplementedError extends Error {
  override readonly name = "NotImplementedError";
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
   * Where the client credentials go on the code exchange: the form body, an HTTP Basic header, or the
   * query of a GET (Facebook's Graph API).
   */
  tokenAuth: "body" | "basic" | "query";
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
