// Which adapter serves a platform: the sandbox (SANDBOX=true), the real platform when its OAuth app is
// configured (`<PLATFORM>_CLIENT_ID` / `_CLIENT_SECRET`), else none.
import type { Platform } from "../db/enums";
import { createAdapter } from "./adapter";
import { isPlatform, SPECS } from "./catalog";
import { sandboxEndpoints, sandboxFetch, sandboxPosting } from "./sandbox/client";
import { sandboxEnabled } from "./sandbox/enabled";
import { sandboxClient } from "./sandbox/shapes";
import type { Credentials, Fetch, PlatformAdapter } from "./types";

export type AdapterLookup =
  | { kind: "ok"; adapter: PlatformAdapter }
  | { kind: "unsupported" }
  | { kind: "not_configured"; label: string };

/** The OAuth app credentials for a platform from env, or null when either half is missing. */
export function platformCredentials(env: Env, platform: Platform): Credentials | null {
  const vars = env as unknown as Record<string, unknown>;
  const prefix = platform.toUpperCase();
  const clientId = vars[`${prefix}_CLIENT_ID`];
  const clientSecret = vars[`${prefix}_CLIENT_SECRET`];
  if (typeof clientId !== "string" || typeof clientSecret !== "string") return null;
  if (!clientId.trim() || !clientSecret.trim()) return null;
  return { clientId: clientId.trim(), clientSecret: clientSecret.trim() };
}

/**
 * The adapter for `name`. `origin` is the service's public origin (the sandbox lives there);
 * `fetcher` is what real adapters call out with.
 */
export function lookupAdapter(
  env: Env,
  name: string,
  origin: string,
  fetcher: Fetch = (input, init) => fetch(input, init),
): AdapterLookup {
  if (!isPlatform(name)) return { kind: "unsupported" };
  const spec = SPECS[name];
  if (sandboxEnabled(env)) {
    const inProcess = sandboxFetch(env, origin);
    return {
      kind: "ok",
      adapter: createAdapter(spec, {
        credentials: sandboxClient(name),
        endpoints: sandboxEndpoints(origin, name),
        fetch: inProcess,
        posting: sandboxPosting(inProcess, origin, name),
      }),
    };
  }
  const credentials = platformCredentials(env, name);
  if (!credentials) return { kind: "not_configured", label: spec.label };
  return {
    kind: "ok",
    adapter: createAdapter(spec, { credentials, endpoints: spec.endpoints, fetch: fetcher }),
  };
}
