// Connecting an account by OAuth (POST /api/v1/accounts/connect, then the browser through the sandbox's
// consent) and disconnecting it (DELETE /api/v1/accounts/{id}).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decryptSecret } from "../../src/lib/crypto";
import { Browser, locationOf, runFlow } from "../delegation/support";
import { admin, call } from "../support/client";
import { createPost, createTenant, inMinutes } from "../support/seed";

const CONNECT = "/api/v1/accounts/connect";
const REDIRECT = "https://app.example.test/accounts/done?from=settings";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

async function connect(t: Tenant, body: Record<string, unknown> = {}) {
  const res = await call<{ authorize_url: string; expires_in: number }>("POST", CONNECT, {
    key: t.key,
    body: { workspace_id: t.workspace.id, platform: "twitter", redirect_url: REDIRECT, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

type StoredAccount = {
  id: number;
  workspace_id: number;
  platform: string;
  platform_user_id: string | null;
  username: string;
  name: string;
  access_token_enc: string | null;
  refresh_token_enc: string | null;
  token_expires_at: number | null;
};

const stored = (id: number) =>
  env.DB.prepare("SELECT * FROM accounts WHERE id = ?").bind(id).first<StoredAccount>();

describe("POST /api/v1/accounts/connect", () => {
  it("connects an account through the platform's consent and stores its tokens encrypted", async () => {
    const t = await createTenant();
    const started = await connect(t);
    expect(started.expires_in).toBe(900);
    expect(started.authorize_url).toMatch(/^https:\/\/api\.example\.test\/api\/oauth\/delegate\/authorize\//);
    const before = Date.now();
    const { landed } = await runFlow(started.authorize_url, { handle: "grace_hopper" });

    expect(`${landed.origin}${landed.pathname}`).toBe("https://app.example.test/accounts/done");
    const q = landed.searchParams;
    expect(q.get("from")).toBe("settings");
    expect(q.get("status")).toBe("connected");
    expect(q.get("platform")).toBe("twitter");
    const accountId = Number(q.get("account_id"));
    expect(accountId).toBeGreaterThan(0);

    const list = await call("GET", "/api/v1/accounts", { key: t.key });
    expect(list.body.data).toContainEqual({
      id: accountId,
      platform: "twitter",
      username: "grace_hopper",
      name: "grace_hopper",
      // X answers every user's profile_image_url (its default picture for the sandbox's users).
      avatar: "https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png",
      workspace_id: t.workspace.id,
      has_expired: false,
      health: expect.objectContaining({ status: "ok", last_error: null }),
    });

    const row = (await stored(accountId))!;
    expect(row.platform_user_id).toMatch(/^\d{18}$/);
    // Encrypted at rest: the v2 format, never the token itself.
    expect(row.access_token_enc).toMatch(/^v2:/);
    expect(row.refresh_token_enc).toMatch(/^v2:/);
    const access = await decryptSecret(env.ENCRYPTION_KEY, row.access_token_enc!);
    const refresh = await decryptSecret(env.ENCRYPTION_KEY, row.refresh_token_enc!);
    expect(access.length).toBeGreaterThan(10);
    expect(refresh.length).toBeGreaterThan(10);
    const dump = JSON.stringify(await env.DB.prepare("SELECT * FROM accounts").all());
    expect(dump).not.toContain(access);
    expect(dump).not.toContain(refresh);
    // X's access tokens live two hours.
    expect(row.token_expires_at).toBeGreaterThanOrEqual(before + 7200_000);
    expect(row.token_expires_at).toBeLessThanOrEqual(Date.now() + 7200_000);
  });

  it("updates the same account when the same platform user connects again, with new tokens", async () => {
    const t = await createTenant();
    const first = await runFlow((await connect(t)).authorize_url, { handle: "ada" });
    const id = Number(first.landed.searchParams.get("account_id"));
    const before = (await stored(id))!;
    // Expired meanwhile: a reconnect clears it.
    await env.DB.prepare(
      "UPDATE accounts SET token_expires_at = 1, avatar = 'https://cdn.test/a.png' WHERE id = ?",
    )
      .bind(id)
      .run();

    const again = await runFlow((await connect(t)).authorize_url, { handle: "ada" });
    expect(again.landed.searchParams.get("status")).toBe("connected");
    expect(Number(again.landed.searchParams.get("account_id"))).toBe(id);
    const after = (await stored(id))!;
    expect(after.platform_user_id).toBe(before.platform_user_id);
    expect(await decryptSecret(env.ENCRYPTION_KEY, after.access_token_enc!)).not.toBe(
      await decryptSecret(env.ENCRYPTION_KEY, before.access_token_enc!),
    );
    expect(await decryptSecret(env.ENCRYPTION_KEY, after.refresh_token_enc!)).not.toBe(
      await decryptSecret(env.ENCRYPTION_KEY, before.refresh_token_enc!),
    );
    expect(after.token_expires_at).toBeGreaterThan(Date.now());
    const analytics = await call("GET", "/api/v1/accounts", { key: t.key });
    const mine = analytics.body.data.filter(
      (a: { platform: string; username: string }) => a.username === "ada",
    );
    expect(mine).toEqual([
      {
        id,
        platform: "twitter",
        username: "ada",
        name: "ada",
        // The reconnect refreshed the picture from X's identity answer.
        avatar: "https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png",
        workspace_id: t.workspace.id,
        has_expired: false,
        health: expect.objectContaining({ status: "ok", last_error: null }),
      },
    ]);

    // Another platform user is another account.
    const other = await runFlow((await connect(t)).authorize_url, { handle: "babbage" });
    expect(Number(other.landed.searchParams.get("account_id"))).not.toBe(id);
  });

  it("redirects with access_denied when the user declines, and stores nothing", async () => {
    const t = await createTenant();
    const { landed } = await runFlow((await connect(t)).authorize_url, {
      handle: "nobody",
      decision: "deny",
    });
    expect(`${landed.origin}${landed.pathname}`).toBe("https://app.example.test/accounts/done");
    expect(landed.searchParams.get("error")).toBe("access_denied");
    expect(landed.searchParams.get("error_description")).toMatch(/declined/);
    expect(landed.searchParams.has("status")).toBe(false);
    expect(landed.searchParams.has("state")).toBe(false);
    const list = await call("GET", "/api/v1/accounts", { key: t.key });
    expect(list.body.data).toHaveLength(2);
  });

  it("redirects with connection_failed when the token exchange fails", async () => {
    const t = await createTenant();
    const { landed } = await runFlow((await connect(t)).authorize_url, { handle: "fail" });
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect((await call("GET", "/api/v1/accounts", { key: t.key })).body.data).toHaveLength(2);
  });

  it("lets exactly one of 20 parallel opens of one authorize_url proceed; a later open is expired_request", async () => {
    const t = await createTenant();
    const { authorize_url } = await connect(t);
    const answers = await Promise.all(Array.from({ length: 20 }, () => new Browser().get(authorize_url)));
    const locations = answers.map(locationOf);
    const toConsent = locations.filter((l) => l.startsWith("https://api.example.test/sandbox/"));
    expect(toConsent).toHaveLength(1);
    const refused = locations.filter((l) => !l.startsWith("https://api.example.test/sandbox/"));
    expect(refused).toHaveLength(19);
    for (const location of refused) {
      const url = new URL(location);
      expect(`${url.origin}${url.pathname}`).toBe("https://app.example.test/accounts/done");
      expect(url.searchParams.get("error")).toBe("expired_request");
    }
  });

  it("answers 404 for another tenant's workspace, and creates no flow", async () => {
    const alice = await createTenant();
    const bob = await createTenant();
    const res = await call("POST", CONNECT, {
      key: alice.key,
      body: { workspace_id: bob.workspace.id, platform: "twitter", redirect_url: REDIRECT },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Workspace not found." });
  });

  it("refuses an unknown platform and an unsafe or reserved redirect_url", async () => {
    const t = await createTenant();
    for (const body of [
      { platform: "myspace" },
      { redirect_url: "http://app.example.test/done" },
      { redirect_url: "/relative" },
      { redirect_url: "https://app.example.test/done?status=x" },
      { redirect_url: "https://app.example.test/done#frag" },
    ]) {
      const res = await call("POST", CONNECT, {
        key: t.key,
        body: { workspace_id: t.workspace.id, platform: "twitter", redirect_url: REDIRECT, ...body },
      });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const loopback = await call("POST", CONNECT, {
      key: t.key,
      body: { workspace_id: t.workspace.id, platform: "twitter", redirect_url: "http://127.0.0.1:8080/cb" },
    });
    expect(loopback.status).toBe(201);
  });
});

describe("POST /api/v1/accounts/connect with registered callback origins", () => {
  it("accepts a redirect_url on a registered origin only", async () => {
    const t = await createTenant();
    const set = await admin("PUT", `/api-keys/${t.keyId}/callback-origins`, {
      callback_origins: ["https://app.example.test"],
    });
    expect(set.status).toBe(200);
    const body = { workspace_id: t.workspace.id, platform: "twitter" };
    const elsewhere = await call("POST", CONNECT, {
      key: t.key,
      body: { ...body, redirect_url: "https://evil.example.test/done" },
    });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors.redirect_url).toBeDefined();
    const registered = await call("POST", CONNECT, { key: t.key, body: { ...body, redirect_url: REDIRECT } });
    expect(registered.status).toBe(201);
  });
});

describe("DELETE /api/v1/accounts/{id}", () => {
  it("disconnects the account and cancels its scheduled rows", async () => {
    const t = await createTenant();
    const [gone, kept] = t.accounts as [{ id: number }, { id: number }];
    const alone = await createPost(t, { accounts: [gone.id], scheduled_at: inMinutes(60) });
    const shared = await createPost(t, { accounts: [gone.id, kept.id], scheduled_at: inMinutes(60) });
    const elsewhere = await createPost(t, { accounts: [kept.id], scheduled_at: inMinutes(60) });

    const res = await call("DELETE", `/api/v1/accounts/${gone.id}`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Account disconnected successfully." });

    const list = await call("GET", "/api/v1/accounts", { key: t.key });
    expect(list.body.data.map((a: { id: number }) => a.id)).toEqual([kept.id]);
    // Detached, not deleted: its tokens are gone, the row stays for its history (test/accounts/detach.test.ts).
    expect(await stored(gone.id)).toMatchObject({ access_token_enc: null, refresh_token_enc: null });

    const rows = async (postId: number) =>
      (
        await env.DB.prepare("SELECT account_id, status FROM post_platforms WHERE post_id = ? ORDER BY id")
          .bind(postId)
          .all()
      ).results;
    const status = async (postId: number) =>
      (await env.DB.prepare("SELECT status FROM posts WHERE id = ?").bind(postId).first<{ status: string }>())
        ?.status;
    // Its only row removed: the post cannot publish, so it is a draft.
    expect(await rows(alone.id)).toEqual([]);
    expect(await status(alone.id)).toBe("DRAFT");
    // Removed from the shared post, which stays scheduled on the other account.
    expect(await rows(shared.id)).toEqual([{ account_id: kept.id, status: "SCHEDULED" }]);
    expect(await status(shared.id)).toBe("SCHEDULED");
    expect(await status(elsewhere.id)).toBe("SCHEDULED");

    expect((await call("DELETE", `/api/v1/accounts/${gone.id}`, { key: t.key })).status).toBe(404);
  });

  it("answers 404 for another tenant's account and changes nothing", async () => {
    const alice = await createTenant();
    const bob = await createTenant();
    const post = await createPost(bob, { scheduled_at: inMinutes(60) });
    const victim = bob.accounts[0]!.id;
    const res = await call("DELETE", `/api/v1/accounts/${victim}`, { key: alice.key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Account not found." });
    expect(await stored(victim)).not.toBeNull();
    const after = await env.DB.prepare("SELECT status FROM posts WHERE id = ?").bind(post.id).first();
    expect(after).toEqual({ status: "SCHEDULED" });
  });

  it("disconnects an account connected by OAuth; connecting again brings back the same one", async () => {
    const t = await createTenant();
    const first = await runFlow((await connect(t)).authorize_url, { handle: "lin" });
    const id = Number(first.landed.searchParams.get("account_id"));
    expect((await call("DELETE", `/api/v1/accounts/${id}`, { key: t.key })).status).toBe(200);
    const again = await runFlow((await connect(t)).authorize_url, { handle: "lin" });
    expect(again.landed.searchParams.get("status")).toBe("connected");
    expect(Number(again.landed.searchParams.get("account_id"))).toBe(id);
    expect((await stored(id))?.access_token_enc).toBeTruthy();
  });
});
