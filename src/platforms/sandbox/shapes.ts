// How each platform shapes what the sandbox fakes, taken from the platform's own documentation: the
// `error` it redirects with when the user declines, the format of its user ids, and its token and
// identity answers. The real platform modules parse these very shapes, so a sandbox delegation runs
// through the same parsers as a real one. Kept here so that real platforms never depend on the sandbox.
import type { Platform } from "../../db/enums";
import { toHex, utf8 } from "../../lib/encoding";
import { SPECS } from "../catalog";
import { digits, letters } from "./ids";

export type SandboxShape = {
  /** The `error` the platform redirects with on a refusal (one of the spec's denialErrors). */
  denial: string;
  /** A user id in the platform's format, cut from a digest. */
  platformId(digest: Uint8Array): string;
  tokenResponse(accessToken: string, platformId: string): object;
  identityResponse(platformId: string, handle: string): object;
};

/** The scope string a platform answers with: its scopes, joined its way. */
const grantedScope = (platform: Platform) => SPECS[platform].scopes.join(SPECS[platform].scopeSeparator);

export const SANDBOX_SHAPES: Record<Platform, SandboxShape> = {
  tiktok: {
    denial: "access_denied",
    platformId(digest) {
      const hex = toHex(digest);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
    },
    tokenResponse: (token, id) => ({
      access_token: token,
      expires_in: 86400,
      open_id: id,
      refresh_expires_in: 31536000,
      refresh_token: "rft.sandbox",
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
    tokenResponse: (token, id) => ({
      data: [{ access_token: token, user_id: id, permissions: "instagram_business_basic" }],
    }),
    identityResponse: (id, handle) => ({ user_id: id, username: handle, id }),
  },
  twitter: {
    denial: "access_denied",
    platformId: (digest) => digits(digest, 18),
    tokenResponse: (token) => ({
      token_type: "bearer",
      expires_in: 7200,
      access_token: token,
      scope: grantedScope("twitter"),
    }),
    identityResponse: (id, handle) => ({ data: { id, name: handle, username: handle } }),
  },
  linkedin: {
    denial: "user_cancelled_authorize",
    platformId: (digest) => letters(digest, 10),
    tokenResponse: (token) => ({
      access_token: token,
      expires_in: 5183999,
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
    tokenResponse: (token) => ({
      access_token: token,
      expires_in: 3599,
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
    tokenResponse: (token) => ({ access_token: token, token_type: "bearer", expires_in: 5183944 }),
    identityResponse: (id, handle) => ({ id, name: handle }),
  },
  pinterest: {
    denial: "access_denied",
    platformId: (digest) => digits(digest, 18),
    tokenResponse: (token) => ({
      access_token: token,
      refresh_token: "pinr.sandbox",
      response_type: "authorization_code",
      token_type: "bearer",
      expires_in: 2592000,
      refresh_token_expires_in: 31536000,
      scope: "user_accounts:read",
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
    tokenResponse: (token, id) => ({ access_token: token, user_id: id }),
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
