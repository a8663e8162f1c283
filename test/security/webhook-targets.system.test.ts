// Robustness, third round, item 9: webhook targets on any port, with the deliveries log quoting 200
// characters of every answer, made a small port probe of public hosts (and a reader of what other
// services answer to a POST). Targets are now refused unless on port 443 or 80 (the tests' loopback
// switch aside), and only a plain-text or JSON answer, what a receiver writes, is quoted.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Origins } from "../media/support";
import { call } from "../support/client";
import { createTenant } from "../support/seed";
import {
  createWebhook,
  deliver,
  deliveriesOf,
  emitCaptured,
  installOrigins,
  Receiver,
  receiverUrl,
  testEvent,
} from "../webhooks/support";

let origins: Origins;
beforeEach(() => {
  origins = installOrigins();
});
afterEach(() => vi.restoreAllMocks());

const create = (key: string, workspaceId: number, url: string) =>
  call("POST", "/api/v1/webhooks", {
    key,
    body: { workspace_id: workspaceId, url, events: ["media.ready"] },
  });

describe("webhook target ports", () => {
  it("refuses any port but 443 and 80 with a 422 on url", async () => {
    const t = await createTenant();
    for (const port of [8443, 8080, 22, 6379, 9200, 3000, 1]) {
      for (const scheme of ["https", "http"]) {
        const res = await create(t.key, t.workspace.id, `${scheme}://hooks.example.com:${port}/in`);
        expect(res.status, `${scheme} ${port}`).toBe(422);
        expect(res.body.errors.url).toEqual([`The url must use port 443 or 80, not ${port}.`]);
      }
    }
    for (const url of [
      "https://hooks.example.com/in",
      "https://hooks.example.com:443/in",
      "http://hooks.example.com:80/in",
      "http://hooks.example.com:443/in",
      "https://hooks.example.com:80/in",
    ]) {
      const res = await create(t.key, t.workspace.id, url);
      expect(res.status, url).toBe(201);
    }
  });

  it("refuses to deliver to an endpoint stored with another port, without a request", async () => {
    const t = await createTenant();
    const url = `${receiverUrl("").replace(".test", ".test:8080")}/hooks`;
    const receiver = new Receiver(origins, url);
    // Stored as an older version would have taken it, with a real secret (it is decrypted first).
    const hook = await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiverUrl(),
      events: ["media.ready"],
    });
    const endpointId = (await env.DB.prepare(
      "INSERT INTO webhook_endpoints (workspace_id, url, events, secret_enc) SELECT workspace_id, ?, events, secret_enc FROM webhook_endpoints WHERE id = ? RETURNING id",
    )
      .bind(url, hook.id)
      .first<{ id: number }>())!.id;
    await deliver(await emitCaptured(testEvent(t.workspace.id)));
    expect(receiver.received).toEqual([]);
    const [listed] = await deliveriesOf(t.key, endpointId);
    expect(listed.attempts[0]).toMatchObject({
      response_status: null,
      error: "refused URL: port 8080 is not allowed: webhooks are sent to port 443 or 80",
      response_excerpt: null,
    });
  });
});

describe("what the deliveries log quotes of an answer", () => {
  async function attemptAgainst(answer: () => Response) {
    const t = await createTenant();
    const url = receiverUrl();
    new Receiver(origins, url, [answer]);
    const hook = await createWebhook(t.key, { workspace_id: t.workspace.id, url, events: ["media.ready"] });
    const [deliveryId] = await emitCaptured(testEvent(t.workspace.id));
    await deliver([deliveryId!]);
    const [listed] = await deliveriesOf(t.key, hook.id);
    return listed.attempts[0];
  }

  it("does not quote an HTML page or any other answer a receiver would not write", async () => {
    const page = `<html><head><title>404 Not Found</title></head><body><center>nginx/1.18.0 (Ubuntu)</center>${"x".repeat(300)}</body></html>`;
    const html = await attemptAgainst(
      () => new Response(page, { status: 404, headers: { "content-type": "text/html; charset=utf-8" } }),
    );
    expect(html).toMatchObject({
      response_status: 404,
      error: "HTTP 404 (text/html answer not quoted)",
      response_excerpt: null,
    });
    const binary = await attemptAgainst(
      () =>
        new Response(new Uint8Array(64), {
          status: 500,
          headers: { "content-type": "application/octet-stream" },
        }),
    );
    expect(binary).toMatchObject({
      response_status: 500,
      error: "HTTP 500 (application/octet-stream answer not quoted)",
      response_excerpt: null,
    });
    // Not even on success.
    const accepted = await attemptAgainst(
      () => new Response(page, { status: 200, headers: { "content-type": "text/html" } }),
    );
    expect(accepted).toMatchObject({ response_status: 200, error: null, response_excerpt: null });
  });

  it("quotes a receiver's plain-text or JSON answer, 200 characters at most", async () => {
    const text = await attemptAgainst(
      () => new Response("signature mismatch", { status: 400, headers: { "content-type": "text/plain" } }),
    );
    expect(text).toMatchObject({
      response_status: 400,
      error: "HTTP 400",
      response_excerpt: "signature mismatch",
    });
    const json = await attemptAgainst(() => Response.json({ error: "y".repeat(500) }, { status: 422 }));
    expect(json.response_excerpt).toBe(`{"error":"${"y".repeat(190)}`);
  });
});
