// Deliveries a user asks for, through the real webhooks queue: a signed `webhook.test` event, and a
// settled delivery sent again (same event id, signed afresh, its earlier attempts kept); their refusals.
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Origins } from "../media/support";
import { call, serverTiming } from "../support/client";
import { createTenant } from "../support/seed";
import { waitFor } from "../support/wait";
import {
  createWebhook,
  deliver,
  deliveriesOf,
  emitCaptured,
  installOrigins,
  Receiver,
  receiverUrl,
  testEvent,
} from "./support";

let origins: Origins;
beforeEach(() => {
  origins = installOrigins();
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function endpoint(answers: ConstructorParameters<typeof Receiver>[2] = [200]) {
  const t = await createTenant();
  const url = receiverUrl();
  const receiver = new Receiver(origins, url, answers);
  const hook = await createWebhook(t.key, { workspace_id: t.workspace.id, url, events: ["media.ready"] });
  return { t, receiver, hook };
}

const settled = (key: string, hookId: number, deliveryId: number) =>
  waitFor(
    async () => {
      const found = (await deliveriesOf(key, hookId)).find((d) => d.id === deliveryId);
      return found && found.status !== "pending" ? found : false;
    },
    { timeout: 15_000, what: `delivery ${deliveryId} settled` },
  );

describe("POST /api/v1/webhooks/{id}/test", () => {
  it("delivers a signed webhook.test event to that endpoint, listed with its deliveries", async () => {
    const { t, receiver, hook } = await endpoint();
    const res = await call("POST", `/api/v1/webhooks/${hook.id}/test`, { key: t.key });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      event_id: expect.stringMatching(/^evt_webhook\.test_/),
      event_type: "webhook.test",
      status: "pending",
      attempts: [],
    });
    const [request] = await receiver.waitFor("webhook.test");
    const event = new Webhook(hook.secret).verify(request!.body, request!.headers) as any;
    expect(event).toMatchObject({
      id: res.body.event_id,
      type: "webhook.test",
      data: { webhook_id: hook.id },
    });
    expect(request!.headers["webhook-id"]).toBe(res.body.event_id);
    const listed = await settled(t.key, hook.id, res.body.id);
    expect(listed).toMatchObject({ status: "succeeded", attempts: [{ attempt: 1, response_status: 200 }] });
  });

  it("is a 409 for a disabled endpoint and a 404 for another tenant's; nothing is sent", async () => {
    const { t, receiver, hook } = await endpoint();
    await env.DB.prepare(
      "UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = 'test' WHERE id = ?",
    )
      .bind(Date.now(), hook.id)
      .run();
    const disabled = await call("POST", `/api/v1/webhooks/${hook.id}/test`, { key: t.key });
    expect(disabled.status).toBe(409);
    expect(disabled.body.message).toMatch(/disabled/);
    const other = await createTenant();
    const foreign = await call("POST", `/api/v1/webhooks/${hook.id}/test`, { key: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Webhook not found." });
    expect(await deliveriesOf(t.key, hook.id)).toEqual([]);
    const events = await env.DB.prepare(
      "SELECT count(*) AS n FROM webhook_events WHERE type = 'webhook.test' AND workspace_id = ?",
    )
      .bind(t.workspace.id)
      .first<{ n: number }>();
    expect(events!.n).toBe(0);
    expect(receiver.received).toEqual([]);
  });
});

describe("POST /api/v1/webhooks/{id}/deliveries/{delivery}/redeliver", () => {
  it("sends a failed delivery again: same event id, signed afresh, earlier attempts kept", async () => {
    const { t, receiver, hook } = await endpoint([500, 200]);
    const [deliveryId] = await emitCaptured(testEvent(t.workspace.id));
    // The first attempt fails; the delivery is then failed for good (as after its eighth attempt).
    await deliver([deliveryId!]);
    await env.DB.prepare(
      "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = ?",
    )
      .bind(deliveryId)
      .run();

    const path = `/api/v1/webhooks/${hook.id}/deliveries/${deliveryId}/redeliver`;
    const res = await call("POST", path, { key: t.key });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      id: deliveryId,
      status: "pending",
      attempts: [{ response_status: 500 }],
    });
    const requests = await receiver.waitFor("media.ready", 2);
    expect(requests[1]!.headers["webhook-id"]).toBe(requests[0]!.headers["webhook-id"]);
    expect(requests[1]!.body).toBe(requests[0]!.body);
    new Webhook(hook.secret).verify(requests[1]!.body, requests[1]!.headers);
    const listed = await settled(t.key, hook.id, deliveryId!);
    expect(listed.status).toBe("succeeded");
    expect(listed.attempts.map((a: { response_status: number }) => a.response_status)).toEqual([500, 200]);
  });

  it("refuses a pending delivery (409), another endpoint's or tenant's delivery (404)", async () => {
    const { t, hook } = await endpoint([200]);
    const [deliveryId] = await emitCaptured(testEvent(t.workspace.id));
    const path = `/api/v1/webhooks/${hook.id}/deliveries/${deliveryId}/redeliver`;
    const pending = await call("POST", path, { key: t.key });
    expect(pending.status).toBe(409);
    expect(pending.body.message).toMatch(/still pending/);

    const second = await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiverUrl(),
      events: ["post.published"],
    });
    const elsewhere = await call("POST", `/api/v1/webhooks/${second.id}/deliveries/${deliveryId}/redeliver`, {
      key: t.key,
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual({ message: "Delivery not found." });

    const other = await createTenant();
    const foreign = await call("POST", path, { key: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Webhook not found." });
    const bad = await call("POST", `/api/v1/webhooks/${hook.id}/deliveries/abc/redeliver`, { key: t.key });
    expect(bad.status).toBe(422);
  });

  it("reads another tenant's delivery no more than an absent one (rows in Server-Timing)", async () => {
    const { t } = await endpoint([200]);
    const [deliveryId] = await emitCaptured(testEvent(t.workspace.id));
    await env.DB.prepare("UPDATE webhook_deliveries SET status = 'failed' WHERE id = ?")
      .bind(deliveryId)
      .run();
    const other = await endpoint([200]);
    const attempt = (id: number) =>
      call("POST", `/api/v1/webhooks/${other.hook.id}/deliveries/${id}/redeliver`, { key: other.t.key });
    const foreign = await attempt(deliveryId!);
    const absent = await attempt(deliveryId! + 1_000_000);
    expect([foreign.status, absent.status]).toEqual([404, 404]);
    expect(foreign.body).toEqual(absent.body);
    expect(serverTiming(foreign.headers).rowsRead).toBe(serverTiming(absent.headers).rowsRead);
  });
});
