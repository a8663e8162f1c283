// The webhooks consumer driven by hand on deliveries emitted with a captured queue (the real queue
// holds no message for them): retries on the schedule until the eighth failure, every attempt in the
// deliveries list, redirects and timeouts are failures, the target resolved again before each attempt,
// redelivered messages post once, the dead-letter queue, a rolled secret signing alongside the new one,
// and an endpoint disabled after three days of failures.
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DELIVERY_FAILURES } from "../../src/webhooks/attempt";
import { MAX_ATTEMPTS, retryDelaySeconds } from "../../src/webhooks/catalog";
import type { Origins } from "../media/support";
import { call } from "../support/client";
import { createTenant } from "../support/seed";
import {
  createWebhook,
  deliver,
  deliveriesOf,
  deliveryRow,
  emitCaptured,
  endpointRow,
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

async function endpoint(answers: ConstructorParameters<typeof Receiver>[2] = [200], url = receiverUrl()) {
  const t = await createTenant();
  const receiver = new Receiver(origins, url, answers);
  const hook = await createWebhook(t.key, { workspace_id: t.workspace.id, url, events: ["media.ready"] });
  const [deliveryId] = await emitCaptured(testEvent(t.workspace.id));
  return { t, receiver, hook, deliveryId: deliveryId! };
}

/** Lets the next attempt run now, as the delayed message would later. */
const dueNow = (id: number) =>
  env.DB.prepare("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?").bind(Date.now(), id).run();

describe("retries", () => {
  it("retries a failing receiver on the schedule, records every attempt, and fails after the eighth", async () => {
    const { t, receiver, hook, deliveryId } = await endpoint([500]);
    const delays: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const result = await deliver([deliveryId], { attempts: attempt });
      if (attempt < MAX_ATTEMPTS) {
        expect(result).toMatchObject({ acks: 0, retries: 1 });
        delays.push(result.delays[0]!);
        const [listed] = await deliveriesOf(t.key, hook.id);
        expect(listed).toMatchObject({ status: "pending", next_attempt_at: expect.any(String) });
      } else {
        expect(result).toMatchObject({ acks: 1, retries: 0 });
      }
      await dueNow(deliveryId);
    }
    expect(delays).toEqual([30, 120, 480, 1920, 7680, 30720, 43200]);
    expect(delays).toEqual([1, 2, 3, 4, 5, 6, 7].map(retryDelaySeconds));
    // About a day from the first attempt to the last.
    const span = delays.reduce((a, b) => a + b, 0);
    expect(span).toBeGreaterThan(20 * 3600);
    expect(span).toBeLessThan(26 * 3600);
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    // The same event id on every retry, a fresh timestamp and signature each time.
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const [listed] = await deliveriesOf(t.key, hook.id);
    expect(listed.status).toBe("failed");
    expect(listed.next_attempt_at).toBeNull();
    expect(listed.attempts).toHaveLength(MAX_ATTEMPTS);
    expect(listed.attempts.map((a: any) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const a of listed.attempts)
      expect(a).toMatchObject({ response_status: 500, error: "HTTP 500", response_excerpt: "answer 500" });
    // One more copy of the message changes nothing.
    expect(await deliver([deliveryId])).toMatchObject({ acks: 1, retries: 0 });
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    // Failing for less than three days does not disable the endpoint.
    expect((await call("GET", `/api/v1/webhooks/${hook.id}`, { key: t.key })).body).toMatchObject({
      status: "enabled",
      failing_since: expect.any(String),
    });
  });

  it("succeeds on a retry and clears the endpoint's failing streak", async () => {
    const { t, receiver, hook, deliveryId } = await endpoint([503, 204]);
    expect(await deliver([deliveryId])).toMatchObject({ retries: 1, delays: [30] });
    expect((await endpointRow(hook.id))!.failing_since).not.toBeNull();
    await dueNow(deliveryId);
    expect(await deliver([deliveryId], { attempts: 2 })).toMatchObject({ acks: 1, retries: 0 });
    expect(receiver.received).toHaveLength(2);
    const [listed] = await deliveriesOf(t.key, hook.id);
    expect(listed.status).toBe("succeeded");
    expect(listed.attempts.map((a: any) => a.response_status)).toEqual([503, 204]);
    expect((await endpointRow(hook.id))!.failing_since).toBeNull();
  });

  it("counts a redirect as a failure and does not follow it", async () => {
    const target = receiverUrl("/elsewhere");
    const elsewhere = new Receiver(origins, target);
    const { t, hook, deliveryId } = await endpoint([
      () => new Response(null, { status: 301, headers: { location: target } }),
    ]);
    expect(await deliver([deliveryId])).toMatchObject({ retries: 1 });
    expect(elsewhere.received).toEqual([]);
    const [listed] = await deliveriesOf(t.key, hook.id);
    expect(listed.attempts[0]).toMatchObject({
      response_status: 301,
      error: "HTTP 301: redirects are not followed",
    });
  });

  it("records a receiver that cannot be reached, and keeps only a short excerpt of an answer", async () => {
    const { t, hook, deliveryId } = await endpoint([
      () => {
        throw new TypeError("connection refused");
      },
      () => new Response("x".repeat(100_000), { status: 400 }),
    ]);
    await deliver([deliveryId]);
    await dueNow(deliveryId);
    await deliver([deliveryId], { attempts: 2 });
    const [listed] = await deliveriesOf(t.key, hook.id);
    // In the log's own words: the runtime's exception is not quoted.
    expect(listed.attempts[0]).toMatchObject({
      response_status: null,
      error_code: "connection_failed",
      error: DELIVERY_FAILURES.connection_failed,
    });
    expect(listed.attempts[1]).toMatchObject({
      response_status: 400,
      error_code: "http_status",
      error: "HTTP 400",
    });
    expect(listed.attempts[1].response_excerpt).toBe("x".repeat(200));
  });

  it("posts once when two copies of a message arrive together", async () => {
    const { receiver, deliveryId } = await endpoint([200]);
    const result = await deliver([deliveryId, deliveryId]);
    expect(receiver.received).toHaveLength(1);
    // The copy that found the attempt taken looks again after the lease; by then it is settled.
    expect(result.acks + result.retries).toBe(2);
    expect((await deliveryRow(deliveryId))!.status).toBe("succeeded");
    expect(await deliver([deliveryId])).toMatchObject({ acks: 1, retries: 0 });
    expect(receiver.received).toHaveLength(1);
  });

  it("fails a delivery still pending when its message reaches the dead-letter queue", async () => {
    const { t, hook, deliveryId } = await endpoint([500]);
    await deliver([deliveryId]);
    expect(await deliver([deliveryId], { queue: "webhooks-dlq" })).toMatchObject({ acks: 1, retries: 0 });
    const [listed] = await deliveriesOf(t.key, hook.id);
    expect(listed).toMatchObject({ status: "failed", next_attempt_at: null });
    expect(listed.attempts).toHaveLength(1);
  });
});

describe("the target, checked again before each attempt", () => {
  it("refuses a host that now resolves to a private address, without posting", async () => {
    const url = receiverUrl();
    const { t, receiver, hook, deliveryId } = await endpoint([200], url);
    origins.resolve(new URL(url).hostname, ["10.0.0.7"]);
    expect(await deliver([deliveryId])).toMatchObject({ retries: 1 });
    expect(receiver.received).toEqual([]);
    const [listed] = await deliveriesOf(t.key, hook.id);
    expect(listed.attempts[0]).toMatchObject({
      response_status: null,
      error: expect.stringMatching(
        /^refused URL: .* resolves to a private or reserved address \(10\.0\.0\.7\)$/,
      ),
    });
  });

  it("delivers to a loopback receiver only while IMPORT_ALLOWED_PRIVATE_HOSTS lists it", async () => {
    const t = await createTenant();
    const url = "http://127.0.0.1:9917/hooks";
    const receiver = new Receiver(origins, url);
    // Registered as tests register loopback endpoints: with the switch on.
    const endpointId = (await env.DB.prepare(
      "INSERT INTO webhook_endpoints (workspace_id, url, events, secret_enc) VALUES (?, ?, '[\"media.ready\"]', (SELECT secret_enc FROM webhook_endpoints LIMIT 1)) RETURNING id",
    )
      .bind(t.workspace.id, url)
      .first<{ id: number }>())!.id;
    const [deliveryId] = await emitCaptured(testEvent(t.workspace.id));
    await deliver([deliveryId!]);
    expect(receiver.received).toEqual([]);
    await dueNow(deliveryId!);
    await deliver([deliveryId!], { attempts: 2, vars: { IMPORT_ALLOWED_PRIVATE_HOSTS: "127.0.0.1:9917" } });
    expect(receiver.received).toHaveLength(1);
    expect((await deliveryRow(deliveryId!))!.status).toBe("succeeded");
    expect(endpointId).toBeGreaterThan(0);
  });
});

describe("secrets", () => {
  it("signs with the new and the old secret for a day after a roll", async () => {
    const { t, receiver, hook } = await endpoint([200]);
    const rolled = await call("POST", `/api/v1/webhooks/${hook.id}/roll-secret`, { key: t.key });
    const [deliveryId] = await emitCaptured(testEvent(t.workspace.id));
    await deliver([deliveryId!]);
    const request = receiver.received.at(-1)!;
    expect(request.headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    new Webhook(rolled.body.secret).verify(request.body, request.headers);
    new Webhook(hook.secret).verify(request.body, request.headers);
    // A day later only the new secret signs.
    await env.DB.prepare("UPDATE webhook_endpoints SET previous_secret_expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, hook.id)
      .run();
    const [later] = await emitCaptured(testEvent(t.workspace.id));
    await deliver([later!]);
    const next = receiver.received.at(-1)!;
    expect(next.headers["webhook-signature"]).toMatch(/^v1,\S+$/);
    new Webhook(rolled.body.secret).verify(next.body, next.headers);
    expect(() => new Webhook(hook.secret).verify(next.body, next.headers)).toThrow();
  });
});

describe("disabling", () => {
  it("disables an endpoint whose attempts have all failed for three days; it then gets nothing", async () => {
    const { t, receiver, hook, deliveryId } = await endpoint([500]);
    const [second] = await emitCaptured(testEvent(t.workspace.id));
    await env.DB.prepare("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?")
      .bind(Date.now() - 3 * 86_400_000 - 1000, hook.id)
      .run();
    await deliver([deliveryId]);
    const shown = await call("GET", `/api/v1/webhooks/${hook.id}`, { key: t.key });
    expect(shown.body).toMatchObject({
      status: "disabled",
      disabled_at: expect.any(String),
      disabled_reason: "Every delivery attempt failed for 3 days.",
    });
    const listed = await call("GET", `/api/v1/webhooks?workspace_id=${t.workspace.id}`, { key: t.key });
    expect(listed.body.data[0].status).toBe("disabled");
    // Its pending deliveries fail without a request, and new events make no delivery for it.
    expect(await deliver([deliveryId, second!])).toMatchObject({ acks: 2, retries: 0 });
    expect(receiver.received).toHaveLength(1);
    expect((await deliveryRow(second!))!.status).toBe("failed");
    expect(await emitCaptured(testEvent(t.workspace.id))).toEqual([]);
    // Re-enabled, it gets new events again.
    await call("POST", `/api/v1/webhooks/${hook.id}/enable`, { key: t.key });
    expect(await emitCaptured(testEvent(t.workspace.id))).toHaveLength(1);
  });
});
