// Dead letters arrive at least once too: each dead-letter consumer, given the same dead letter twice,
// fails its record once and records (so announces, so delivers) one event.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { insertProcessing, mediaRow } from "../media/support";
import { publishingPost } from "../publishing/support";
import { createTenant } from "../support/seed";
import {
  createWebhook,
  deliveryRow,
  emitCaptured,
  outboxOf,
  receiverUrl,
  testEvent,
} from "../webhooks/support";

afterEach(() => {
  vi.restoreAllMocks();
});

let counter = 0;
/** The same dead letter, delivered twice (two batches), through the worker's queue handler. */
async function deliverTwice(queue: string, body: unknown) {
  for (const attempts of [1, 2]) {
    const batch = createMessageBatch(queue, [
      { id: `dead-${counter++}`, timestamp: new Date(), attempts, body },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect(await getQueueResult(batch, ctx)).toMatchObject({ retryMessages: [] });
  }
}

async function listeningTenant() {
  const t = await createTenant();
  await createWebhook(t.key, {
    workspace_id: t.workspace.id,
    url: receiverUrl(),
    events: ["post.failed", "media.failed", "media.ready"],
  });
  // Counts the announcements; the outbox rows stay for the test to read.
  const announced = vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockResolvedValue(undefined as never);
  return { t, announced };
}

describe("dead letters delivered twice", () => {
  it("publish-dlq fails the post once, with one post.failed", async () => {
    const { t, announced } = await listeningTenant();
    const id = await publishingPost(t);
    await deliverTwice("publish-dlq", { post_id: id });
    const post = await env.DB.prepare("SELECT status FROM posts WHERE id = ?").bind(id).first();
    expect(post).toEqual({ status: "FAILED" });
    expect(await outboxOf(id, "post.failed")).toHaveLength(1);
    expect(announced).toHaveBeenCalledTimes(1);
  });

  it("media-import-dlq fails the item once, with one media.settled", async () => {
    const { t, announced } = await listeningTenant();
    const row = await insertProcessing(t.workspace.id, "https://origin.example.test/clip.mp4");
    await deliverTwice("media-import-dlq", { media_id: row.id });
    expect(await mediaRow(row.id)).toMatchObject({ state: "failed" });
    expect(await outboxOf(row.id, "media.settled")).toHaveLength(1);
    expect(announced).toHaveBeenCalledTimes(1);
  });

  it("webhooks-dlq fails a pending delivery once and leaves a settled one be", async () => {
    const { t } = await listeningTenant();
    const sent = await emitCaptured(testEvent(t.workspace.id));
    expect(sent.length).toBeGreaterThan(0);
    await deliverTwice("webhooks-dlq", { delivery_id: sent[0] });
    const failed = await deliveryRow(sent[0]!);
    expect(failed).toMatchObject({ status: "failed" });
    await deliverTwice("webhooks-dlq", { delivery_id: sent[0] });
    expect(await deliveryRow(sent[0]!)).toEqual(failed);
  });
});
