// The one interface every platform adapter implements, and the declarative spec each platform module
// fills in. Delegation uses the OAuth half; publishing and analytics use the publishing half.
import type { Platform } from "../db/enums";

export type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/**
 * Who connected: the platform's permanent user id and the display handle; a connect also stores the
 * profile fields the platform's identity call returns.
 */
export type Identity = {
  platform_id: string;
  handle: string;
  name?: string;
  avatar?: string | null;
  verified?: boolean;
};

/**
 * What a connect publishes as, when the user's login is not itself the place posts go (a Facebook Page,
 * a LinkedIn organisation, one of several YouTube channels): the user picks one on a page of ours
 * (src/accounts/channels). `id` becomes the account's platform user id; `accessToken` replaces the
 * user's token where the channel has one of its own (a Page token).
 */
export type Channel = {
  id: string;
  handle: string;
  name: string;
  avatar: string | null;
  /** What it is, shown on the page: "Page", "Profile", "Organization", "Channel". */
  kind: string;
  accessToken?: string;
};

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

/**
 * `purpose`: a delegation only proves who the user is (identity scopes, no refresh token); a connect
 * publishes for them (the platform's publishing scopes and offline access).
 */
export type AuthorizeRequest = {
  redirectUri: string;
  state: string;
  codeChallenge?: string;
  purpose?: "delegation" | "connect";
};
/** `purpose: "connect"` keeps the token, so platforms with long-lived tokens swap it for one. */
export type ExchangeRequest = {
  code: string;
  redirectUri: string;
  codeVerifier?: string;
  purpose?: "delegation" | "connect";
};

/**
 * The account a publishing call acts for: its handle, the platform's user id, its access token. The token
 * is opaque to everything outside the platform's folder: a platform may keep any credential string there
 * (what its exchange and refresh return is what it is handed back).
 */
export type AccountAuth = {
  handle: string;
  platformUserId: string | null;
  /** Decrypted; null for an account connected without tokens (the sandbox mints its own). */
  accessToken: string | null;
  /** Set only for `revoke`: where the grant is the refresh token's (Google), revoking it ends the grant. */
  refreshToken?: string | null;
};

/** A byte range of a media file: `length` bytes from `offset`. */
export type ByteRange = { offset: number; length: number };

/**
 * A media item of a post. Platforms that pull from a URL get `url` (a signed, time-limited link of
 * ours); platforms that take bytes stream them from R2 with `open`, whole or a chunk at a time, never
 * holding a whole file in memory.
 */
export type DraftMedia = {
  url: string;
  mime: string;
  kind: "image" | "video";
  size: number;
  name: string;
  open(range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
};

/** One item of a thread: the first is the post, each next one a reply to the one before. */
export type DraftItem = { text: string; media: DraftMedia[] };

/**
 * What the platform handed out for this publication before its final call (an uploaded media id, a
 * container, an upload session, TikTok's publish_id), kept on the row across attempts (ARCHITECTURE
 * "Publishing"): an adapter records each as soon as it exists and, on a later attempt, resumes it (polls
 * it, publishes the same container, continues the upload) instead of starting over, and reconciles by it
 * rather than by text. Values are small JSON; keys are the adapter's own.
 */
export type Progress = {
  /** What an earlier attempt of this publication recorded under `key` (undefined: nothing). */
  get(key: string): unknown;
  /**
   * Records `value` under `key` on the row at once, before the next call (undefined forgets it). Throws
   * an `unknown_outcome` PlatformError when the attempt has lost its lease (another attempt took over).
   */
  set(key: string, value: unknown): Promise<void>;
};

export type PublishDraft = {
  items: DraftItem[];
  /** The row's validated per-platform settings (src/platforms/settings.ts). */
  settings: Record<string, unknown>;
  /**
   * A token the service controls and the platform keeps with the post (a tag, a client reference, a
   * hidden marker), so `find` can tell whether an attempt whose answer was lost was accepted.
   */
  fingerprint: string;
  /** What earlier attempts of this publication recorded (absent: nothing is kept between attempts). */
  progress?: Progress;
  /**
   * When (epoch ms) the attempt should start no new long step (an upload chunk, another status poll):
   * past it the adapter records where it is and throws `stillProcessing`, and the next attempt goes on.
   */
  deadline?: number;
};

/**
 * A post the platform has: its id and public URL. `awaiting`: the platform has accepted the post for
 * good but gives its public id only later (TikTok, after moderation): `id` is the id it gave so far,
 * `url` null, and a follow-up read (`resolve`) fills both in. `url` is null too for a post that never
 * gets a public address (a TikTok post only its creator sees).
 */
export type PublishedPost = { id: string; url: string | null; awaiting?: boolean };

/**
 * What `find` looks an earlier attempt up by: the fingerprint, the first item's text, the post it
 * replied to, and the row's settings (some replace the text the platform shows: X's `text`, TikTok's
 * `title`).
 */
export type FindLookup = {
  fingerprint: string;
  text: string;
  replyTo?: string;
  settings?: Record<string, unknown>;
  /** What earlier attempts recorded (a publish id, a container): reconcile by it before any text. */
  progress?: Progress;
};

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
  /** The platform's id of the comment this one answers (a reply in a thread), where it says. */
  parent_id?: string | null;
  /** The comment's own page on the platform, where it has one. */
  url?: string | null;
  /** Written by the connected account itself (its own replies). */
  is_own?: boolean;
  /** Hidden from the public by the account, where the platform reports it. */
  hidden?: boolean;
};

