// What the registry holds for a platform: one definition, written in the platform's folder
// (src/platforms/<platform>/index.ts) with `definePlatform`, that owns every fact about it: its OAuth
// (the spec's endpoints, scopes, token parsing, and optionally its own authorize URL, code exchange
// follow-up and refresh), its hosts (the base URL map every call is built from), its settings schema, its text and media rules and its one `check`, and its
// publishing half (publish, find, insights, comments, reply, revoke, channels). What it can publish and
// read is derived from these (capabilitiesOf, capabilities.ts), never declared apart.
import type { z } from "zod";
import type { Check, PlatformRules } from "./rules";
import type { AuthorizeRequest, CommentAction, CommentRef, PlatformSpec, PublishingContext } from "./types";

/**
 * The platform's base URLs by name (`api`, `upload`, `web`, …): its real hosts. Every call of the
 * platform is made against them, so a context that brings other bases (the sandbox's emulator:
 * `${origin}/sandbox/<platform>` for every host) points every call of the platform elsewhere.
 */
export type Hosts = Readonly<Record<string, string>>;

/**
 * When the cron's keep-alive (src/accounts/keep-alive.ts) refreshes an idle account's tokens ahead of
 * need, by the platform's own token rules; every duration is in seconds, as the platform documents it
 * (on the sandbox's clock under SANDBOX=true). Either:
 * - `beforeExpiry`: once the access token has less than this left (Meta's long-lived tokens, renewable
 *   only while still valid; LinkedIn's and Pinterest's access tokens of weeks);
 * - `every`: once the last refresh (or the connect, before any) is this old, whatever the access token's
 *   expiry: refresh tokens that die unused or are replaced on each use (X, TikTok, Google).
 */
export type KeepAlive = { beforeExpiry: number } | { every: number };

export type PlatformDefinition = PlatformSpec & {
  hosts: Hosts;
  /**
   * Hosts the operator may point elsewhere, by environment variable: `{ PINTEREST_API_BASE: "api" }`
   * takes the `api` host's base from PINTEREST_API_BASE when it is set (an https URL).
   */
  hostsFromEnv?: Readonly<Record<string, string>>;
  /** The request schema of `settings.<platform>` (strict, every key defaulted). */
  settings: z.ZodType;
  /** The complete settings object a row of the platform renders (every key present), for the API doc. */
  settingsShape: z.ZodType;
  /** Characters per post (each item of a thread is one post or comment there). */
  textLimit: number;
  /** The media rules its check applies (src/platforms/rules.ts). */
  media: PlatformRules;
  /** Everything the platform would refuse in a post: the dry run's answers, by field. */
  check: Check;
  /**
   * A non-standard consent URL (a platform whose authorize step needs a call first may answer
   * asynchronously); the standard OAuth 2.0 one is built from the spec when absent.
   */
  authorize?: (request: AuthorizeRequest, context: PublishingContext) => string | Promise<string>;
  /**
   * How long after publication (seconds) the platform gives insights for a row with these settings
   * (Instagram and Facebook stories: 24 h); past it the analytics sync reads nothing more and the row
   * keeps what it stored. Absent, or undefined for these settings: for as long as the post exists.
   */
  insightsLifetime?: (settings: Record<string, unknown>) => number | undefined;
  /**
   * Why the platform refuses `action` on this comment although it has the call (X deletes only the
   * account's own posts; Instagram answers top-level comments only), as a sentence the 422 carries; null
   * when it allows it. Absent: every comment call the publishing half declares works on every comment.
   */
  commentRules?: (action: CommentAction, comment: CommentRef) => string | null;
  /** Refreshing ahead of time (absent: tokens that never expire, or no refresh at all: Facebook Pages). */
  keepAlive?: KeepAlive;
  /**
   * Seconds after it is issued before the platform lets a token be refreshed (Meta: a day). A 401 on a
   * token younger than this is taken as passing (the call is retried later), never as the account's
   * expiry (src/accounts/tokens.ts). Absent: a token is refreshable (or expired) as soon as it is refused.
   */
  refreshableAfter?: number;
  /**
   * The definition as the environment configures it, where the operator chooses between app setups
   * (LinkedIn's LINKEDIN_PRODUCTS: which products, so which scopes and identity endpoint); absent: as is.
   */
  configured?: (env: unknown) => PlatformDefinition;
};

/** The definition as `env` configures it (`configured`), or the definition itself. */
export const configuredDefinition = (definition: PlatformDefinition, env: unknown): PlatformDefinition =>
  definition.configured?.(env) ?? definition;

/** A platform's definition, as the registry holds it. */
export const definePlatform = <D extends PlatformDefinition>(definition: D): D => definition;

/** The same bases for every host of the platform: how an emulator takes all of a platform's calls. */
export const everyHostAt = (hosts: Hosts, base: string): Hosts =>
  Object.fromEntries(Object.keys(hosts).map((name) => [name, base]));

/**
 * `url` moved from the real host it names to the context's base for that host; unchanged when the
 * bases are the real ones or the URL is on no declared host (an upload URL the platform handed out).
 */
export function rebase(url: string, real: Hosts, bases: Hosts): string {
  for (const [name, host] of Object.entries(real)) {
    const base = bases[name];
    if (base === undefined || base === host) continue;
    if (url === host || url.startsWith(`${host}/`) || url.startsWith(`${host}?`))
      return `${base}${url.slice(host.length)}`;
  }
  return url;
}

/**
 * The definition's hosts with those the environment points elsewhere (`hostsFromEnv`): an https URL,
 * without its trailing slash; an unset, empty or non-https value keeps the real host.
 */
export function configuredHosts(
  definition: Pick<PlatformDefinition, "hosts" | "hostsFromEnv">,
  env: unknown,
): Hosts {
  const vars = (env ?? {}) as Record<string, unknown>;
  const hosts: Record<string, string> = { ...definition.hosts };
  for (const [variable, host] of Object.entries(definition.hostsFromEnv ?? {})) {
    const value = vars[variable];
    if (typeof value !== "string" || !/^https:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(value.trim())) continue;
    hosts[host] = value.trim().replace(/\/+$/, "");
  }
  return hosts;
}
