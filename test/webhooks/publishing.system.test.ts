// Post events end to end on the sandbox, through the real local queues: a post published with
// `publish_now` reaches the receiver as post.published, a `#sandbox-fail` post as post.failed with its
// rows' errors, a post half published as post.partially_published; every request is signed per
// Standard Webhooks and verified with the `standardwebhooks` library from npm. A redelivered publish
// message emits nothing twice.
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Origins } from "../media/support";
import { deliver as deliverPublish, publishingPost, settled } from "../publishing/support";
import { call } from "../support/client";
import { createPost, createTenant } from "../support/seed";
import { waitFor } from "../support/wait";
import { createWebhook, deliveriesOf, installOrigins, outboxCleared, Receiver, receiverUrl } from "./support";

let origins: Origins;
beforeEach(() => {
  origins = installOrigins();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const POST_EVENTS = ["post.published", "post.failed", "post.partially_published"];

/** Waits (bounded) until the endpoint has `count` deliveries, none pending; answers them. */
const settledDeliveries = (key: string, hookId: number, count: number) =>
  waitFor(
    async () => {
      const list = await deliveriesOf(key, hookId);
      return list.length >= count && list.every((d: any) => d.status !== "pending") ? list : false;
    },
    { timeout: 15_000, what: `${count} settled deliveries to endpoint ${hookId}` },
  );

async function subscribed(events = POST_EVENTS) {
  const t = await createTenant();
  const receiver = new Receiver(origins, receiverUrl());
  const hook = await createWebhook(t.key, { workspace_id: t.workspace.id, url: receiver.url, events });
  return { t, receiver, hook };
}

describe("post events", () => {
  it("delivers post.published, signed, with the post as the API answers it", async () => {
    const { t, receiver, hook } = await subscribed();
    const post = await createPost(t, { content: [{ text: "Hello webhooks" }], publish_now: true });
    await settled(post.id);
    const [request] = await receiver.waitFor("post.published");
    // The library verifies the signature, the id and the timestamp, and parses the body.
    const verified = new Webhook(hook.secret).verify(request!.body, request!.headers) as any;
    const answer = await call("GET", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(verified).toEqual({
      id: request!.headers["webhook-id"],
      type: "post.published",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: answer.body,
    });
    expect(request!.headers["webhook-id"]).toMatch(new RegExp(`^evt_post\\.published_${post.id}_\\d+$`));
    expect(Number(request!.headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -2);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(() => new Webhook(hook.secret).verify(`${request!.body} `, request!.headers)).toThrow();
    const other = new Webhook(`whsec_${btoa("another secret of 32 bytes......")}`);
    expect(() => other.verify(request!.body, request!.headers)).toThrow();

    const deliveries = await waitFor(async () => {
      const list = await deliveriesOf(t.key, hook.id);
      return list[0]?.status === "succeeded" ? list : false;
    });
    expect(deliveries).toEqual([
      {
        id: expect.any(Number),
        event_id: request!.headers["webhook-id"],
        event_type: "post.published",
        status: "succeeded",
        attempts: [
          {
            attempt: 1,
            at: expect.any(String),
            response_status: 200,
            duration_ms: expect.any(Number),
            error_code: null,
            error: null,
            response_excerpt: "answer 200",
          },
        ],
        next_attempt_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
  });

  it("delivers post.failed with each row's error for a #sandbox-fail post", async () => {
    const { t, receiver, hook } = await subscribed();
    const post = await createPost(t, {
      accounts: [t.accounts[0]!.id, t.accounts[1]!.id],
      content: [{ text: "Nope #sandbox-fail" }],
      publish_now: true,
    });
    await settled(post.id, 10_000, "FAILED");
    const [request] = await receiver.waitFor("post.failed");
    const event = new Webhook(hook.secret).verify(request!.body, request!.headers) as any;
    expect(event.data.id).toBe(post.id);
    expect(event.data.status).toBe("FAILED");
    expect(event.data.platforms).toHaveLength(2);
    for (const row of event.data.platforms) {
      expect(row.status).toBe("FAILED");
      expect(row.error).toEqual({
        code: expect.any(String),
        message: expect.stringContaining("#sandbox-fail"),
      });
    }
    expect(receiver.of("post.published")).toEqual([]);
  });

  it("delivers post.partially_published when some rows published and others failed", async () => {
    const { t, receiver, hook } = await subscribed();
    const id = await publishingPost(t, {
      accounts: [t.accounts[0]!.id, t.accounts[1]!.id],
      content: [{ text: "Half #sandbox-fail" }],
    });
    // One row published already (an earlier run); the other fails now.
    await env.DB.prepare(
      "UPDATE post_platforms SET status = 'PUBLISHED', platform_post_id = '1', posted_on = json_array(?) WHERE id = (SELECT min(id) FROM post_platforms WHERE post_id = ?)",
    )
      .bind(Date.now(), id)
      .run();
    await deliverPublish([{ post_id: id }]);
    const [request] = await receiver.waitFor("post.partially_published");
    const event = new Webhook(hook.secret).verify(request!.body, request!.headers) as any;
    expect(event.data.status).toBe("FAILED");
    expect(event.data.platforms.map((row: any) => row.status)).toEqual(["PUBLISHED", "FAILED"]);
    expect(receiver.of("post.failed")).toEqual([]);
  });

  it("sends only the events an endpoint subscribed to, and nothing to another workspace's", async () => {
    const { t, receiver, hook } = await subscribed(["post.failed"]);
    const stranger = await subscribed(POST_EVENTS);
    const ok = await createPost(t, { content: [{ text: "Fine" }], publish_now: true });
    const bad = await createPost(t, { content: [{ text: "Bad #sandbox-fail" }], publish_now: true });
    await settled(ok.id);
    await settled(bad.id, 10_000, "FAILED");
    await receiver.waitFor("post.failed");
    // Both settlements emitted (their outbox rows gone), and whatever they queued delivered.
    await outboxCleared(ok.id);
    await outboxCleared(bad.id);
    await settledDeliveries(t.key, hook.id, 1);
    expect(await deliveriesOf(stranger.t.key, stranger.hook.id)).toEqual([]);
    expect(receiver.received.map((r) => r.json.type)).toEqual(["post.failed"]);
    expect(stranger.receiver.received).toEqual([]);
  });

  it("emits once however often the publish message is redelivered", async () => {
    const { t, receiver, hook } = await subscribed();
    const id = await publishingPost(t, { content: [{ text: "Once" }] });
    await deliverPublish([{ post_id: id }]);
    await deliverPublish([{ post_id: id }, { post_id: id }]);
    await receiver.waitFor("post.published");
    await outboxCleared(id);
    await settledDeliveries(t.key, hook.id, 1);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveriesOf(t.key, hook.id)).toHaveLength(1);
    const { results } = await env.DB.prepare("SELECT id FROM webhook_events WHERE workspace_id = ?")
      .bind(t.workspace.id)
      .all();
    expect(results).toHaveLength(1);
  });
});
