// Receivers for webhook tests. The worker shares this isolate, so replacing globalThis.fetch (the media
// tests' Origins) makes every delivery land in a Receiver: it records each request (headers, raw body)
// and answers from a script. DNS-over-HTTPS lookups are answered too (a public address unless a test
// says otherwise). The consumer is driven by hand (createMessageBatch) where a test needs to see its
// retries, on deliveries emitted with a captured queue so the real one holds no message for them, and
// on announcements of outbox rows (`{outbox: [...]}`) sent by hand.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { createDb } from "../../src/db/client";
import type { OutboxKey } from "../../src/events/record";
import worker from "../../src/index";
import { type EventSpec, emitEvent } from "../../src/webhooks/events";
import { OUTBOX_GRACE_MS, sweepOutbox } from "../../src/webhooks/outbox";
import { Origins } from "../media/support";
import { call } from "../support/client";
import { waitFor } from "../support/wait";

export type Received = { url: string; headers: Record<string, string>; body: string; json: any };
type Answer = number | Response | (() => Response | Promise<Response>);

let hostCounter = 0;
/** A fresh receiver URL under the reserved .test TLD (resolved to a public address). */
export const receiverUrl = (path = "/hooks") =>
  `https://hooks-${Date.now().toString(36)}-${hostCounter++}.example.test${path}`;

export class Receiver {
  readonly received: Received[] = [];
  #answers: Answer[];

  /** Answers `answers` in turn (the last one repeats); a number is a status with a short body. */
  constructor(
    origins: Origins,
    readonly url: string,
    answers: Answer[] = [200],
  ) {
    this.#answers = answers;
    origins.on(url, async (request) => {
      const body = await request.text();
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {}
      this.received.push({ url: request.url, headers: Object.fromEntries(request.headers), body, json });
      const next = this.#answers.length > 1 ? this.#answers.shift()! : this.#answers[0]!;
      if (typeof next === "number")
        return new Response([204, 205, 304].includes(next) ? null : `answer ${next}`, { status: next });
      return typeof next === "function" ? next() : next;
    });
  }

  /** Requests carrying an event of `type`. */
  of(type: string) {
    return this.received.filter((r) => r.json?.type === type);
  }

  /** Waits (bounded) until `count` requests of `type` arrived; answers them. */
  async waitFor(type: string, count = 1, timeout = 15_000) {
    return waitFor(() => (this.of(type).length >= count ? this.of(type) : false), {
      timeout,
      what: `${count} ${type} request(s) at ${this.url}`,
    });
  }
}

/** A fresh Origins with fetch replaced. */
export function installOrigins() {
  const origins = new Origins();
  origins.install();
  return origins;
}