/** What the inbox asks a platform to do with a comment on one of the account's posts. */
export type CommentAction = "reply" | "hide" | "delete";

/** A stored comment as a platform's comment calls and rules need it: every id is the platform's. */
export type CommentRef = {
  /** The comment's id on the platform. */
  id: string;
  /** The id of the post it is on (the row's `platform_post_id`). */
  postId: string;
  /** The id of the comment it answers; null for a top-level comment. */
  parentId: string | null;
  /** Written by the connected account itself. */
  isOwn: boolean;
  /** Hidden from the public, as last read or set. */
  hidden: boolean;
};

/** The account's reply to a comment, as the platform created it. */
export type PublishedComment = {
  id: string;
  url: string | null;
  /**
   * The comment the platform filed the reply under (a platform that nests one level files an answer to
   * an answer under the thread's top comment); absent: the one answered.
   */
  parentId?: string;
};

export interface PlatformAdapter {
  readonly platform: Platform;
  /** Whether the authorize URL carries a PKCE (S256) challenge, so the exchange needs the verifier. */
  readonly pkce: boolean;
  /**
   * The consent URL; `purpose: "connect"` asks for the publishing scopes (and a refresh token). A
   * platform with a non-standard flow may build it asynchronously: callers await it.
   */
  authorizeUrl(request: AuthorizeRequest): string | Promise<string>;
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
  /**
   * The post an earlier attempt published, if the platform has it: by the fingerprint where the
   * platform keeps one with the post, else by its text among the account's recent posts (or, for a
   * reply, among the replies to `replyTo`).
   */
  find(account: AccountAuth, lookup: FindLookup): Promise<PublishedPost | null>;
  /**
   * The follow-up read of a post published `awaiting` its public id: the post with its public id and URL
   * once the platform gives them, null while it has not yet. Platforms that always answer with the
   * public id never return `awaiting`, and answer null here. `publishedAt` (Unix ms): when the row was
   * published, so a platform can stop waiting for an id that will never come (TikTok: a week).
   */
  resolve(account: AccountAuth, platformPostId: string, publishedAt?: number): Promise<PublishedPost | null>;
  /**
   * The post's metrics; null when the platform has none to give now (a story past its 24 h, insights
   * an app on trial access cannot read, an empty answer): the row keeps what it has stored.
   */
  insights(account: AccountAuth, platformPostId: string): Promise<PostMetrics | null>;
  /** The post's comments; absent where the platform gives none to an app. */
  comments?(account: AccountAuth, platformPostId: string): Promise<PlatformComment[]>;
  /**
   * A reply to a published post (auto-plug); `fingerprint` makes it reconcilable like a publish. Absent
   * where the platform has no replies through its API.
   */
  reply?(
    account: AccountAuth,
    platformPostId: string,
    text: string,
    fingerprint: string,
  ): Promise<PublishedPost>;
  /**
   * The account's reply under a comment on its post, through the platform's own endpoint. Absent where
   * the platform lets no app answer comments. Exactly once is the caller's: a retry whose outcome is
   * unknown looks the reply up among the post's `comments` (own, under this comment, this text).
   */
  replyToComment?(account: AccountAuth, comment: CommentRef, text: string): Promise<PublishedComment>;
  /** Hides (`hidden` true) or shows again a comment on the account's post; absent where it cannot. */
  hideComment?(account: AccountAuth, comment: CommentRef, hidden: boolean): Promise<void>;
  /** Deletes a comment on the platform; absent where no app can. A comment already gone resolves. */
  deleteComment?(account: AccountAuth, comment: CommentRef): Promise<void>;
  /** Revokes the token at the platform on disconnect; false where the platform has no revocation. */
  revoke(account: AccountAuth): Promise<boolean>;
  /** The channels to pick from after a connect's consent; null where the login is the account. */
  channels(token: PlatformToken, identity: Identity): Promise<Channel[] | null>;
}

