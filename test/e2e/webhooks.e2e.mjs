// Webhooks end to end through `wrangler dev` (./worker.mjs) and a receiver this test starts on
// loopback: a Node HTTP server on 127.0.0.1, allowed only through IMPORT_ALLOWED_PRIVATE_HOSTS, the
// switch that allows loopback media imports. Posts published on the sandbox reach it through the real
// local queues as post.published and post.failed, each verified with the `standardwebhooks` library
// from npm; a receiver that fails is retried after the backoff's first delay and the deliveries log
// shows both attempts; a loopback URL the switch does not list is refused.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { test } from "node:test";
import { Webhook } from "standardwebhooks";
import { adminCall, freePort, startWorker } from "./worker.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** A receiver on 127.0.0.1: records every request; `fail` counts answers of 503 still to give. */
async function startReceiver(cleanup) {
  const received = [];
  const state = { fail: 0 };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ path: req.url, headers: req.headers, body, at: Date.now() });
      if (state.fail > 0) {
        state.fail -= 1;
        res.writeHead(503, { "content-type": "text/plain" }).end("busy, try later");
      } else res.writeHead(204).end();
    });
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  return { port, received, state };
}

test("webhooks reach a loopback receiver, signed, and are retried", { timeout: 300_000 }, async (t) => {
  const cleanup = [];
  t.after(async () => {
    for (const undo of cleanup.reverse()) await undo();
  });
  const receiver = await startReceiver(cleanup);
  const base = await startWorker(cleanup, {
    vars: { IMPORT_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${receiver.port}` },
  });

  const user = await adminCall(base, "POST", "/users", {
    name: "Hooked",
    email: `hooked-${Date.now()}@example.test`,
  });
  const workspace = await adminCall(base, "POST", "/workspaces", { user_id: user.id, name: "Hooks" });
  const account = await adminCall(base, "POST", "/accounts", {
    workspace_id: workspace.id,
    platform: "twitter",
    username: "hooked",
    name: "Hooked",
  });
  const { key } = await adminCall(base, "POST", "/api-keys", {
    user_id: user.id,
    abilities: ["posts", "workspaces"],
  });
  const api = async (method, path, body) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: await res.json() };
  };

  // A loopback address the switch does not list is refused; the listed one is taken.
  const refused = await api("POST", "/webhooks", {
    workspace_id: workspace.id,
    url: `http://127.0.0.1:${receiver.port + 1}/hooks`,
    events: ["post.published"],
  });
  assert.equal(refused.status, 422);
  assert.ok(refused.body.errors.url);
  const created = await api("POST", "/webhooks", {
    workspace_id: workspace.id,
    url: `http://127.0.0.1:${receiver.port}/hooks`,
    events: ["post.published", "post.failed"],
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const webhook = new Webhook(created.body.secret);

  const publish = async (text) => {
    const res = await api("POST", "/posts", {
      workspace_id: workspace.id,
      accounts: [account.id],
      content: [{ text }],
      publish_now: true,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  };
  const eventOf = (type, postId) =>
    receiver.received.find((r) => {
      const parsed = JSON.parse(r.body);
      return parsed.type === type && parsed.data.id === postId;
    });

  const ok = await publish("Hello from the sandbox");
  const bad = await publish("Rejected #sandbox-fail");
  const published = await until(() => eventOf("post.published", ok), "post.published");
  const failed = await until(() => eventOf("post.failed", bad), "post.failed");
  const event = webhook.verify(published.body, published.headers);
  assert.equal(event.type, "post.published");
  assert.equal(event.data.status, "PUBLISHED");
  assert.equal(published.headers["webhook-id"], event.id);
  const failure = webhook.verify(failed.body, failed.headers);
  assert.equal(failure.data.platforms[0].status, "FAILED");
  assert.match(failure.data.platforms[0].error.message, /#sandbox-fail/);
  assert.throws(() => webhook.verify(`${published.body} `, published.headers));

  // The receiver is down for one request: the delivery is retried after 30 seconds.
  receiver.state.fail = 1;
  const later = await publish("Retried delivery");
  const attempts = await until(
    () => {
      const hits = receiver.received.filter((r) => JSON.parse(r.body).data.id === later);
      return hits.length >= 2 ? hits : null;
    },
    "the retry",
    120_000,
  );
  assert.equal(attempts[0].headers["webhook-id"], attempts[1].headers["webhook-id"]);
  assert.ok(attempts[1].at - attempts[0].at >= 25_000, `retried after ${attempts[1].at - attempts[0].at} ms`);
  webhook.verify(attempts[1].body, attempts[1].headers);

  const log = await until(async () => {
    const res = await api("GET", `/webhooks/${created.body.id}/deliveries`);
    const delivery = res.body.data.find((d) => d.event_id === attempts[0].headers["webhook-id"]);
    return delivery?.status === "succeeded" ? delivery : null;
  }, "the deliveries log");
  assert.deepEqual(
    log.attempts.map((a) => [a.attempt, a.response_status, a.error]),
    [
      [1, 503, "HTTP 503"],
      [2, 204, null],
    ],
  );
  assert.equal(log.attempts[0].response_excerpt, "busy, try later");
  // Three events, each once.
  await sleep(2_000);
  assert.equal(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size, 3);
});