export async function createWebhook(key: string, body: Record<string, unknown>) {
  const res = await call("POST", "/api/v1/webhooks", { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; secret: string; url: string; events: string[] };
}

export const deliveriesOf = async (key: string, id: number) => {
  const res = await call("GET", `/api/v1/webhooks/${id}/deliveries`, { key });
  expect(res.status).toBe(200);
  return res.body.data as any[];
};

/** Emits an event with a captured queue: answers the delivery ids it would have sent. */
export async function emitCaptured(spec: EventSpec) {
  const sent: number[] = [];
  const queue = {
    sendBatch: async (messages: Array<{ body: { delivery_id: number } }>) => {
      sent.push(...messages.map((m) => m.body.delivery_id));
    },
  } as unknown as Queue;
  await emitEvent({ WEBHOOKS_QUEUE: queue }, createDb(env.DB), spec);
  return sent;
}

let messageCounter = 0;
/** Delivers webhook messages to the worker's queue handler; the acks, retries and retry delays. */
export async function deliver(
  deliveryIds: number[],
  options: { queue?: "webhooks" | "webhooks-dlq"; attempts?: number; vars?: Partial<Env> } = {},
) {
  const batch = createMessageBatch(
    options.queue ?? "webhooks",
    deliveryIds.map((id) => ({
      id: `wh-${messageCounter++}`,
      timestamp: new Date(),
      attempts: options.attempts ?? 1,
      body: { delivery_id: id },
    })),
  );
  const retries = batch.messages.map((message) => vi.spyOn(message, "retry"));
  const ctx = createExecutionContext();
  await worker.queue(batch, { ...env, ...options.vars }, ctx);
  const result = await getQueueResult(batch, ctx);
  const delays = retries.flatMap((spy) => spy.mock.calls.map(([opts]) => opts?.delaySeconds));
  return { acks: result.explicitAcks.length, retries: result.retryMessages.length, delays };
}

/** Delivers `copies` copies of one announcement of `keys`, in one batch, to the worker's queue handler. */
export async function announceByHand(
  keys: OutboxKey[],
  options: { copies?: number; attempts?: number } = {},
) {
  const batch = createMessageBatch(
    "webhooks",
    Array.from({ length: options.copies ?? 1 }, () => ({
      id: `ann-${messageCounter++}`,
      timestamp: new Date(),
      attempts: options.attempts ?? 1,
      body: { outbox: keys },
    })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  const result = await getQueueResult(batch, ctx);
  return { acks: result.explicitAcks.length, retries: result.retryMessages.length };
}

export type OutboxRecord = { type: string; record_id: number; version: string; created_at: number };

/** The outbox rows of a record (of one type, when given). */
export const outboxOf = async (recordId: number, type?: string) =>
  (
    await env.DB.prepare(
      "SELECT type, record_id, version, created_at FROM outbox WHERE record_id = ? AND (?2 IS NULL OR type = ?2)",
    )
      .bind(recordId, type ?? null)
      .all<OutboxRecord>()
  ).results;

/** Waits (bounded) until the record has no outbox row (of the type, when given) left. */
export const outboxCleared = (recordId: number, type?: string, timeout = 15_000) =>
  waitFor(async () => (await outboxOf(recordId, type)).length === 0, {
    timeout,
    what: `outbox of ${type} ${recordId} empty`,
  });

/** The cron's sweep as it runs once a row's grace period is over. */
export const sweepAfterGrace = (row: OutboxRecord) =>
  sweepOutbox(env, new Date(row.created_at + OUTBOX_GRACE_MS + 1000));

/** The deliveries of an event, as stored. */
export const deliveriesOfEvent = async (eventId: string) =>
  (
    await env.DB.prepare("SELECT * FROM webhook_deliveries WHERE event_id = ? ORDER BY id")
      .bind(eventId)
      .all<DeliveryRow>()
  ).results;

/** Waits (bounded) until every delivery of the event has settled; answers them. */
export const deliveriesSettled = (eventId: string, count = 1, timeout = 15_000) =>
  waitFor(
    async () => {
      const rows = await deliveriesOfEvent(eventId);
      return rows.length >= count && rows.every((row) => row.status !== "pending") ? rows : false;
    },
    { timeout, interval: 50, what: `${count} settled deliveries of ${eventId}` },
  );

export type DeliveryRow = {
  id: number;
  endpoint_id: number;
  event_id: string;
  status: string;
  attempts: number;
  log: string;
  next_attempt_at: number | null;
  attempt_started_at: number | null;
};

export const deliveryRow = (id: number) =>
  env.DB.prepare("SELECT * FROM webhook_deliveries WHERE id = ?").bind(id).first<DeliveryRow>();

export const endpointRow = (id: number) =>
  env.DB.prepare("SELECT * FROM webhook_endpoints WHERE id = ?").bind(id).first<Record<string, any>>();

let eventCounter = 0;
/** A made-up event for a workspace (type media.ready), for tests of delivery alone. */
export const testEvent = (workspaceId: number, data: unknown = { hello: "world" }): EventSpec => ({
  workspace: workspaceId,
  types: ["media.ready"],
  key: `test_${Date.now()}_${eventCounter++}`,
  at: Date.now(),
  build: async () => ({ workspaceId, type: "media.ready", data }),
});