/**
 * What a platform's publishing half is built from (src/platforms/<platform>/publish.ts): `fetch` reaches
 * the platform (every URL on one of its declared hosts is moved to `hosts`' base for it), `hosts` the
 * base URL of each of the platform's hosts (its real ones unless the registry points them elsewhere).
 */
export type PublishingContext = {
  fetch: Fetch;
  credentials: Credentials;
  now(): number;
  hosts?: Readonly<Record<string, string>>;
  /** Waits between status polls (tests pass one that moves a fake clock instead). */
  sleep(ms: number): Promise<void>;
  /** How long a call may take: `upload` for a request that sends a file's bytes, `call` for the others. */
  timeouts: Timeouts;
};

/** Per-request timeouts in ms (src/platforms/call.ts has the defaults). */
export type Timeouts = { call: number; upload: number };

/** The publishing half of an adapter. */
export type Publishing = Pick<
  PlatformAdapter,
  "publish" | "find" | "insights" | "comments" | "reply" | "replyToComment" | "hideComment" | "deleteComment"
> & {
  /** The follow-up read of a post published `awaiting` its public id; absent where there is none. */
  resolve?(account: AccountAuth, platformPostId: string, publishedAt?: number): Promise<PublishedPost | null>;
  /** Revokes the account's token on disconnect, where the platform offers it; absent where it does not. */
  revoke?(account: AccountAuth): Promise<void>;
  /**
   * The channels a connect may publish as, when the login is not the place posts go; absent on
   * platforms where the login is the account.
   */
  channels?(token: PlatformToken, identity: Identity): Promise<Channel[]>;
};

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
  /** Extra fixed parameters of the code exchange (Pinterest's `continuous_refresh=true`). */
  exchangeExtras?: Record<string, string>;
  /**
   * What a connect asks for instead: the scopes that publish, read insights and comments (and offline
   * access), and authorize parameters that replace `authorizeExtras`.
   */
  connect: { scopes: readonly string[]; authorizeExtras?: Record<string, string> };
  /**
   * A connect's token made to last, where the platform's code exchange gives a short-lived one (Meta's
   * long-lived token exchange). Platforms with no refresh token but a refreshable long-lived token set
   * `refreshToken` to the access token itself, so the account refreshes through `refresh` below.
   */
  connectToken?: (token: PlatformToken, context: PublishingContext) => Promise<PlatformToken>;
  /** Replaces the standard `grant_type=refresh_token` call (Meta's `ig_refresh_token`, `th_refresh_token`). */
  refresh?: (refreshToken: string, context: PublishingContext) => Promise<PlatformToken>;
  /** The platform's publishing half (src/platforms/<platform>/publish.ts). */
  publishing: (context: PublishingContext) => Publishing;
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
