// An account's health (GET /api/v1/accounts/{id} and the list) and its repair: POST
// /api/v1/accounts/{id}/reconnect runs the connect's browser flow through the sandbox's consent and must
// end on the same platform identity; a connect whose API key was revoked meanwhile stores nothing.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { refreshStoredToken } from "../../src/accounts/tokens";
import { decryptSecret, encryptSecret } from "../../src/lib/crypto";
import { APP_CALLBACK, connectInto, createApp, createSession, runFlow } from "../delegation/support";
import { admin, call } from "../support/client";
import { createPost, createTenant, inMinutes } from "../support/seed";

const REDIRECT = "https://app.example.test/accounts/done";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

async function reconnect(t: Tenant, id: number) {
  const res = await call<{ authorize_url: string; expires_in: number }>(
    "POST",
    `/api/v1/accounts/${id}/reconnect`,
    { key: t.key, body: { redirect_url: REDIRECT } },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const stored = (id: number) =>
  env.DB.prepare("SELECT * FROM accounts WHERE id = ?").bind(id).first<Record<string, any>>();

/** The platform refuses the account's refresh for good: it is marked expired, as publishing would. */
async function expire(id: number) {
  const bad = await encryptSecret(env.ENCRYPTION_KEY, "revoked-refresh-token");
  await env.DB.prepare("UPDATE accounts SET refresh_token_enc = ?, token_expires_at = ? WHERE id = ?")
    .bind(bad, Date.now() + 60_000, id)
    .run();
  expect(await refreshStoredToken(env, id, null)).toEqual({ kind: "expired" });
}

const getAccount = (t: Tenant, id: number) => call("GET", `/api/v1/accounts/${id}`, { key: t.key });

describe("account health", () => {
  it("shows has_expired and health in GET /accounts/{id} and in the list, through refreshes", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "healthy", "twitter", REDIRECT);
    const row = (await stored(id))!;
    const fresh = await getAccount(t, id);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({
      id,
      platform: "twitter",
      username: "healthy",
      name: "healthy",
      avatar: "https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png",
      workspace_id: t.workspace.id,
      has_expired: false,
      health: {
        status: "ok",
        token_expires_at: new Date(row.token_expires_at).toISOString(),
        last_refreshed_at: null,
        last_error: null,
      },
    });
    const list = await call("GET", "/api/v1/accounts", { key: t.key });
    expect(list.body.data).toContainEqual(fresh.body);

    // A successful refresh is recorded.
    await env.DB.prepare("UPDATE accounts SET token_expires_at = ?, last_error = ? WHERE id = ?")
      .bind(Date.now() + 60_000, JSON.stringify({ code: "platform_unavailable", message: "x" }), id)
      .run();
    const before = Date.now();
    expect((await refreshStoredToken(env, id, null)).kind).toBe("ok");
    const refreshed = (await getAccount(t, id)).body;
    expect(refreshed.health.status).toBe("ok");
    expect(Date.parse(refreshed.health.last_refreshed_at)).toBeGreaterThanOrEqual(before);
    expect(refreshed.health.last_error).toBeNull();
    expect(Date.parse(refreshed.health.token_expires_at)).toBeGreaterThan(Date.now() + 3600_000);

    // Refused for good: reauth_required, with the platform's error.
    await expire(id);
    const lost = await getAccount(t, id);
    expect(lost.body.has_expired).toBe(true);
    expect(lost.body.health).toMatchObject({
      status: "reauth_required",
      last_error: { code: expect.any(String), message: expect.any(String) },
    });
    expect((await call("GET", "/api/v1/accounts", { key: t.key })).body.data).toContainEqual(lost.body);
  });

  it("records a transient refresh failure in last_error and keeps the status ok", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "flaky_refresh", "twitter", REDIRECT);
    await env.DB.prepare("UPDATE accounts SET token_expires_at = ? WHERE id = ?")
      .bind(Date.now() + 60_000, id)
      .run();
    // The platform is not reachable as configured (no sandbox, no OAuth app): not a refusal of the grant.
    const unconfigured = { ...env, SANDBOX: "false" } as Env;
    expect(await refreshStoredToken(unconfigured, id, null)).toMatchObject({
      kind: "failed",
      code: "platform_not_configured",
    });
    const shown = (await getAccount(t, id)).body;
    expect(shown.has_expired).toBe(false);
    expect(shown.health).toMatchObject({
      status: "ok",
      last_refreshed_at: null,
      last_error: { code: "platform_not_configured", message: expect.stringMatching(/not configured/) },
    });
    // The next successful refresh clears it.
    expect((await refreshStoredToken(env, id, null)).kind).toBe("ok");
    expect((await getAccount(t, id)).body.health.last_error).toBeNull();
  });

  it("answers 404 for another tenant's account", async () => {
    const alice = await createTenant();
    const bob = await createTenant();
    const res = await getAccount(alice, bob.accounts[0]!.id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Account not found." });
  });
});

