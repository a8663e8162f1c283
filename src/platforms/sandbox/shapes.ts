// How each platform shapes what the sandbox fakes, taken from the platform's own documentation: the
// `error` it redirects with when the user declines, the format of its user ids, how long its tokens
// live and how it refreshes them, and its token and identity answers. The real platform modules parse these very shapes, so a sandbox delegation runs
// through the same parsers as a real one. Kept here so that real platforms never depend on the sandbox.
import type { Platform } from "../../db/enums";
import { toHex, utf8 } from "../../lib/encoding";
import { SPECS } from "../catalog";
import { digits, letters } from "./ids";

/** What the token endpoint issues, for the platform to shape its answer from. */
export type IssuedTokens = {
  grant: "authorization_code" | "refresh_token";
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  /** Null where the platform issues none. On a refresh: the new one, or the one presented if kept. */
  refreshToken: string | null;
  refreshExpiresIn: number | null;
};

export type SandboxShape = {
  /** The `error` the platform redirects with on a refusal (one of the spec's denialErrors). */
  denial: string;
  /** A user id in the platform's format, cut from a digest. */
  platformId(digest: Uint8Array): string;
  /** The lifetime of the access tokens a code exchange or a refresh yields, in seconds. */
  accessTtl: number;
  /**
   * Refresh tokens, where the platform issues them (Meta's platforms do not: they extend long-lived
   * tokens instead): their lifetime in seconds, and whether each use replaces the token presented.
   */
  refresh: { ttl: number; rotates: boolean } | null;
  tokenResponse(tokens: IssuedTokens, platformId: string): object;
  identityResponse(platformId: string, handle: string): object;
};

/** The scope string a platform answers with: its scopes, joined its way. */
const grantedScope = (platform: Platform) => SPECS[platform].scopes.join(SPECS[platform].scopeSeparator);

/** `refresh_token` and the extra fields naming it, where one is given. */
const refreshFields = (tokens: IssuedTokens, expiresKey?: string) =>
  tokens.refreshToken === null
    ? {}
    : {
        refresh_token: tokens.refreshToken,
        ...(expiresKey ? { [expiresKey]: tokens.refreshExpiresIn } : {}),
      };

const DAY = 86_400;

