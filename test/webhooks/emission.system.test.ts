// The events other than posts, each recorded in the outbox where its change commits and told through
// the webhooks queue, and emission's idempotency: the same event emitted again (a redelivered
// announcement, a redelivered job recording it again) stores and queues nothing.
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { refreshStoredToken } from "../../src/accounts/tokens";
import { shardDatabases } from "../../src/db/shards";
import worker from "../../src/index";
import { encryptSecret } from "../../src/lib/crypto";
import { emitAnnounced } from "../../src/webhooks/outbox";
import { postOn, publishOnSandbox, sandboxAccount } from "../analytics/support";
import { bytesResponse, insertProcessing, type Origins, pngBytes } from "../media/support";
import { publishingPost } from "../publishing/support";
import { call } from "../support/client";
import { createTenant } from "../support/seed";
import {
  createWebhook,
  deliveriesSettled,
  emitCaptured,
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

async function subscribed(events: string[]) {
  const t = await createTenant();
  const receiver = new Receiver(origins, receiverUrl());
  const hook = await createWebhook(t.key, { workspace_id: t.workspace.id, url: receiver.url, events });
  return { t, receiver, hook };
}

/** Runs one batch of `queue` through the worker, with the given message ids and bodies. */
async function runQueue(queue: string, messages: Array<{ id: string; body: unknown }>) {
  const batch = createMessageBatch(
    queue,
    messages.map((m) => ({ ...m, timestamp: new Date(), attempts: 1 })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

const eventsOf = async (workspaceId: number) =>
  (
    await env.DB.prepare("SELECT id, type FROM webhook_events WHERE workspace_id = ? ORDER BY created_at")
      .bind(workspaceId)
      .all<{ id: string; type: string }>()
  ).results;

/** An account whose stored refresh token the sandbox refuses for good: its next refresh expires it. */
async function expiring(t: Awaited<ReturnType<typeof createTenant>>) {
  const id = t.accounts[0]!.id;
  await env.DB.prepare(
    "UPDATE accounts SET access_token_enc = ?, refresh_token_enc = ?, token_expires_at = ? WHERE id = ?",
  )
    .bind(
      await encryptSecret(env.ENCRYPTION_KEY, "old-access-token"),
      await encryptSecret(env.ENCRYPTION_KEY, "revoked-refresh-token"),
      Date.now() + 60_000,
      id,
    )
    .run();
  return id;
}

/** The account's pending account.expired (its outbox row's time), or null once told. */
const expiryEventAt = async (id: number) => (await outboxOf(id, "account.expired"))[0]?.created_at ?? null;

/** WEBHOOKS_QUEUE refuses its next announcement, as a queue outage would. */
const failNextAnnounce = () => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  return vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockRejectedValueOnce(new Error("queue down"));
};

describe("account.expired", () => {
  it("is sent once when a refresh is refused for good, with the account as the API lists it", async () => {
    const { t, receiver, hook } = await subscribed(["account.expired"]);
    const id = await expiring(t);
    expect(await refreshStoredToken(env, id, null)).toEqual({ kind: "expired" });
    expect(await refreshStoredToken(env, id, null)).toEqual({ kind: "expired" });
    const [request] = await receiver.waitFor("account.expired");
    const event = new Webhook(hook.secret).verify(request!.body, request!.headers) as any;
    const listed = await call("GET", `/api/v1/accounts?workspace_id=${t.workspace.id}`, { key: t.key });
    expect(event.data).toEqual(listed.body.data.find((a: any) => a.id === id));
    expect(request!.headers["webhook-id"]).toMatch(new RegExp(`^evt_account\\.expired_${id}_\\d+$`));
    expect(await eventsOf(t.workspace.id)).toHaveLength(1);
    await outboxCleared(id, "account.expired");
    expect(await expiryEventAt(id)).toBeNull();
  });
});

describe("account.expired through its outbox", () => {
  it("clears the outbox once told; an expiry whose announcement failed is told by the cron's sweep, once", async () => {
    const { t, receiver } = await subscribed(["account.expired"]);
    const id = await expiring(t);
    failNextAnnounce();
    expect(await refreshStoredToken(env, id, null)).toEqual({ kind: "expired" });
    expect(await expiryEventAt(id)).toBeGreaterThan(0);
    const [row] = await outboxOf(id, "account.expired");
    const { expired_at } = (await env.DB.prepare("SELECT expired_at FROM accounts WHERE id = ?")
      .bind(id)
      .first<{ expired_at: number }>())!;
    expect(row!.version).toBe(String(expired_at));
    // Announced by nobody: nothing can be told before the sweep.
    expect(receiver.of("account.expired")).toHaveLength(0);

    const cron = (at: number) =>
      worker.scheduled(createScheduledController({ scheduledTime: at, cron: "* * * * *" }), env);
    // Within the grace minute the entry belongs to an emission that may still be running.
    await cron(Date.now());
    expect(await expiryEventAt(id)).toBeGreaterThan(0);
    await cron(Date.now() + 2 * 60_000);
    await receiver.waitFor("account.expired");
    expect(await expiryEventAt(id)).toBeNull();
    await cron(Date.now() + 3 * 60_000);
    const [delivery] = await deliveriesSettled(`evt_account.expired_${id}_${expired_at}`);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(receiver.of("account.expired")).toHaveLength(1);
    expect(await eventsOf(t.workspace.id)).toHaveLength(1);
  });
});

describe("media.ready and media.failed", () => {
  it("tells when an import is stored, and when one fails for good", async () => {
    const { t, receiver, hook } = await subscribed(["media.ready", "media.failed"]);
    const host = receiverUrl("").replace(/\/$/, "");
    origins
      .on(`${host}/ok.png`, () => bytesResponse(pngBytes(), "image/png"))
      .on(`${host}/gone.png`, () => new Response("gone", { status: 410 }));
    const ready = await insertProcessing(t.workspace.id, `${host}/ok.png`, { name: "ok.png" });
    const failed = await insertProcessing(t.workspace.id, `${host}/gone.png`, { name: "gone.png" });
    const body = (id: number) => ({ media_id: id });
    await runQueue("media-import", [
      { id: "m1", body: body(ready.id) },
      { id: "m2", body: body(failed.id) },
    ]);
    // Redelivered: the items are settled, nothing is emitted again.
    await runQueue("media-import", [
      { id: "m1", body: body(ready.id) },
      { id: "m2", body: body(failed.id) },
    ]);
    const [readyEvent] = await receiver.waitFor("media.ready");
    const [failedEvent] = await receiver.waitFor("media.failed");
    const verify = new Webhook(hook.secret);
    const r = verify.verify(readyEvent!.body, readyEvent!.headers) as any;
    const f = verify.verify(failedEvent!.body, failedEvent!.headers) as any;
    const library = await call("GET", `/api/v1/media?workspace_id=${t.workspace.id}`, { key: t.key });
    const shown = (id: number) => {
      const { url: _url, ...item } = library.body.data.find((m: any) => m.id === id);
      return item;
    };
    expect(r.data).toMatchObject({ ...shown(ready.id), is_processing: false, progress: 100 });
    expect(r.data.url).toMatch(new RegExp(`/media/${ready.id}\\?expires=\\d+&sig=[0-9a-f]{64}$`));
    expect(f.data).toMatchObject({ ...shown(failed.id), progress: 0 });
    expect(r.id).toBe(`evt_media.ready_${ready.id}`);
    expect(await eventsOf(t.workspace.id)).toHaveLength(2);
  });
});

describe("analytics.synced", () => {
  it("is sent per synced row with the post's analytics report, once per sync job however often it is delivered", async () => {
    const { t, receiver, hook } = await subscribed(["analytics.synced"]);
    const post = await postOn(t, [t.accounts[0]!.id]);
    await publishOnSandbox(post.rows[0]!, sandboxAccount(t));
    await runQueue("analytics-sync", [{ id: "sync-job-1", body: { row_id: post.rows[0] } }]);
    await runQueue("analytics-sync", [{ id: "sync-job-1", body: { row_id: post.rows[0] } }]);
    const [request] = await receiver.waitFor("analytics.synced");
    const event = new Webhook(hook.secret).verify(request!.body, request!.headers) as any;
    const report = await call("GET", `/api/v1/analytics/posts/${post.id}`, { key: t.key });
    expect(event.data).toEqual(report.body);
    expect(event.id).toBe(`evt_analytics.synced_${post.rows[0]}_sync-job-1`);
    // Another job is another sync, told when it finds new metrics (a sync that finds what is stored
    // tells nothing): the stored ones are wiped first.
    await env.DB.prepare("UPDATE post_platforms SET analytics = '{}' WHERE id = ?").bind(post.rows[0]).run();
    await runQueue("analytics-sync", [{ id: "sync-job-2", body: { row_id: post.rows[0] } }]);
    await receiver.waitFor("analytics.synced", 2);
    await outboxCleared(post.rows[0]!, "analytics.synced");
    for (const job of ["sync-job-1", "sync-job-2"]) {
      const deliveries = await deliveriesSettled(`evt_analytics.synced_${post.rows[0]}_${job}`);
      expect(deliveries).toMatchObject([{ status: "succeeded", attempts: 1 }]);
    }
    expect(receiver.of("analytics.synced")).toHaveLength(2);
  });
});

describe("emission", () => {
  it("stores an event and queues its deliveries once, however often it is emitted", async () => {
    const t = await createTenant();
    const urls = [receiverUrl(), receiverUrl()];
    for (const url of urls)
      await createWebhook(t.key, { workspace_id: t.workspace.id, url, events: ["post.published"] });
    await createWebhook(t.key, { workspace_id: t.workspace.id, url: receiverUrl(), events: ["media.ready"] });
    const id = await publishingPost(t);
    await env.DB.batch([
      env.DB.prepare("UPDATE posts SET status = 'PUBLISHED' WHERE id = ?").bind(id),
      env.DB.prepare("UPDATE post_platforms SET status = 'PUBLISHED' WHERE post_id = ?").bind(id),
    ]);
    const sent: number[] = [];
    const queue = { sendBatch: async (m: any[]) => sent.push(...m.map((x) => x.body.delivery_id)) };
    const emitEnv = { ...env, WEBHOOKS_QUEUE: queue as unknown as Queue };
    const at = Date.now();
    // The settlement recorded (again, as a redelivered job would) and emitted each time.
    const emit = async (version: number) => {
      await env.DB.prepare(
        "INSERT INTO outbox (type, record_id, version, created_at) VALUES ('post.published', ?, ?, ?)",
      )
        .bind(id, String(version), version)
        .run();
      const key = { type: "post.published" as const, record_id: id, version: String(version) };
      expect(await emitAnnounced(emitEnv, shardDatabases(env), [key])).toBe(1);
    };
    await emit(at);
    await emit(at);
    expect(sent).toHaveLength(2);
    expect(await eventsOf(t.workspace.id)).toEqual([
      { id: `evt_post.published_${id}_${at}`, type: "post.published" },
    ]);
    // Another settlement of the same post is another event.
    await emit(at + 1);
    expect(sent).toHaveLength(4);
    expect(await outboxOf(id)).toEqual([]);
  });

  it("reads nothing and stores nothing when no endpoint listens", async () => {
    const t = await createTenant();
    expect(
      await emitCaptured({
        workspace: t.workspace.id,
        types: ["media.ready"],
        key: "quiet",
        at: Date.now(),
        build: async () => {
          throw new Error("must not be read");
        },
      }),
    ).toEqual([]);
    expect(await eventsOf(t.workspace.id)).toEqual([]);
  });

  it("drops events older than 30 days, with their deliveries, as new ones are emitted", async () => {
    const t = await createTenant();
    await createWebhook(t.key, { workspace_id: t.workspace.id, url: receiverUrl(), events: ["media.ready"] });
    const old = Date.now() - 31 * 86_400_000;
    const spec = (key: string, at: number) => ({
      workspace: t.workspace.id,
      types: ["media.ready"] as const,
      key,
      at,
      build: async () => ({ workspaceId: t.workspace.id, type: "media.ready" as const, data: {} }),
    });
    await emitCaptured(spec("old", old));
    expect(await eventsOf(t.workspace.id)).toHaveLength(1);
    await emitCaptured(spec("new", Date.now()));
    expect((await eventsOf(t.workspace.id)).map((e) => e.id)).toEqual(["evt_media.ready_new"]);
    const { results } = await env.DB.prepare(
      "SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.workspace_id = ?",
    )
      .bind(t.workspace.id)
      .all();
    expect(results).toHaveLength(1);
  });
});

describe("an announcement that fails", () => {
  it("leaves a stored import's row, acknowledged, and the sweep tells media.ready once", async () => {
    const { t, receiver } = await subscribed(["media.ready"]);
    const host = receiverUrl("").replace(/\/$/, "");
    origins.on(`${host}/late.png`, () => bytesResponse(pngBytes(), "image/png"));
    const item = await insertProcessing(t.workspace.id, `${host}/late.png`, { name: "late.png" });
    failNextAnnounce();
    // The import is done: a failed announcement does not fail it.
    const first = await runQueue("media-import", [{ id: "m-late", body: { media_id: item.id } }]);
    expect(first.retryMessages).toHaveLength(0);
    const stored = await call("GET", `/api/v1/media?workspace_id=${t.workspace.id}`, { key: t.key });
    expect(stored.body.data[0]).toMatchObject({ id: item.id, is_processing: false });
    const [row] = await outboxOf(item.id, "media.settled");
    expect(row).toMatchObject({ version: "" });

    // A redelivery finds the item settled: it records and announces nothing.
    const again = await runQueue("media-import", [{ id: "m-late", body: { media_id: item.id } }]);
    expect(again.retryMessages).toHaveLength(0);
    expect(await outboxOf(item.id, "media.settled")).toEqual([row]);
    expect(await sweepAfterGrace(row!)).toBeGreaterThanOrEqual(1);
    await receiver.waitFor("media.ready");
    await runQueue("media-import", [{ id: "m-late", body: { media_id: item.id } }]);
    await sweepAfterGrace(row!);
    const [delivery] = await deliveriesSettled(`evt_media.ready_${item.id}`);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(receiver.of("media.ready")).toHaveLength(1);
    expect(await eventsOf(t.workspace.id)).toEqual([
      { id: `evt_media.ready_${item.id}`, type: "media.ready" },
    ]);
  });

  it("leaves a dead letter's failed item's row, acknowledged, and the sweep tells media.failed once", async () => {
    const { t, receiver } = await subscribed(["media.failed"]);
    const item = await insertProcessing(t.workspace.id, "https://media.example.test/never.png", {
      name: "never.png",
    });
    failNextAnnounce();
    const first = await runQueue("media-import-dlq", [{ id: "dl-1", body: { media_id: item.id } }]);
    expect(first.explicitAcks).toHaveLength(1);
    const [row] = await outboxOf(item.id, "media.settled");
    expect(row).toBeDefined();
    const again = await runQueue("media-import-dlq", [{ id: "dl-1", body: { media_id: item.id } }]);
    expect(again.explicitAcks).toHaveLength(1);
    await sweepAfterGrace(row!);
    await receiver.waitFor("media.failed");
    const [delivery] = await deliveriesSettled(`evt_media.failed_${item.id}`);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(receiver.of("media.failed")).toHaveLength(1);
  });

  it("leaves a sync's row, acknowledged, and the sweep tells analytics.synced once", async () => {
    const { t, receiver } = await subscribed(["analytics.synced"]);
    const post = await postOn(t, [t.accounts[0]!.id]);
    await publishOnSandbox(post.rows[0]!, sandboxAccount(t));
    failNextAnnounce();
    const first = await runQueue("analytics-sync", [{ id: "sync-late", body: { row_id: post.rows[0] } }]);
    expect(first.retryMessages).toHaveLength(0);
    const [row] = await outboxOf(post.rows[0]!, "analytics.synced");
    expect(row).toMatchObject({ version: "sync-late" });
    // The job redelivered syncs again; its event is the row already recorded.
    const again = await runQueue("analytics-sync", [{ id: "sync-late", body: { row_id: post.rows[0] } }]);
    expect(again.retryMessages).toHaveLength(0);
    expect(await outboxOf(post.rows[0]!, "analytics.synced")).toHaveLength(1);
    await sweepAfterGrace(row!);
    const [request] = await receiver.waitFor("analytics.synced");
    expect(request!.headers["webhook-id"]).toBe(`evt_analytics.synced_${post.rows[0]}_sync-late`);
    const [delivery] = await deliveriesSettled(`evt_analytics.synced_${post.rows[0]}_sync-late`);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(receiver.of("analytics.synced")).toHaveLength(1);
  });
});
