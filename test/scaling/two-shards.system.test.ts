// The service over two D1 databases (src/db/shards.ts): every test run binds `DB` and `DB_SHARD_1`.
// A tenant placed in shard 1 goes through the worker's fetch, the real queues and the cron exactly as a
// tenant of shard 0 does; its rows are in DB_SHARD_1 only, its ids and key name their shard, and
// neither shard's tenants can reach the other's.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SHARD_ID_SPAN, shardOfId } from "../../src/db/shards";
import worker from "../../src/index";
import { bytesOf, fetchLink, file, pngBytes, upload } from "../media/support";
import { expectSameBytes } from "../support/bytes";
import { admin, call } from "../support/client";
import { createKey, createPost, createTenant, createUser, createWorkspace } from "../support/seed";
import { waitFor } from "../support/wait";

const count = async (d1: D1Database, table: string, where: string, id: number) =>
  (await d1.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where} = ?`).bind(id).first<{ n: number }>())!
    .n;

/** Polls shard 1 until the post has `status`. */
async function settledInShard1(postId: number, status: string, timeout = 10_000) {
  await waitFor(
    async () => {
      const row = await env.DB_SHARD_1.prepare("SELECT status FROM posts WHERE id = ?")
        .bind(postId)
        .first<{ status: string }>();
      return row?.status === status;
    },
    { timeout, interval: 100, what: `post ${postId} ${status} in shard 1` },
  );
}

describe("a tenant in shard 1", () => {
  it("lives wholly in DB_SHARD_1: ids in its range, a key naming it, no row in DB", async () => {
    const t = await createTenant({}, 1);
    for (const id of [t.user.id, t.workspace.id, t.keyId, ...t.accounts.map((a) => a.id)]) {
      expect(id).toBeGreaterThanOrEqual(SHARD_ID_SPAN);
      expect(shardOfId(id)).toBe(1);
    }
    expect(t.key).toMatch(/^spk1_[A-Za-z0-9_-]{43}$/);
    expect(await count(env.DB_SHARD_1, "users", "id", t.user.id)).toBe(1);
    expect(await count(env.DB_SHARD_1, "workspace_members", "user_id", t.user.id)).toBe(1);
    expect(await count(env.DB_SHARD_1, "accounts", "workspace_id", t.workspace.id)).toBe(2);
    expect(await count(env.DB, "users", "id", t.user.id)).toBe(0);
    expect(await count(env.DB, "workspaces", "id", t.workspace.id)).toBe(0);
    expect(await count(env.DB, "api_keys", "user_id", t.user.id)).toBe(0);

    // A tenant of shard 0 is untouched by it: its ids stay below the span.
    const zero = await createTenant();
    expect(zero.user.id).toBeLessThan(SHARD_ID_SPAN);
    expect(zero.key).toMatch(/^spk_/);
  });

  it("uses the whole API: labels, folders, posts, lists with exact totals, read-your-writes bookmarks", async () => {
    const t = await createTenant({}, 1);
    const label = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "Launch", color: "#ff0000" },
    });
    expect(label.status).toBe(201);
    expect(shardOfId(label.body.id)).toBe(1);
    const folder = await call("POST", "/api/v1/folders", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "Assets" },
    });
    expect(folder.status).toBe(201);
    expect(shardOfId(folder.body.id)).toBe(1);

    const created = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        accounts: t.accounts.map((a) => a.id),
        content: [{ text: "From shard one" }],
        labels: [label.body.id],
      },
    });
    expect(created.status).toBe(201);
    expect(shardOfId(created.body.id)).toBe(1);
    // The write's bookmark names its shard; sent back, the next read is at least that fresh.
    const bookmark = created.headers.get("x-d1-bookmark");
    expect(bookmark).toMatch(/^1:[0-9a-f]{8}-/);

    const list = await call("GET", "/api/v1/posts?per_page=10", {
      key: t.key,
      headers: { "X-D1-Bookmark": bookmark! },
    });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.data[0]).toMatchObject({ id: created.body.id, labels: [{ id: label.body.id }] });
    expect(list.body.data[0].platforms).toHaveLength(2);
    expect(list.headers.get("x-d1-bookmark")).toMatch(/^1:/);

    const workspaces = await call("GET", "/api/v1/workspaces", { key: t.key });
    expect(workspaces.body.data.map((w: { id: number }) => w.id)).toEqual([t.workspace.id]);
    expect(await count(env.DB_SHARD_1, "posts", "workspace_id", t.workspace.id)).toBe(1);
    expect(await count(env.DB, "posts", "workspace_id", t.workspace.id)).toBe(0);
  });

  it("publishes through the real queue and syncs analytics from its own shard", async () => {
    const t = await createTenant({}, 1);
    expect((await admin("PUT", `/users/${t.user.id}/subscription`, { status: "active" })).status).toBe(200);
    const post = await createPost(t, { content: [{ text: "Shard one goes live" }], publish_now: true });
    await settledInShard1(post.id, "PUBLISHED");
    const published = await call("GET", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(published.body.platforms[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(published.body.platforms[0].platform_post_id).toMatch(/^\d+$/);

    const sync = await call("POST", `/api/v1/analytics/posts/${post.id}/sync`, { key: t.key });
    expect(sync.body).toMatchObject({ jobs_dispatched: 1, skipped: false });
    // The route claims the row at once (analytics_synced_at); the metrics arrive with the job.
    const report = await waitFor(
      async () => {
        const read = await call("GET", `/api/v1/analytics/posts/${post.id}`, { key: t.key });
        return read.status === 200 && read.body.total.impressions > 0 ? read : undefined;
      },
      { interval: 100, what: `post ${post.id}'s row synced in shard 1` },
    );
    const row = await env.DB_SHARD_1.prepare(
      "SELECT analytics_synced_at FROM post_platforms WHERE post_id = ?",
    )
      .bind(post.id)
      .first<{ analytics_synced_at: number | null }>();
    expect(row?.analytics_synced_at).toBeTruthy();
    expect(report.body.total.impressions).toBeGreaterThan(0);
  });

  it("stores media in its shard and serves it through a signed link, which carries no credential", async () => {
    const t = await createTenant({}, 1);
    const png = pngBytes(4096);
    const res = await upload(t.key, [
      ["workspace_id", String(t.workspace.id)],
      ["file", file(png, "one.png", "image/png")],
    ]);
    expect(res.status).toBe(201);
    expect(shardOfId(res.body.id)).toBe(1);
    const served = await fetchLink(res.body.url);
    expect(served.status).toBe(200);
    await expectSameBytes(await bytesOf(served), png);
    expect(await count(env.DB_SHARD_1, "media", "id", res.body.id)).toBe(1);
  });

  it("is swept by the cron: a scheduled post whose wake-up was missed is claimed in shard 1", async () => {
    const t = await createTenant({}, 1);
    const post = await createPost(t, { scheduled_at: new Date(Date.now() + 5 * 60_000).toISOString() });
    await worker.scheduled(
      createScheduledController({ scheduledTime: Date.now() + 10 * 60_000, cron: "* * * * *" }),
      env,
    );
    const after = await env.DB_SHARD_1.prepare("SELECT status FROM posts WHERE id = ?")
      .bind(post.id)
      .first<{ status: string }>();
    expect(["PUBLISHING", "PUBLISHED"]).toContain(after!.status);
  });
});