export const SANDBOX_SHAPES: Record<Platform, SandboxShape> = {
  tiktok: {
    denial: "access_denied",
    platformId(digest) {
      const hex = toHex(digest);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
    },
    accessTtl: DAY,
    // A refresh answers a new refresh token; the old one stops working.
    refresh: { ttl: 365 * DAY, rotates: true },
    tokenResponse: (tokens, id) => ({
      access_token: tokens.accessToken,
      expires_in: tokens.expiresIn,
      open_id: id,
      ...refreshFields(tokens, "refresh_expires_in"),
      scope: grantedScope("tiktok"),
      token_type: "Bearer",
    }),
    identityResponse: (id, handle) => ({
      data: { user: { open_id: id, username: handle, display_name: handle } },
      error: { code: "ok", message: "", log_id: "sandbox" },
    }),
  },
  instagram: {
    denial: "access_denied",
    platformId: (digest) => `178414${digits(digest, 11)}`,
    // The code yields a short-lived token (an hour); the answer does not say so.
    accessTtl: 3600,
    refresh: null,
    tokenResponse: (tokens, id) => ({
      data: [{ access_token: tokens.accessToken, user_id: id, permissions: "instagram_business_basic" }],
    }),
    identityResponse: (id, handle) => ({ user_id: id, username: handle, id }),
  },
  twitter: {
    denial: "access_denied",
    platformId: (digest) => digits(digest, 18),
    accessTtl: 7200,
    // X's refresh tokens are single use: each refresh answers the next one.
    refresh: { ttl: 180 * DAY, rotates: true },
    tokenResponse: (tokens) => ({
      token_type: "bearer",
      expires_in: tokens.expiresIn,
      access_token: tokens.accessToken,
      scope: grantedScope("twitter"),
      ...refreshFields(tokens),
    }),
    identityResponse: (id, handle) => ({ data: { id, name: handle, username: handle } }),
  },
  linkedin: {
    denial: "user_cancelled_authorize",
    platformId: (digest) => letters(digest, 10),
    accessTtl: 5_183_999,
    // A refresh answers the same refresh token, with what is left of its life.
    refresh: { ttl: 365 * DAY, rotates: false },
    tokenResponse: (tokens) => ({
      access_token: tokens.accessToken,
      expires_in: tokens.expiresIn,
      ...refreshFields(tokens, "refresh_token_expires_in"),
      scope: "openid,profile",
      token_type: "Bearer",
    }),
    identityResponse: (id, handle) => ({
      sub: id,
      name: handle,
      given_name: handle,
      family_name: "",
      locale: { country: "US", language: "en" },
    }),
  },
  youtube: {
    denial: "access_denied",
    platformId: (digest) => `UC${letters(digest, 22)}`,
    accessTtl: 3599,
    // Google's refresh answer carries no refresh token: the first one stays valid.
    refresh: { ttl: 180 * DAY, rotates: false },
    tokenResponse: (tokens) => ({
      access_token: tokens.accessToken,
      expires_in: tokens.expiresIn,
      ...(tokens.grant === "authorization_code" ? refreshFields(tokens) : {}),
      scope: grantedScope("youtube"),
      token_type: "Bearer",
    }),
    identityResponse: (id, handle) => ({
      kind: "youtube#channelListResponse",
      etag: "sandbox",
      pageInfo: { totalResults: 1, resultsPerPage: 5 },
      items: [
        {
          kind: "youtube#channel",
          etag: "sandbox",
          id,
          snippet: { title: handle, description: "", customUrl: `@${handle}` },
        },
      ],
    }),
  },
  facebook: {
    denial: "access_denied",
    platformId: (digest) => digits(digest, 17),
    // The code yields a short-lived user token (about an hour); connect swaps it for a long-lived one.
    accessTtl: 3600,
    refresh: null,
    tokenResponse: (tokens) => ({
      access_token: tokens.accessToken,
      token_type: "bearer",
      expires_in: tokens.expiresIn,
    }),
    identityResponse: (id, handle) => ({ id, name: handle }),
  },
  pinterest: {
    denial: "access_denied",
    platformId: (digest) => digits(digest, 18),
    accessTtl: 2_592_000,
    // Continuous refresh (every app activated since 25 September 2025, and the only kind Pinterest still
    // supports): a refresh token lives 60 days, and each refresh answers a new one with a new 60 days.
    refresh: { ttl: 60 * DAY, rotates: true },
    tokenResponse: (tokens) => ({
      access_token: tokens.accessToken,
      ...(tokens.refreshToken === null
        ? {}
        : {
            refresh_token: tokens.refreshToken,
            refresh_token_expires_in: tokens.refreshExpiresIn,
            refresh_token_expires_at: Math.floor(Date.now() / 1000) + (tokens.refreshExpiresIn ?? 0),
          }),
      response_type: tokens.grant,
      token_type: "bearer",
      expires_in: tokens.expiresIn,
      scope: grantedScope("pinterest"),
    }),
    identityResponse: (id, handle) => ({
      account_type: "PINNER",
      id,
      username: handle,
      profile_image: "",
      website_url: "",
      about: "",
      business_name: null,
      board_count: 0,
      pin_count: 0,
      follower_count: 0,
      following_count: 0,
      monthly_views: 0,
    }),
  },
  threads: {
    denial: "access_denied",
    platformId: (digest) => digits(digest, 17),
    // A short-lived token (an hour), exchanged for a long-lived one outside OAuth's refresh grant.
    accessTtl: 3600,
    refresh: null,
    tokenResponse: (tokens, id) => ({ access_token: tokens.accessToken, user_id: id }),
    identityResponse: (id, handle) => ({ id, username: handle }),
  },
};

/** The platform user id for a handle: the same (platform, handle) always gives the same id. */
export async function sandboxPlatformId(platform: Platform, handle: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", utf8(`sandbox-user:${platform}:${handle}`));
  return SANDBOX_SHAPES[platform].platformId(new Uint8Array(digest));
}

/** The OAuth client the sandbox adapters present; the token endpoint checks it. */
export const sandboxClient = (platform: Platform) => ({
  clientId: `sandbox-${platform}-client`,
  clientSecret: `sandbox-${platform}-secret`,
});
