// At least once from a post's settlement to its webhook event (src/webhooks/outbox.ts): the outbox row
// is written in the settling batch and cleared once the event is queued; a settlement whose emission
// failed (or whose worker stopped) is emitted by the cron's sweep, exactly once.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OUTBOX_GRACE_MS, sweepOutbox } from "../../src/webhooks/outbox";
import type { Origins } from "../media/support";
import { settled } from "../publishing/support";
import { createPost, createTenant } from "../support/seed";
import { waitFor } from "../support/wait";
import { createWebhook, deliveriesSettled, installOrigins, Receiver, receiverUrl } from "./support";

let origins: Origins;
beforeEach(() => {
  origins = installOrigins();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const outboxOf = async (postId: number) =>
  (
    await env.DB.prepare("SELECT post_id, at, status FROM webhook_outbox WHERE post_id = ?")
      .bind(postId)
      .all<{ post_id: number; at: number; status: string }>()
  ).results;

const eventsOf = async (postId: number) =>
  (
    await env.DB.prepare("SELECT id FROM webhook_events WHERE id LIKE 'evt_post.%'").all<{ id: string }>()
  ).results
    .map((r) => r.id)
    .filter((id) => new RegExp(`^evt_post\\.[a-z_]+_${postId}_\\d+$`).test(id));

async function subscribed() {
  const t = await createTenant();
  const receiver = new Receiver(origins, receiverUrl());
  await createWebhook(t.key, { workspace_id: t.workspace.id, url: receiver.url, events: ["post.published"] });
  return { t, receiver };
}

describe("the webhook outbox", () => {
  it("is cleared once a settlement's event is queued", async () => {
    const { t, receiver } = await subscribed();
    const post = await createPost(t, { content: [{ text: "Outbox" }], publish_now: true });
    await settled(post.id);
    await receiver.waitFor("post.published");
    expect(await outboxOf(post.id)).toEqual([]);
    expect(await eventsOf(post.id)).toHaveLength(1);
  });

  it("keeps a settlement whose emission failed, and the sweep tells it once", async () => {
    const { t, receiver } = await subscribed();
    // The first emission fails at the queue: the event's deliveries are not sent.
    const send = vi.spyOn(env.WEBHOOKS_QUEUE, "sendBatch").mockRejectedValueOnce(new Error("queue down"));
    const post = await createPost(t, { content: [{ text: "Outbox retry" }], publish_now: true });
    await settled(post.id);
    await waitFor(() => send.mock.calls.length > 0, { what: "the emission's send" });
    const [left] = await outboxOf(post.id);
    expect(left).toMatchObject({ post_id: post.id, status: "PUBLISHED" });
    expect(receiver.of("post.published")).toHaveLength(0);

    // Within its grace period the row belongs to the emission still running: the sweep leaves it.
    expect(await sweepOutbox(env, new Date(left!.at + 1000))).toBe(0);
    const later = new Date(left!.at + OUTBOX_GRACE_MS + 1000);
    expect(await sweepOutbox(env, later)).toBeGreaterThanOrEqual(1);
    await receiver.waitFor("post.published");
    expect(await outboxOf(post.id)).toEqual([]);
    // Swept again: nothing more is told.
    await sweepOutbox(env, later);
    await deliveriesSettled(t.workspace.id);
    expect(receiver.of("post.published")).toHaveLength(1);
    expect(await eventsOf(post.id)).toEqual([`evt_post.published_${post.id}_${left!.at}`]);
  });

  it("is written in the settling batch even when no endpoint listens, and then cleared", async () => {
    const t = await createTenant();
    const post = await createPost(t, { content: [{ text: "Nobody listens" }], publish_now: true });
    await settled(post.id);
    await waitFor(async () => (await outboxOf(post.id)).length === 0, {
      what: `post ${post.id}'s outbox cleared`,
    });
    expect(await eventsOf(post.id)).toEqual([]);
  });
});
