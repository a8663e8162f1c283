// The webhook endpoints API. Creating one: the secret (shown once, stored encrypted), the URL guard at
// registration (the media importer's SSRF table), the allow-list switch tests use for loopback,
// validation and the per-workspace limit. After creation: list and get (no secrets), roll the secret,
// re-enable, delete, another tenant's endpoints as not found, and the Idempotency-Key of a create.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { app } from "../../src/app";
import { MAX_ENDPOINTS_PER_WORKSPACE } from "../../src/webhooks/catalog";
import { checkTargetUrl } from "../../src/webhooks/target";
import { REFUSED } from "../media/ssrf-table";
import { call } from "../support/client";
import { createTenant } from "../support/seed";
import { createWebhook, endpointRow, installOrigins, receiverUrl } from "./support";

beforeEach(() => {
  installOrigins();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe("creating an endpoint", () => {
  it("answers 201 with the endpoint and a whsec_ secret of 32 random bytes, stored encrypted", async () => {
    const t = await createTenant();
    const url = receiverUrl();
    const res = await call("POST", "/api/v1/webhooks", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        url,
        events: ["post.published", "post.failed", "post.published"],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      workspace_id: t.workspace.id,
      url,
      events: ["post.published", "post.failed"],
      status: "enabled",
      disabled_at: null,
      disabled_reason: null,
      failing_since: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
      updated_at: expect.any(String),
      secret: expect.stringMatching(SECRET),
    });
    expect(atob(res.body.secret.slice(6))).toHaveLength(32);
    const row = await endpointRow(res.body.id);
    expect(row!.secret_enc).toMatch(/^v2:/);
    expect(row!.secret_enc).not.toContain(res.body.secret.slice(6));
    const other = await createWebhook(t.key, { workspace_id: t.workspace.id, url, events: ["media.ready"] });
    expect(other.secret).not.toBe(res.body.secret);
  });

  it("refuses every private, loopback and link-local spelling of the SSRF table", async () => {
    const urls = REFUSED.map(([url]) => url);
    for (const url of urls) expect(checkTargetUrl(url, env).ok, url).toBe(false);
    // Through the endpoint, a sample (the user's minute allows 60 requests): each a 422 on url.
    const t = await createTenant();
    for (const url of urls.filter((u) => u.length <= 2048).filter((_, i) => i % 4 === 0)) {
      const res = await call("POST", "/api/v1/webhooks", {
        key: t.key,
        body: { workspace_id: t.workspace.id, url, events: ["post.published"] },
      });
      expect(res.status, url).toBe(422);
      expect(Object.keys(res.body.errors), url).toEqual(["url"]);
    }
    const list = await call("GET", `/api/v1/webhooks?workspace_id=${t.workspace.id}`, { key: t.key });
    expect(list.body.data).toEqual([]);
  });

  it("refuses other schemes, credentials, local names and URLs over 2048 characters", async () => {
    const t = await createTenant();
    for (const url of [
      "ftp://example.com/hook",
      "javascript:alert(1)",
      "https://user:pass@example.com/hook",
      "http://localhost/hook",
      "http://printer.local/hook",
      "http://intranet/hook",
      `https://example.com/${"a".repeat(2040)}`,
      "not a url",
    ]) {
      const res = await call("POST", "/api/v1/webhooks", {
        key: t.key,
        body: { workspace_id: t.workspace.id, url, events: ["post.published"] },
      });
      expect(res.status, url).toBe(422);
      expect(res.body.errors.url, url).toBeDefined();
    }
  });

  it("takes a loopback URL only when IMPORT_ALLOWED_PRIVATE_HOSTS lists its host:port", async () => {
    const t = await createTenant();
    const post = (allowed: string) =>
      app.request(
        "https://api.example.test/api/v1/webhooks",
        {
          method: "POST",
          headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
          body: JSON.stringify({
            workspace_id: t.workspace.id,
            url: "http://127.0.0.1:9917/hooks",
            events: ["post.published"],
          }),
        },
        { ...env, IMPORT_ALLOWED_PRIVATE_HOSTS: allowed },
      );
    expect((await post("127.0.0.1:9918")).status).toBe(422);
    expect((await post("")).status).toBe(422);
    expect((await post("127.0.0.1:9917")).status).toBe(201);
  });

  it("validates the events and the body like every create", async () => {
    const t = await createTenant();
    const url = receiverUrl();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ workspace_id: t.workspace.id, url, events: [] }, ["events"]],
      [{ workspace_id: t.workspace.id, url, events: ["post.deleted"] }, ["events.0"]],
      [{ workspace_id: t.workspace.id, url }, ["events"]],
      [{ workspace_id: t.workspace.id, events: ["post.published"] }, ["url"]],
      [{ url, events: ["post.published"] }, ["workspace_id"]],
      [{ workspace_id: "1", url: 5, events: "post.published" }, ["workspace_id", "url", "events"]],
    ];
    for (const [body, fields] of cases) {
      const res = await call("POST", "/api/v1/webhooks", { key: t.key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors).sort(), JSON.stringify(body)).toEqual([...fields].sort());
    }
  });

  it(`holds at most ${MAX_ENDPOINTS_PER_WORKSPACE} endpoints per workspace`, async () => {
    const t = await createTenant();
    for (let i = 0; i < MAX_ENDPOINTS_PER_WORKSPACE; i++)
      await createWebhook(t.key, {
        workspace_id: t.workspace.id,
        url: receiverUrl(),
        events: ["media.ready"],
      });
    const res = await call("POST", "/api/v1/webhooks", {
      key: t.key,
      body: { workspace_id: t.workspace.id, url: receiverUrl(), events: ["media.ready"] },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.workspace_id[0]).toContain(`at most ${MAX_ENDPOINTS_PER_WORKSPACE}`);
  });
});

