// Which adapter serves a platform: the emulator for test mode (a test key's or test workspace's, on
// every deployment) and for everything under SANDBOX=true; else the real platform when its OAuth app is
// configured (`<PLATFORM>_CLIENT_ID` / `_CLIENT_SECRET`), else none. Delegation looks adapters up per
// request (lookupAdapter); background work (publishing, analytics) takes publishingAdapter.
import type { Mode, Platform } from "../db/enums";
import { backgroundOrigin } from "../lib/origin";
import { createAdapter } from "./adapter";
import { SPECS } from "./catalog";
import { configuredDefinition, configuredHosts, type PlatformDefinition } from "./define";
import { sandboxFetch } from "./sandbox/client";
import { emulatedAdapter } from "./sandbox/emulated";
import { loopbackMark, sandboxEnabled } from "./sandbox/enabled";
import { OWNER_PARAM, ownerTag, spaceOfUser } from "./sandbox/owner";
import { type Credentials, type Fetch, type PlatformAdapter, PlatformError } from "./types";

export type AdapterLookup =
  | { kind: "ok"; adapter: PlatformAdapter }
  | { kind: "unsupported" }
  | { kind: "not_configured"; label: string };

/** The OAuth app credentials for a platform from env, or null when either half is missing. */
export function platformCredentials(env: Env, platform: Platform | string): Credentials | null {
  const vars = env as unknown as Record<string, unknown>;
  const prefix = platform.toUpperCase();
  const clientId = vars[`${prefix}_CLIENT_ID`];
  const clientSecret = vars[`${prefix}_CLIENT_SECRET`];
  if (typeof clientId !== "string" || typeof clientSecret !== "string") return null;
  if (!clientId.trim() || !clientSecret.trim()) return null;
  return { clientId: clientId.trim(), clientSecret: clientSecret.trim() };
}

/** The platforms a lookup chooses from, by name: the catalog's, or (tests) others besides. */
export type Registry = Readonly<Record<string, PlatformDefinition>>;

/**
 * The adapter for `name`. `origin` is the service's public origin (the sandbox lives there);
 * `fetcher` is what real adapters call out with; `registry` the definitions to choose from.
 */
export function lookupAdapter(
  env: Env,
  name: string,
  origin: string,
  mode: Mode,
  fetcher: Fetch = (input, init) => fetch(input, init),
  registry: Registry = SPECS,
): AdapterLookup {
  if (!Object.hasOwn(registry, name)) return { kind: "unsupported" };
  // The definition as the environment configures it (LinkedIn's products: its scopes and identity).
  const spec = configuredDefinition(registry[name]!, env);
  // Test mode and the sandbox: the platform's own adapter, every call answered by its emulator
  // in-process (sandboxFetch never leaves the worker), so test data can never reach a real platform.
  if (mode === "test" || sandboxEnabled(env))
    return {
      kind: "ok",
      adapter: emulatedAdapter(
        spec,
        origin,
        sandboxFetch(origin, undefined, () => loopbackMark(env)),
      ),
    };
  const credentials = platformCredentials(env, spec.platform);
  if (!credentials) return { kind: "not_configured", label: spec.label };
  // The real hosts, but for those the operator points elsewhere (PINTEREST_API_BASE).
  const hosts = configuredHosts(spec, env);
  return { kind: "ok", adapter: createAdapter(spec, { credentials, fetch: fetcher, hosts }) };
}

/**
 * The adapter background work publishes and reads metrics through. It has no request, so the sandbox
 * lives on `backgroundOrigin(env)` (reached in-process, never over the network). A platform without
 * credentials cannot be published to: a permanent `platform_not_configured` PlatformError.
 */
export function publishingAdapter(
  env: Env,
  platform: Platform,
  mode: Mode,
  fetcher: Fetch = (input, init) => fetch(input, init),
): PlatformAdapter {
  const lookup = lookupAdapter(env, platform, backgroundOrigin(env), mode, fetcher);
  if (lookup.kind === "ok") return lookup.adapter;
  const label = lookup.kind === "not_configured" ? lookup.label : platform;
  throw new PlatformError(`${label} is not configured on this service.`, {
    kind: "permanent",
    code: "platform_not_configured",
  });
}

/**
 * A test connect on a deployment (SANDBOX off) consents in its user's own space on the emulator, so two
 * users' `alice` are two platform accounts (src/platforms/sandbox/owner.ts); the tag is bound to the
 * flow's `state`. Anything else (live, a delegation, which keeps nothing, or SANDBOX=true, where
 * everything shares one space) consents at `location` as it is.
 */
export async function consentLocation(
  env: Env,
  flow: { mode: Mode; connectingUserId: number | null },
  location: string,
  state: string,
): Promise<string> {
  if (flow.mode !== "test" || flow.connectingUserId === null || sandboxEnabled(env)) return location;
  const url = new URL(location);
  url.searchParams.set(OWNER_PARAM, await ownerTag(env, spaceOfUser(flow.connectingUserId), state));
  return url.toString();
}
