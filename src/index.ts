// Worker entry: HTTP, queue consumers, the cron, and the Durable Object class.

import { keepTokensAlive } from "./accounts/keep-alive";
import { refreshAnalytics } from "./analytics/refresh";
import { app } from "./app";
import { sweepConsole } from "./console/sweep";
import { sweepImports } from "./imports/queries";
import { sweepPublishing } from "./publishing/sweep";
import { dispatchQueue } from "./queues";
import { isPurgeMinute, purgeTestData } from "./test-mode/purge";
import { sweepOutbox } from "./webhooks/outbox";

export { Coordinator } from "./coordinator";
export { SandboxStore } from "./sandbox/store";

export default {
  fetch: app.fetch,
  queue: dispatchQueue,
  // The safety net: wake-ups come from delayed queue messages, the cron sweeps what they missed (and the
  // webhook events of settlements whose emission did not finish); it also keeps idle accounts' tokens
  // alive (src/accounts/keep-alive.ts), deletes the console's dead sessions and links (src/console/sweep.ts)
  // and imports past 30 days (src/imports/queries.ts), and, once an hour, test data older than 90 days
  // (src/test-mode/purge.ts).
  async scheduled(controller, env) {
    const now = new Date(controller.scheduledTime);
    await Promise.all([
      sweepPublishing(env, now),
      refreshAnalytics(env, now),
      sweepOutbox(env, now),
      keepTokensAlive(env, now),
      sweepConsole(env, now),
      sweepImports(env, now),
      isPurgeMinute(now) ? purgeTestData(env, now) : undefined,
    ]);
  },
} satisfies ExportedHandler<Env>;
