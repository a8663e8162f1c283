// Worker entry: HTTP, queue consumers, the cron, and the Durable Object class.
import { app } from "./app";
import { createDb } from "./db/client";
import { claimDuePosts } from "./publishing/claim";
import { dispatchQueue } from "./queues";

export { Coordinator } from "./coordinator";
export { SandboxStore } from "./platforms/sandbox/store";

export default {
  fetch: app.fetch,
  queue: dispatchQueue,
  async scheduled(controller, env) {
    await claimDuePosts(createDb(env.DB), env.PUBLISH_QUEUE, new Date(controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