describe("tenants of two shards", () => {
  it("cannot reach each other's data, in either direction", async () => {
    const one = await createTenant({}, 1);
    const zero = await createTenant();
    const postOne = await createPost(one);
    const postZero = await createPost(zero);
    for (const [t, foreign] of [
      [zero, postOne.id],
      [one, postZero.id],
    ] as const) {
      expect((await call("GET", `/api/v1/posts/${foreign}`, { key: t.key })).status).toBe(404);
      expect((await call("DELETE", `/api/v1/posts/${foreign}`, { key: t.key })).status).toBe(404);
    }
    // Another shard's workspace answers exactly as another tenant's workspace of the same shard does.
    const neighbour = await createTenant();
    const into = (workspace: { id: number }, account: { id: number }) =>
      call("POST", "/api/v1/posts", {
        key: zero.key,
        body: { workspace_id: workspace.id, accounts: [account.id], content: [{ text: "x" }] },
      });
    const intoOther = await into(one.workspace, one.accounts[0]!);
    const intoNeighbour = await into(neighbour.workspace, neighbour.accounts[0]!);
    expect(intoOther.status).toBe(404);
    expect([intoOther.status, intoOther.body]).toEqual([intoNeighbour.status, intoNeighbour.body]);
    expect(await count(env.DB_SHARD_1, "posts", "workspace_id", one.workspace.id)).toBe(1);
    expect((await call("GET", `/api/v1/posts/${postOne.id}`, { key: one.key })).status).toBe(200);
    expect((await call("GET", `/api/v1/posts/${postZero.id}`, { key: zero.key })).status).toBe(200);
  });

  it("refuses a key naming an unbound shard, or one whose shard prefix was changed", async () => {
    const one = await createTenant({}, 1);
    const moved = one.key.replace(/^spk1_/, "spk_");
    for (const key of [moved, one.key.replace(/^spk1_/, "spk2_"), one.key.replace(/^spk1_/, "spk01_")]) {
      const res = await call("GET", "/api/v1/workspaces", { key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Unauthenticated." });
    }
  });

  it("revokes and rolls a shard-1 key from its very next request", async () => {
    const one = await createTenant({}, 1);
    expect((await call("GET", "/api/v1/workspaces", { key: one.key })).status).toBe(200);
    const rolled = await admin<{ id: number; key: string }>("POST", `/api-keys/${one.keyId}/roll`);
    expect(rolled.status).toBe(201);
    expect(rolled.body.key).toMatch(/^spk1_/);
    expect(shardOfId(rolled.body.id)).toBe(1);
    expect((await call("GET", "/api/v1/workspaces", { key: one.key })).status).toBe(401);
    expect((await call("GET", "/api/v1/workspaces", { key: rolled.body.key })).status).toBe(200);
    expect((await admin("DELETE", `/api-keys/${rolled.body.id}`)).status).toBe(200);
    expect((await call("GET", "/api/v1/workspaces", { key: rolled.body.key })).status).toBe(401);
  });
});

describe("the operator API across shards", () => {
  it("places a user in the shard asked for, and refuses a shard that is not bound", async () => {
    const email = `placed-${crypto.randomUUID()}@example.test`;
    const placed = await admin<{ id: number }>("POST", "/users", { name: "One", email, shard: 1 });
    expect(placed.status).toBe(201);
    expect(shardOfId(placed.body.id)).toBe(1);
    for (const shard of [2, 8191, 8192, -1, 1.5, "1"]) {
      const res = await admin("POST", "/users", {
        name: "X",
        email: `x-${crypto.randomUUID()}@example.test`,
        shard,
      });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["shard"]);
    }
  });

  it("keeps an email unique across shards, and finds a user whichever shard holds it", async () => {
    const email = `unique-${crypto.randomUUID()}@example.test`;
    const first = await admin<{ id: number }>("POST", "/users", { name: "One", email, shard: 1 });
    expect(first.status).toBe(201);
    for (const shard of [0, 1]) {
      const again = await admin("POST", "/users", { name: "Two", email: email.toUpperCase(), shard });
      expect(again.status).toBe(422);
      expect(again.body.errors).toEqual({ email: ["The email has already been taken."] });
    }
    const found = await admin("GET", `/users?email=${encodeURIComponent(email)}`);
    expect(found.body).toEqual({ data: [{ id: first.body.id, name: "One", email }] });
  });

  it("keeps a workspace slug unique across shards", async () => {
    const slug = `acme-${crypto.randomUUID().slice(0, 8)}`;
    const one = await createUser("One", 1);
    const zero = await createUser("Zero");
    expect((await admin("POST", "/workspaces", { user_id: one.id, name: "Acme", slug })).status).toBe(201);
    const taken = await admin("POST", "/workspaces", { user_id: zero.id, name: "Acme", slug });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ slug: ["The slug has already been taken."] });
    const derived = await admin<{ slug: string }>("POST", "/workspaces", { user_id: zero.id, name: slug });
    expect(derived.status).toBe(201);
    expect(derived.body.slug).toBe(`${slug}-2`);
  });

  it("refuses a member from another shard, and still adds one from the workspace's own", async () => {
    const one = await createUser("One", 1);
    const workspace = await createWorkspace(one.id);
    const zero = await createUser("Zero");
    const foreign = await admin("POST", `/workspaces/${workspace.id}/members`, { user_id: zero.id });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors.user_id[0]).toContain("another shard");
    expect(await count(env.DB_SHARD_1, "workspace_members", "workspace_id", workspace.id)).toBe(1);

    const colleague = await createUser("Colleague", 1);
    expect(
      (await admin("POST", `/workspaces/${workspace.id}/members`, { user_id: colleague.id })).status,
    ).toBe(201);
    const { key } = await createKey(colleague.id);
    const seen = await call("GET", "/api/v1/workspaces", { key });
    expect(seen.body.data.map((w: { id: number }) => w.id)).toEqual([workspace.id]);
  });

  it("answers 404 or 422 for ids beyond every bound shard, never a 500", async () => {
    const beyond = 5 * SHARD_ID_SPAN + 1;
    expect((await admin("GET", `/users/${beyond}/api-keys`)).status).toBe(404);
    expect((await admin("PUT", `/users/${beyond}/subscription`, { status: "active" })).status).toBe(404);
    expect((await admin("POST", `/workspaces/${beyond}/members`, { user_id: beyond })).status).toBe(404);
    expect((await admin("POST", "/workspaces", { user_id: beyond, name: "Nowhere" })).status).toBe(422);
    expect((await admin("POST", "/api-keys", { user_id: beyond, abilities: ["posts"] })).status).toBe(422);
    expect((await admin("DELETE", `/api-keys/${beyond}`)).status).toBe(404);
    const link = await call("GET", `/media/${beyond}?expires=9999999999&sig=${"0".repeat(64)}`);
    expect(link.status).toBe(403);
  });
});