describe("reading, rolling, enabling and deleting", () => {
  it("lists and gets endpoints without their secrets, per workspace or all", async () => {
    const t = await createTenant();
    const a = await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiverUrl(),
      events: ["post.published"],
    });
    const b = await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiverUrl(),
      events: ["media.ready"],
    });
    const list = await call("GET", `/api/v1/webhooks?workspace_id=${t.workspace.id}`, { key: t.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: any) => w.id)).toEqual([a.id, b.id]);
    expect(JSON.stringify(list.body)).not.toContain("whsec_");
    const all = await call("GET", "/api/v1/webhooks", { key: t.key });
    expect(all.body.data.map((w: any) => w.id)).toEqual([a.id, b.id]);
    const one = await call("GET", `/api/v1/webhooks/${a.id}`, { key: t.key });
    expect(one.status).toBe(200);
    const { secret: _secret, ...shown } = a;
    expect(one.body).toEqual(shown);
  });

  it("rolls the secret: a new one shown once, the old one kept for 24 hours", async () => {
    const t = await createTenant();
    const hook = await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiverUrl(),
      events: ["post.published"],
    });
    const before = await endpointRow(hook.id);
    const res = await call("POST", `/api/v1/webhooks/${hook.id}/roll-secret`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(SECRET);
    expect(res.body.secret).not.toBe(hook.secret);
    const after = await endpointRow(hook.id);
    expect(after!.previous_secret_enc).toBe(before!.secret_enc);
    expect(after!.previous_secret_expires_at).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });

  it("re-enables a disabled endpoint", async () => {
    const t = await createTenant();
    const hook = await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiverUrl(),
      events: ["post.published"],
    });
    await env.DB.prepare(
      "UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = 'x', failing_since = ? WHERE id = ?",
    )
      .bind(Date.now(), Date.now() - 4 * 86_400_000, hook.id)
      .run();
    const disabled = await call("GET", `/api/v1/webhooks/${hook.id}`, { key: t.key });
    expect(disabled.body).toMatchObject({ status: "disabled", disabled_reason: "x" });
    expect(disabled.body.disabled_at).not.toBeNull();
    const res = await call("POST", `/api/v1/webhooks/${hook.id}/enable`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "enabled",
      disabled_at: null,
      disabled_reason: null,
      failing_since: null,
    });
  });

  it("deletes an endpoint, then it is 404 everywhere", async () => {
    const t = await createTenant();
    const hook = await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiverUrl(),
      events: ["post.published"],
    });
    const res = await call("DELETE", `/api/v1/webhooks/${hook.id}`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Webhook deleted successfully." });
    for (const [method, path] of [
      ["GET", `/api/v1/webhooks/${hook.id}`],
      ["DELETE", `/api/v1/webhooks/${hook.id}`],
      ["POST", `/api/v1/webhooks/${hook.id}/roll-secret`],
      ["POST", `/api/v1/webhooks/${hook.id}/enable`],
      ["GET", `/api/v1/webhooks/${hook.id}/deliveries`],
    ] as const) {
      const answer = await call(method, path, { key: t.key });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toEqual({ message: "Webhook not found." });
    }
  });

  it("treats another tenant's endpoints and workspace as not found, and changes nothing", async () => {
    const victim = await createTenant();
    const attacker = await createTenant();
    const hook = await createWebhook(victim.key, {
      workspace_id: victim.workspace.id,
      url: receiverUrl(),
      events: ["post.published"],
    });
    const before = await endpointRow(hook.id);
    for (const [method, path] of [
      ["GET", `/api/v1/webhooks/${hook.id}`],
      ["DELETE", `/api/v1/webhooks/${hook.id}`],
      ["POST", `/api/v1/webhooks/${hook.id}/roll-secret`],
      ["POST", `/api/v1/webhooks/${hook.id}/enable`],
      ["GET", `/api/v1/webhooks/${hook.id}/deliveries`],
      ["GET", `/api/v1/webhooks?workspace_id=${victim.workspace.id}`],
    ] as const) {
      const answer = await call(method, path, { key: attacker.key });
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    const create = await call("POST", "/api/v1/webhooks", {
      key: attacker.key,
      body: { workspace_id: victim.workspace.id, url: receiverUrl(), events: ["post.published"] },
    });
    expect(create.status).toBe(404);
    const all = await call("GET", "/api/v1/webhooks", { key: attacker.key });
    expect(all.body.data).toEqual([]);
    expect(await endpointRow(hook.id)).toEqual(before);
  });
});

describe("Idempotency-Key", () => {
  it("replays the first answer, secret included, and creates one endpoint", async () => {
    const t = await createTenant();
    const body = { workspace_id: t.workspace.id, url: receiverUrl(), events: ["post.published"] };
    const headers = { "idempotency-key": "create-hook-1" };
    const first = await call("POST", "/api/v1/webhooks", { key: t.key, body, headers });
    const again = await call("POST", "/api/v1/webhooks", { key: t.key, body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const list = await call("GET", `/api/v1/webhooks?workspace_id=${t.workspace.id}`, { key: t.key });
    expect(list.body.data).toHaveLength(1);
  });
});
