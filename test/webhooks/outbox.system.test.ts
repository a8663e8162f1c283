// At least once from a change to its webhook event (src/events/, src/webhooks/outbox.ts): the outbox
// row is written in the batch that makes the change, announced on the webhooks queue once it commits,
// and deleted once its event is recorded; a row whose announcement failed (or whose worker stopped) is
// emitted by the cron's sweep, exactly once, and an announcement delivered twice tells nothing twice.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client";
import { postPlatforms } from "../../src/db/schema";
import worker from "../../src/index";
import { loadForPublishing } from "../../src/publishing/load";
import { settle } from "../../src/publishing/post-status";
import { sweepOutbox } from "../../src/webhooks/outbox";
import type { Origins } from "../media/support";
import { postOf, publishingPost, settled } from "../publishing/support";
import { createPost, createTenant } from "../support/seed";
import { waitFor } from "../support/wait";
import {
  announceByHand,
  createWebhook,
  deliveriesOfEvent,
  deliveriesSettled,
  installOrigins,
  outboxCleared,
  outboxOf,
  Receiver,
  receiverUrl,
  sweepAfterGrace,
} from "./support";

let origins: Origins;
beforeEach(() => {
  origins = installOrigins();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const eventsOf = async (postId: number) =>
  (
    await env.DB.prepare("SELECT id FROM webhook_events WHERE id LIKE 'evt_post.%'").all<{ id: string }>()
  ).results
    .map((r) => r.id)
    .filter((id) => new RegExp(`^evt_post\\.[a-z_]+_${postId}_\\d+$`).test(id));

async function subscribed(urls = [receiverUrl()]) {
  const t = await createTenant();
  const receivers = urls.map((url) => new Receiver(origins, url));
  for (const receiver of receivers)
    await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiver.url,
      events: ["post.published"],
    });
  return { t, receiver: receivers[0]!, receivers };
}

/** WEBHOOKS_QUEUE refuses its next announcement, as a queue outage would. */
const failNextAnnounce = () => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  return vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockRejectedValueOnce(new Error("queue down"));
};

