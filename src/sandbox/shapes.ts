// How each emulator answers the OAuth side of its platform, as that platform's documentation says (each
// `src/sandbox/<platform>/token.ts` states its own `<platform>Shape`, independently of the adapter): its
// consent, token and identity paths, the client parameter and PKCE its consent asks for, the `error` it
// redirects with when the user declines, the format of its user ids, how long its tokens live and how
// they refresh, and its token and identity answers. The kernel (consent, token endpoint, grants, the
// identity answer) reads them through `shapeOf`. The registry is filled once by the emulators' table
// (emulators.ts), which imports every platform's folder: the kernel never does, so the platforms' token
// routes can use the kernel without a cycle.
import { PLATFORMS, type Platform } from "../db/enums";
import { routeNotFound } from "../http/errors";
import { utf8 } from "../lib/encoding";

/** What the token endpoint issues, for the platform to shape its answer from. */
export type IssuedTokens = {
  grant: "authorization_code" | "refresh_token";
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  /** Null where the platform issues none. On a refresh: the new one, or the one presented if kept. */
  refreshToken: string | null;
  refreshExpiresIn: number | null;
  /** The scopes the user granted (the authorize request's); null: every scope the app is granted. */
  scopes: readonly string[] | null;
};

export type SandboxShape = {
  /** The platform's name as its pages show it. */
  label: string;
  /** The platform's own paths of its consent page, token endpoint and identity call. */
  paths: { authorize: string; token: string; identity: string };
  /** The name of the client id parameter on its consent URL and token body. */
  clientIdParam: "client_id" | "client_key";
  /** Whether its consent requires a PKCE (S256) challenge. */
  pkce: boolean;
  /** The `error` the platform redirects with on a refusal. */
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
  /**
   * A stored comment's id as the platform shows it, where that is not the store's own (Facebook's
   * `<post>_<comment>`, LinkedIn's comment URN): the follower tool answers it and takes a parent's.
   */
  commentId?(postId: string, id: string): string;
};

/** A platform the sandbox emulates, with its shape. */
export type EmulatedPlatform = SandboxShape & { platform: Platform };

const registry = new Map<Platform, SandboxShape>();

/** Fills the registry: called once, by the emulators' table (emulators.ts), with every platform's shape. */
export function registerShapes(shapes: Record<Platform, SandboxShape>) {
  for (const [platform, shape] of Object.entries(shapes)) registry.set(platform as Platform, shape);
}

/** The shape of `platform`'s emulator. */
export function shapeOf(platform: Platform): SandboxShape {
  const shape = registry.get(platform);
  if (!shape)
    throw new Error(`the sandbox has no shape for ${platform}: import src/sandbox/emulators.ts first`);
  return shape;
}

/** The platform named in a path, with its shape; a platform the sandbox does not emulate is a 404. */
export function platformOf(name: string | undefined): EmulatedPlatform {
  const platform = PLATFORMS.find((known) => known === name);
  if (!platform || !registry.has(platform)) throw routeNotFound();
  return { ...shapeOf(platform), platform };
}

/**
 * The platform user id for a handle: the same (platform, handle, space) always gives the same id; the
 * same handle in two users' spaces (src/platforms/sandbox/owner.ts) gives two.
 */
export async function sandboxPlatformId(
  platform: Platform,
  handle: string,
  space: string | null = null,
): Promise<string> {
  const name = space === null ? `${platform}:${handle}` : `${platform}:${space}:${handle}`;
  const digest = await crypto.subtle.digest("SHA-256", utf8(`sandbox-user:${name}`));
  return shapeOf(platform).platformId(new Uint8Array(digest));
}
