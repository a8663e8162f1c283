// The `publish` queue consumer and its dead letters. A message only names a post (and, for a wake-up,
// the time it is due): D1 is the truth, the message a hint, so any message may be redelivered, raced or
// stale. A row that needs another attempt keeps its message: it is retried with exponential backoff, or
// after the platform's Retry-After; once Queues' retries run out it reaches `publish-dlq`, whose
// consumer fails the rows still publishing.
import { shardDatabases } from "../db/shards";
import { DEAD_LETTER_BACKOFF, eachMessage, retryAfter } from "../lib/queue";
import { defaultDeps, type PublishDeps } from "./deps";
import { failExhausted } from "./exhausted";
import { parsePublishMessage } from "./messages";
import { type Outcome, PUBLISH_BACKOFF, retryDelay } from "./outcome";
import { publishPost } from "./publish";
import { claimWakeUp } from "./wake";

export async function consumePublish(batch: MessageBatch<unknown>, env: Env, _ctx: ExecutionContext) {
  await publishBatch(batch, env, defaultDeps);
}

/** The consumer with its dependencies given (tests swap the platform or the clock). */
export async function publishBatch(batch: MessageBatch<unknown>, env: Env, deps: PublishDeps) {
  const shards = shardDatabases(env);
  await eachMessage(batch, {
    name: "publish",
    parse: parsePublishMessage,
    backoff: PUBLISH_BACKOFF,
    handle: async (body, message) => {
      const db = shards.of(body.post_id);
      if (body.due !== undefined) {
        const woken = await claimWakeUp(db, env.PUBLISH_QUEUE, deps, body.post_id, body.due);
        if (woken !== "publish") return;
      }
      const outcomes = await publishPost(env, db, deps, body.post_id, body.due);
      const retries = outcomes.filter((o): o is Extract<Outcome, { kind: "retry" }> => o.kind === "retry");
      // One message carries every row of the post: it waits as long as the longest delay a row asks.
      if (retries.length > 0) {
        retryAfter(message, Math.max(...retries.map((o) => retryDelay(o, message.attempts))));
      }
    },
  });
}

export async function consumePublishDeadLetters(
  batch: MessageBatch<unknown>,
  env: Env,
  _ctx: ExecutionContext,
) {
  await deadLetterBatch(batch, env, defaultDeps);
}

/** Dead letters: the post's rows still publishing have had every retry, so they fail. Idempotent. */
export async function deadLetterBatch(batch: MessageBatch<unknown>, env: Env, deps: PublishDeps) {
  const shards = shardDatabases(env);
  await eachMessage(batch, {
    name: "publish-dlq",
    parse: parsePublishMessage,
    deadLetters: true,
    backoff: DEAD_LETTER_BACKOFF,
    handle: (body) => failExhausted(shards.of(body.post_id), env, body, deps.now()),
  });
}