describe("POST /api/v1/accounts/{id}/reconnect", () => {
  it("reconnects the same identity: same id, posts kept, tokens refreshed, has_expired cleared", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "phoenix", "twitter", REDIRECT);
    const post = await createPost(t, { accounts: [id], scheduled_at: inMinutes(60) });
    await expire(id);
    const before = (await stored(id))!;
    expect(before.expired_at).toBeGreaterThan(0);

    const started = await reconnect(t, id);
    expect(started.expires_in).toBe(900);
    const { landed } = await runFlow(started.authorize_url, { handle: "phoenix" });
    expect(landed.searchParams.get("status")).toBe("connected");
    expect(Number(landed.searchParams.get("account_id"))).toBe(id);
    expect(landed.searchParams.get("platform")).toBe("twitter");

    const after = (await stored(id))!;
    expect(after.expired_at).toBeNull();
    expect(after.last_error).toBeNull();
    expect(after.token_expires_at).toBeGreaterThan(Date.now());
    expect(await decryptSecret(env.ENCRYPTION_KEY, after.refresh_token_enc)).not.toBe(
      "revoked-refresh-token",
    );
    const shown = (await getAccount(t, id)).body;
    expect(shown).toMatchObject({ id, has_expired: false, health: { status: "ok", last_error: null } });
    const rows = await env.DB.prepare("SELECT account_id FROM post_platforms WHERE post_id = ?")
      .bind(post.id)
      .all();
    expect(rows.results).toEqual([{ account_id: id }]);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM accounts WHERE workspace_id = ?")
      .bind(t.workspace.id)
      .first<{ n: number }>();
    expect(count!.n).toBe(3);
  });

  it("brings a disconnected account back: GET is 404 once disconnected, a new connect restores it", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "comeback", "twitter", REDIRECT);
    const gone = await call("DELETE", `/api/v1/accounts/${id}`, { key: t.key });
    expect(gone.status).toBe(200);
    expect((await getAccount(t, id)).status).toBe(404);
    const listed = await call("GET", "/api/v1/accounts", { key: t.key });
    expect(listed.body.data.map((a: { id: number }) => a.id)).not.toContain(id);

    // A connect of the same identity in the same workspace: the same account, its id and history.
    expect(await connectInto(t, "comeback", "twitter", REDIRECT)).toBe(id);
    expect((await stored(id))!.disconnected_at).toBeNull();
    const back = await getAccount(t, id);
    expect(back.status).toBe(200);
    expect(back.body.health.status).toBe("ok");
    const relisted = await call("GET", "/api/v1/accounts", { key: t.key });
    expect(relisted.body.data.map((a: { id: number }) => a.id)).toContain(id);
  });

  it("refuses another identity with connection_failed and leaves the account unchanged", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "original", "twitter", REDIRECT);
    await expire(id);
    const before = (await stored(id))!;
    const { landed } = await runFlow((await reconnect(t, id)).authorize_url, { handle: "impostor" });
    expect(`${landed.origin}${landed.pathname}`).toBe(REDIRECT);
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect(landed.searchParams.get("error_description")).toMatch(/not the one being reconnected/);
    expect(landed.searchParams.has("account_id")).toBe(false);
    expect(await stored(id)).toEqual(before);
    const usernames = await env.DB.prepare("SELECT username FROM accounts WHERE workspace_id = ?")
      .bind(t.workspace.id)
      .all<{ username: string }>();
    expect(usernames.results.map((r) => r.username)).not.toContain("impostor");
  });

  it("keeps a channel account only when the same channel is picked", async () => {
    const t = await createTenant();
    const start = await call("POST", "/api/v1/accounts/connect", {
      key: t.key,
      body: { workspace_id: t.workspace.id, platform: "facebook", redirect_url: REDIRECT },
    });
    const first = await runFlow(start.body.authorize_url, { handle: "pages", channel: () => 0 });
    const id = Number(first.landed.searchParams.get("account_id"));
    expect(id).toBeGreaterThan(0);
    const before = (await stored(id))!;
    const other = await runFlow((await reconnect(t, id)).authorize_url, {
      handle: "pages",
      channel: () => 1,
    });
    expect(other.landed.searchParams.get("error")).toBe("connection_failed");
    expect(await stored(id)).toEqual(before);
    const same = await runFlow((await reconnect(t, id)).authorize_url, { handle: "pages", channel: () => 0 });
    expect(Number(same.landed.searchParams.get("account_id"))).toBe(id);
  });

  it("answers 404 for another tenant's account, and starts no flow", async () => {
    const alice = await createTenant();
    const bob = await createTenant();
    const res = await call("POST", `/api/v1/accounts/${bob.accounts[0]!.id}/reconnect`, {
      key: alice.key,
      body: { redirect_url: REDIRECT },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Account not found." });
  });
});