describe("the outbox", () => {
  it("is cleared once a settlement's event is recorded", async () => {
    const { t, receiver } = await subscribed();
    const post = await createPost(t, { content: [{ text: "Outbox" }], publish_now: true });
    await settled(post.id);
    await receiver.waitFor("post.published");
    await outboxCleared(post.id);
    expect(await outboxOf(post.id)).toEqual([]);
    expect(await eventsOf(post.id)).toHaveLength(1);
  });

  it("keeps a settlement whose announcement failed, and the sweep tells it once", async () => {
    const { t, receiver } = await subscribed();
    const send = failNextAnnounce();
    const post = await createPost(t, { content: [{ text: "Outbox retry" }], publish_now: true });
    await settled(post.id);
    await waitFor(() => send.mock.calls.length > 0, { what: "an announcement" });
    // Recorded with the settlement, and announced by nobody: only the sweep takes it.
    const [left] = await outboxOf(post.id);
    expect(left).toMatchObject({ record_id: post.id, type: "post.published" });
    expect(left!.version).toBe(String(left!.created_at));
    expect(receiver.of("post.published")).toHaveLength(0);

    // Within its grace period the row belongs to an announcement still on its way: the sweep leaves it.
    expect(await sweepOutbox(env, new Date(left!.created_at + 1000))).toBe(0);
    expect(await outboxOf(post.id)).toHaveLength(1);
    expect(await sweepAfterGrace(left!)).toBeGreaterThanOrEqual(1);
    await receiver.waitFor("post.published");
    expect(await outboxOf(post.id)).toEqual([]);
    // Swept again: nothing more is told.
    await sweepAfterGrace(left!);
    const eventId = `evt_post.published_${post.id}_${left!.version}`;
    const [delivery] = await deliveriesSettled(eventId);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(receiver.of("post.published")).toHaveLength(1);
    expect(await eventsOf(post.id)).toEqual([eventId]);
  });

  it("keeps an announced row whose emission failed: the message is retried, and the row told once", async () => {
    const { t, receiver } = await subscribed();
    const id = await publishingPost(t, { content: [{ text: "Emission fails" }] });
    // The announcement is kept from the real queue, and delivered here by hand.
    const send = vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockResolvedValue(undefined as never);
    const db = createDb(env.DB);
    const loaded = (await loadForPublishing(db, id))!;
    const now = Date.now();
    await settle(db, env, loaded.post, now, [
      db.update(postPlatforms).set({ status: "PUBLISHED" }).where(eq(postPlatforms.postId, id)),
    ]);
    const [announcement] = send.mock.calls.map(([body]) => body as { outbox: any[] });
    expect(announcement).toEqual({
      outbox: [{ type: "post.published", record_id: id, version: String(now) }],
    });

    // The deliveries cannot be queued: nothing is told, the row stays and the message is retried.
    vi.spyOn(env.WEBHOOKS_QUEUE, "sendBatch").mockRejectedValueOnce(new Error("queue down"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await announceByHand(announcement!.outbox)).toEqual({ acks: 0, retries: 1 });
    expect(await outboxOf(id)).toHaveLength(1);
    const eventId = `evt_post.published_${id}_${now}`;
    // Its unsent delivery was removed, so the retry queues it afresh.
    expect(await deliveriesOfEvent(eventId)).toEqual([]);

    expect(await announceByHand(announcement!.outbox, { attempts: 2 })).toEqual({ acks: 1, retries: 0 });
    expect(await outboxOf(id)).toEqual([]);
    const [delivery] = await deliveriesSettled(eventId);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(receiver.of("post.published")).toHaveLength(1);
  });

  it("records nothing when no endpoint of the workspace listens: nothing is written, queued or read", async () => {
    const t = await createTenant();
    const id = await publishingPost(t, { content: [{ text: "Nobody listens" }] });
    const send = vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockResolvedValue(undefined as never);
    const db = createDb(env.DB);
    const loaded = (await loadForPublishing(db, id))!;
    await settle(db, env, loaded.post, Date.now(), [
      db.update(postPlatforms).set({ status: "PUBLISHED" }).where(eq(postPlatforms.postId, id)),
    ]);
    expect((await postOf(id))!.status).toBe("PUBLISHED");
    expect(await outboxOf(id)).toEqual([]);
    expect(send).not.toHaveBeenCalled();
    send.mockRestore();
    expect(await eventsOf(id)).toEqual([]);
  });

  it("records a settlement only in the batch that settles the post", async () => {
    const { t } = await subscribed([receiverUrl()]);
    const id = await publishingPost(t, { content: [{ text: "Not yet" }] });
    const send = vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockResolvedValue(undefined as never);
    const db = createDb(env.DB);
    const loaded = (await loadForPublishing(db, id))!;
    // Its rows are still publishing: the post does not settle, and nothing is recorded or announced.
    await settle(db, env, loaded.post, Date.now());
    expect((await postOf(id))!.status).toBe("PUBLISHING");
    expect(await outboxOf(id)).toEqual([]);
    expect(send).not.toHaveBeenCalled();

    // The batch that fails its rows settles the post: the row is there as soon as the batch returns.
    const at = Date.now() + 1;
    await settle(db, env, loaded.post, at, [
      db.update(postPlatforms).set({ status: "FAILED" }).where(eq(postPlatforms.postId, id)),
    ]);
    expect((await postOf(id))!.status).toBe("FAILED");
    expect(await outboxOf(id)).toEqual([
      { type: "post.failed", record_id: id, version: String(at), created_at: at },
    ]);
    expect(send).toHaveBeenCalledTimes(1);

    // Settling again changes nothing, so records nothing.
    await settle(db, env, loaded.post, at + 1);
    expect(await outboxOf(id)).toHaveLength(1);
    expect(send).toHaveBeenCalledTimes(1);
    send.mockRestore();
    await sweepAfterGrace((await outboxOf(id))[0]!);
    expect(await outboxOf(id)).toEqual([]);
  });

  it("tells an announced row once however often its message is delivered", async () => {
    const { t, receivers } = await subscribed([receiverUrl(), receiverUrl()]);
    const id = await publishingPost(t, { content: [{ text: "Twice" }] });
    const send = vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockResolvedValue(undefined as never);
    const db = createDb(env.DB);
    const loaded = (await loadForPublishing(db, id))!;
    const now = Date.now();
    await settle(db, env, loaded.post, now, [
      db.update(postPlatforms).set({ status: "PUBLISHED" }).where(eq(postPlatforms.postId, id)),
    ]);
    const keys = (send.mock.calls[0]![0] as { outbox: any[] }).outbox;
    send.mockRestore();

    // Two copies at once, then a third once the row is gone.
    expect(await announceByHand(keys, { copies: 2 })).toEqual({ acks: 2, retries: 0 });
    expect(await announceByHand(keys)).toEqual({ acks: 1, retries: 0 });
    const eventId = `evt_post.published_${id}_${now}`;
    const deliveries = await deliveriesSettled(eventId, 2);
    expect(deliveries).toHaveLength(2);
    for (const delivery of deliveries) expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    for (const receiver of receivers) {
      expect(receiver.of("post.published")).toHaveLength(1);
      expect(receiver.of("post.published")[0]!.headers["webhook-id"]).toBe(eventId);
    }
    expect(await eventsOf(id)).toEqual([eventId]);
    expect(await outboxOf(id)).toEqual([]);
  });

  it("leaves a dead-lettered announcement's rows to the sweep", async () => {
    const { t, receiver } = await subscribed();
    const id = await publishingPost(t, { content: [{ text: "Dead letter" }] });
    const send = vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockResolvedValue(undefined as never);
    const db = createDb(env.DB);
    const loaded = (await loadForPublishing(db, id))!;
    await settle(db, env, loaded.post, Date.now(), [
      db.update(postPlatforms).set({ status: "PUBLISHED" }).where(eq(postPlatforms.postId, id)),
    ]);
    const keys = (send.mock.calls[0]![0] as { outbox: any[] }).outbox;
    send.mockRestore();
    const batch = createMessageBatch("webhooks-dlq", [
      { id: "ann-dead", timestamp: new Date(), attempts: 13, body: { outbox: keys } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(1);
    const [row] = await outboxOf(id);
    expect(row).toBeDefined();
    expect(receiver.received).toEqual([]);
    await sweepAfterGrace(row!);
    await receiver.waitFor("post.published");
    expect(await outboxOf(id)).toEqual([]);
  });
});
