// Test data is purged after 90 days (src/test-mode/purge.ts): in test workspaces, old posts (with their
// platform rows and media links), old media no remaining post uses (R2 objects too) and old webhook
// events (with their deliveries) go; recent test data and every live row stay, however old; a second
// run changes nothing.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { isPurgeMinute, purgeTestData, TEST_DATA_RETENTION_MS } from "../../src/test-mode/purge";
import { admin, call } from "../support/client";
import { ALL_ABILITIES, createAccount, createUser, createWorkspace } from "../support/seed";

const DAY = 24 * 3_600_000;

async function side(userId: number, mode: "live" | "test") {
  const workspace = await createWorkspace(userId, { mode });
  const account = await createAccount(workspace.id, "twitter");
  const key = await admin<{ key: string }>("POST", "/api-keys", {
    user_id: userId,
    abilities: ALL_ABILITIES,
    mode,
  });
  expect(key.status).toBe(201);
  const post = async (text: string) => {
    const res = await call("POST", "/api/v1/posts", {
      key: key.body.key,
      body: { workspace_id: workspace.id, accounts: [account.id], content: [{ text }] },
    });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  return { workspace, post };
}

async function backdate(table: "posts" | "media" | "webhook_events", id: number | string, at: number) {
  await env.DB.prepare(`UPDATE ${table} SET created_at = ? WHERE id = ?`).bind(at, id).run();
}

async function mediaItem(workspaceId: number, createdAt: number) {
  const key = `purge-test/${crypto.randomUUID()}`;
  await env.MEDIA.put(key, "bytes");
  const row = await env.DB.prepare(
    "INSERT INTO media (workspace_id, name, r2_key, mime_type, type, size, created_at) VALUES (?, 'a.png', ?, 'image/png', 'image', 5, ?) RETURNING id",
  )
    .bind(workspaceId, key, createdAt)
    .first<{ id: number }>();
  return { id: row!.id, key };
}

async function event(workspaceId: number, createdAt: number) {
  const id = `evt_purge_${crypto.randomUUID()}`;
  await env.DB.prepare(
    "INSERT INTO webhook_events (id, workspace_id, type, body, created_at) VALUES (?, ?, 'post.published', '{}', ?)",
  )
    .bind(id, workspaceId, createdAt)
    .run();
  const endpoint = await env.DB.prepare(
    "INSERT INTO webhook_endpoints (workspace_id, url, events, secret_enc) VALUES (?, 'https://hooks.example.test/x', '[]', 'x') RETURNING id",
  )
    .bind(workspaceId)
    .first<{ id: number }>();
  await env.DB.prepare("INSERT INTO webhook_deliveries (endpoint_id, event_id) VALUES (?, ?)")
    .bind(endpoint!.id, id)
    .run();
  return id;
}

const count = async (sql: string, ...values: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...values)
    .first<{ n: number }>())!.n;

describe("the purge of test data", () => {
  it("deletes test data older than 90 days, and nothing live or recent", async () => {
    const user = await createUser();
    const live = await side(user.id, "live");
    const test = await side(user.id, "test");
    const now = Date.now();
    const old = now - TEST_DATA_RETENTION_MS - DAY;
    const recent = now - TEST_DATA_RETENTION_MS + DAY;

    const oldLivePost = await live.post("old live");
    const oldTestPost = await test.post("old test");
    const recentTestPost = await test.post("recent test");
    await backdate("posts", oldLivePost, old);
    await backdate("posts", oldTestPost, old);
    await backdate("posts", recentTestPost, recent);
    const oldTestMedia = await mediaItem(test.workspace.id, old);
    const usedTestMedia = await mediaItem(test.workspace.id, old);
    const onOldPost = await mediaItem(test.workspace.id, old);
    const oldLiveMedia = await mediaItem(live.workspace.id, old);
    const link = "INSERT INTO post_media (post_id, item_index, position, media_id) VALUES (?, 0, 0, ?)";
    await env.DB.prepare(link).bind(recentTestPost, usedTestMedia.id).run();
    await env.DB.prepare(link).bind(oldTestPost, onOldPost.id).run();
    const oldTestEvent = await event(test.workspace.id, old);
    const recentTestEvent = await event(test.workspace.id, recent);
    const oldLiveEvent = await event(live.workspace.id, old);

    await purgeTestData(env, new Date(now));

    const postsLeft = await env.DB.prepare("SELECT id FROM posts WHERE id IN (?, ?, ?) ORDER BY id")
      .bind(oldLivePost, oldTestPost, recentTestPost)
      .all<{ id: number }>();
    expect(postsLeft.results.map((r) => r.id)).toEqual([oldLivePost, recentTestPost]);
    expect(await count("SELECT count(*) AS n FROM post_platforms WHERE post_id = ?", oldTestPost)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM post_media WHERE post_id = ?", oldTestPost)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM post_platforms WHERE post_id = ?", recentTestPost)).toBe(1);

    // The old test item no post uses goes (row and object), with the one only the purged post used; the
    // one a recent post uses stays, as does every live item.
    for (const [item, kept] of [
      [oldTestMedia, false],
      [onOldPost, false],
      [usedTestMedia, true],
      [oldLiveMedia, true],
    ] as const) {
      expect([item.key, await count("SELECT count(*) AS n FROM media WHERE id = ?", item.id)]).toEqual([
        item.key,
        kept ? 1 : 0,
      ]);
      expect([item.key, (await env.MEDIA.head(item.key)) !== null]).toEqual([item.key, kept]);
    }

    const eventsLeft = await env.DB.prepare("SELECT id FROM webhook_events WHERE id IN (?, ?, ?)")
      .bind(oldTestEvent, recentTestEvent, oldLiveEvent)
      .all<{ id: string }>();
    expect(eventsLeft.results.map((r) => r.id).sort()).toEqual([recentTestEvent, oldLiveEvent].sort());
    expect(await count("SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = ?", oldTestEvent)).toBe(
      0,
    );

    // Idempotent: a second run finds nothing more of these.
    await purgeTestData(env, new Date(now));
    expect(
      await count("SELECT count(*) AS n FROM posts WHERE id IN (?, ?)", oldLivePost, recentTestPost),
    ).toBe(2);
  });

  it("runs once an hour", () => {
    expect(isPurgeMinute(new Date("2026-11-27T10:00:30Z"))).toBe(true);
    expect(isPurgeMinute(new Date("2026-11-27T10:01:00Z"))).toBe(false);
  });
});