describe("a connect whose API key is revoked before its callback", () => {
  it("stores nothing and ends with connection_failed", async () => {
    const t = await createTenant();
    const res = await call("POST", "/api/v1/accounts/connect", {
      key: t.key,
      body: { workspace_id: t.workspace.id, platform: "twitter", redirect_url: REDIRECT },
    });
    expect(res.status).toBe(201);
    expect((await admin("DELETE", `/api-keys/${t.keyId}`)).status).toBe(200);
    const { landed } = await runFlow(res.body.authorize_url, { handle: "too_late" });
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect(landed.searchParams.get("error_description")).toMatch(/API key/);
    const found = await env.DB.prepare("SELECT id FROM accounts WHERE workspace_id = ? AND username = ?")
      .bind(t.workspace.id, "too_late")
      .all();
    expect(found.results).toEqual([]);
  });

  it("signs no proof for a delegation session either", async () => {
    const app = await createApp();
    const authorizeUrl = await createSession(app);
    expect((await admin("DELETE", `/api-keys/${app.keyId}`)).status).toBe(200);
    const { landed } = await runFlow(authorizeUrl, { handle: "late_proof" });
    expect(`${landed.origin}${landed.pathname}`).toBe(APP_CALLBACK);
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect(landed.searchParams.has("signature")).toBe(false);
    expect(landed.searchParams.has("platform_id")).toBe(false);
  });

  it("stores nothing when the key lost the accounts ability meanwhile (connect and reconnect)", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "demoted", "twitter", REDIRECT);
    await expire(id);
    const before = (await stored(id))!;
    const { authorize_url } = await reconnect(t, id);
    const connect = await call("POST", "/api/v1/accounts/connect", {
      key: t.key,
      body: { workspace_id: t.workspace.id, platform: "twitter", redirect_url: REDIRECT },
    });
    expect(connect.status).toBe(201);
    expect((await admin("PATCH", `/api-keys/${t.keyId}`, { abilities: ["posts"] })).status).toBe(200);
    for (const [url, handle] of [
      [authorize_url, "demoted"],
      [connect.body.authorize_url, "demoted_new"],
    ]) {
      const { landed } = await runFlow(url, { handle });
      expect(landed.searchParams.get("error")).toBe("connection_failed");
      expect(landed.searchParams.get("error_description")).toMatch(/API key/);
    }
    expect(await stored(id)).toEqual(before);
    const found = await env.DB.prepare("SELECT id FROM accounts WHERE workspace_id = ? AND username = ?")
      .bind(t.workspace.id, "demoted_new")
      .all();
    expect(found.results).toEqual([]);
  });

  it("stores nothing for a reconnect either", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "revoker", "twitter", REDIRECT);
    await expire(id);
    const before = (await stored(id))!;
    const { authorize_url } = await reconnect(t, id);
    expect((await admin("DELETE", `/api-keys/${t.keyId}`)).status).toBe(200);
    const { landed } = await runFlow(authorize_url, { handle: "revoker" });
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect(await stored(id)).toEqual(before);
  });
});

describe("reconnecting a disconnected account", () => {
  it("is a 404, as for any account outside /accounts", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "gone_before", "twitter", REDIRECT);
    expect((await call("DELETE", `/api/v1/accounts/${id}`, { key: t.key })).status).toBe(200);
    const res = await call("POST", `/api/v1/accounts/${id}/reconnect`, {
      key: t.key,
      body: { redirect_url: REDIRECT },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Account not found." });
  });

  it("a reconnect finishing after the disconnect revives nothing (connection_failed)", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "gone_during", "twitter", REDIRECT);
    const { authorize_url } = await reconnect(t, id);
    expect((await call("DELETE", `/api/v1/accounts/${id}`, { key: t.key })).status).toBe(200);
    const before = (await stored(id))!;
    const { landed } = await runFlow(authorize_url, { handle: "gone_during" });
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect(landed.searchParams.get("error_description")).toMatch(/disconnected/);
    expect(await stored(id)).toEqual(before);
    expect(before.disconnected_at).not.toBeNull();
    expect(before.access_token_enc).toBeNull();
  });
});
