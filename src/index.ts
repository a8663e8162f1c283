// Worker entry: HTTP, queue consumers, the cron, and the Durable Object class.
import { app } from "./app";
import { dispatchQueue } from "./queues";

export { Gate } from "./gate";

export default {
  fetch: app.fetch,
  queue: dispatchQueue,
  async scheduled() {},
} satisfies ExportedHandler<Env>;
