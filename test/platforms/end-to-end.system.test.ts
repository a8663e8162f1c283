// Every platform end to end through the worker, against its recorded answers (test/platforms/live/
// harness.ts): SANDBOX off, the platform's OAuth app configured, the global fetch answered by the
// platform's recordings. Each platform's scenario lives beside its fixtures (`<platform>/end-to-end.ts`):
// it connects an account through the API and the browser routes, publishes through the engine's queue
// consumer and syncs through the sync consumer, asserting what the platform was sent at each step. One
// file, so one runtime for all of them; every platform of PLATFORMS must have a scenario.
// A system test: it replaces the global fetch and changes env vars for the whole runtime.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PLATFORMS, type Platform } from "../../src/db/enums";
import { scenario as facebook } from "./facebook/end-to-end";
import { scenario as instagram } from "./instagram/end-to-end";
import { scenario as linkedin } from "./linkedin/end-to-end";
import { connectAccount, type Scenario, useRealPlatform } from "./live/harness";
import { scenario as pinterest } from "./pinterest/end-to-end";
import { scenario as threads } from "./threads/end-to-end";
import { scenario as tiktok } from "./tiktok/end-to-end";
import { scenario as twitter } from "./twitter/end-to-end";
import { scenario as youtube } from "./youtube/end-to-end";

const SCENARIOS: Partial<Record<Platform, Scenario | Scenario[]>> = {
  facebook,
  instagram,
  linkedin,
  pinterest,
  threads,
  tiktok,
  twitter,
  youtube,
};

/** Sets `vars` on the runtime's env; the function returned puts the old values back. */
function setVars(vars: Record<string, string>): () => void {
  const live = env as unknown as Record<string, string | undefined>;
  const saved = Object.keys(vars).map((name) => [name, live[name]] as const);
  Object.assign(live, vars);
  return () => {
    for (const [name, value] of saved) live[name] = value;
  };
}

describe.each(PLATFORMS)("%s end to end", (platform) => {
  const scenarios = SCENARIOS[platform];
  if (!scenarios) {
    it("has a scenario", () => {
      expect.fail(`no end-to-end scenario for ${platform}: add test/platforms/${platform}/end-to-end.ts`);
    });
    return;
  }
  for (const scenario of [scenarios].flat()) {
    it(scenario.it, async () => {
      const server = scenario.server();
      const restore = useRealPlatform(platform, server);
      const restoreVars = setVars(scenario.vars ?? {});
      try {
        const connected = await connectAccount(platform, scenario.connect);
        await scenario.run(connected, server);
      } finally {
        restoreVars();
        restore();
      }
    });
  }
});
