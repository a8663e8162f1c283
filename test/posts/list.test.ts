import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Platform } from "../../src/db/enums";
import { settingsFor } from "../../src/platforms/settings";
import { call, serverTiming } from "../support/client";
import { expectDocumented } from "../support/contract";
import { insertComment, insertMedia } from "../support/db";
import { createAccount, createTenant, createWorkspace } from "../support/seed";

/** Inserts `n` posts straight into D1 (through the API they would exceed the per-user rate limit). */
async function seedPosts(
  workspaceId: number,
  userId: number,
  n: number,
  extras?: { accounts: Array<{ id: number; platform: Platform }>; labels: number[]; media: number[] },
) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const statements = [
      env.DB.prepare(
        "INSERT INTO posts (workspace_id, user_id, status, content, created_at, updated_at) VALUES (?, ?, 'DRAFT', ?, ?, ?) RETURNING id",
      ).bind(
        workspaceId,
        userId,
        JSON.stringify([`Post ${i}`, `Post ${i} reply`]),
        Date.UTC(2026, 0, 1) + i * 1000,
        Date.UTC(2026, 0, 1) + i * 1000,
      ),
    ];
    if (extras) {
      // Rows as the API writes them: the account's platform and that platform's complete settings.
      for (const account of extras.accounts)
        statements.push(
          env.DB.prepare(
            "INSERT INTO post_platforms (post_id, account_id, platform, status, settings, analytics, posted_on) VALUES ((SELECT max(id) FROM posts), ?, ?, 'DRAFT', ?, '{}', '[]')",
          ).bind(account.id, account.platform, JSON.stringify(settingsFor(account.platform, undefined))),
        );
      for (const labelId of extras.labels)
        statements.push(
          env.DB.prepare(
            "INSERT INTO post_labels (post_id, label_id) VALUES ((SELECT max(id) FROM posts), ?)",
          ).bind(labelId),
        );
      extras.media.forEach((mediaId, position) => {
        statements.push(
          env.DB.prepare(
            "INSERT INTO post_media (post_id, item_index, position, media_id) VALUES ((SELECT max(id) FROM posts), ?, ?, ?)",
          ).bind(position % 2, position, mediaId),
        );
      });
    }
    const [first] = await env.DB.batch<{ id: number }>(statements);
    ids.push(first!.results[0]!.id);
  }
  return ids;
}

describe("GET /api/v1/posts pagination", () => {
  it("pages 25 posts newest first with Laravel's paginator fields", async () => {
    const t = await createTenant();
    const ids = await seedPosts(t.workspace.id, t.user.id, 25);
    const newestFirst = [...ids].reverse();

    const first = await call("GET", "/api/v1/posts?per_page=10", { key: t.key });
    expect(first.status).toBe(200);
    expect(first.body.data.map((p: { id: number }) => p.id)).toEqual(newestFirst.slice(0, 10));
    expect(first.body).toMatchObject({
      current_page: 1,
      last_page: 3,
      per_page: 10,
      total: 25,
      from: 1,
      to: 10,
      prev_page_url: null,
      // The next page's URL says where it starts (before_id: the page's last post).
      next_page_url: `https://api.example.test/api/v1/posts?per_page=10&page=2&before_id=${newestFirst[9]}`,
      first_page_url: "https://api.example.test/api/v1/posts?per_page=10&page=1",
      last_page_url: "https://api.example.test/api/v1/posts?per_page=10&page=3",
      path: "https://api.example.test/api/v1/posts",
    });
    expect(first.body.links).toEqual([
      { url: null, label: "&laquo; Previous", active: false },
      { url: "https://api.example.test/api/v1/posts?per_page=10&page=1", label: "1", active: true },
      { url: "https://api.example.test/api/v1/posts?per_page=10&page=2", label: "2", active: false },
      { url: "https://api.example.test/api/v1/posts?per_page=10&page=3", label: "3", active: false },
      {
        url: `https://api.example.test/api/v1/posts?per_page=10&page=2&before_id=${newestFirst[9]}`,
        label: "Next &raquo;",
        active: false,
      },
    ]);

    const middle = await call("GET", "/api/v1/posts?page=2&per_page=10&include_comments=false", {
      key: t.key,
    });
    expect(middle.body.data.map((p: { id: number }) => p.id)).toEqual(newestFirst.slice(10, 20));
    expect(middle.body).toMatchObject({ current_page: 2, from: 11, to: 20 });
    expect(middle.body.prev_page_url).toBe(
      "https://api.example.test/api/v1/posts?per_page=10&include_comments=false&page=1",
    );

    const last = await call("GET", "/api/v1/posts?page=3&per_page=10", { key: t.key });
    expect(last.body.data.map((p: { id: number }) => p.id)).toEqual(newestFirst.slice(20));
    expect(last.body).toMatchObject({ current_page: 3, from: 21, to: 25, next_page_url: null });

    const past = await call("GET", "/api/v1/posts?page=7&per_page=10", { key: t.key });
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({
      data: [],
      current_page: 7,
      last_page: 3,
      total: 25,
      from: null,
      to: null,
    });

    const one = await call("GET", "/api/v1/posts?per_page=1&page=25", { key: t.key });
    expect(one.body.data.map((p: { id: number }) => p.id)).toEqual([ids[0]]);
    expect(one.body).toMatchObject({ last_page: 25, from: 25, to: 25 });
    expect(one.body.links.map((l: { label: string }) => l.label)).toEqual([
      "&laquo; Previous",
      "1",
      "2",
      "...",
      "16",
      "17",
      "18",
      "19",
      "20",
      "21",
      "22",
      "23",
      "24",
      "25",
      "Next &raquo;",
    ]);

    const all = await call("GET", "/api/v1/posts", { key: t.key });
    expect(all.body).toMatchObject({ per_page: 100, last_page: 1, total: 25, from: 1, to: 25 });
    expect(all.body.data).toHaveLength(25);
  });

  it("lists the posts of every accessible workspace, and nothing of others", async () => {
    const t = await createTenant();
    const second = await createWorkspace(t.user.id);
    const stranger = await createTenant();
    const [a] = await seedPosts(t.workspace.id, t.user.id, 1);
    const [b] = await seedPosts(second.id, t.user.id, 1);
    await seedPosts(stranger.workspace.id, stranger.user.id, 3);
    const res = await call("GET", "/api/v1/posts", { key: t.key });
    expect(res.body.data.map((p: { id: number }) => p.id)).toEqual([b, a]);
    expect(res.body.total).toBe(2);
    expect(res.body.data[0].workspace.id).toBe(second.id);
  });

  it("gives each post of a page spanning workspaces its own workspace and zone (the page lists each once)", async () => {
    const t = await createTenant();
    const tokyo = await createWorkspace(t.user.id, { timezone: "Asia/Tokyo" });
    // Interleaved: the workspaces alternate down the page.
    const [a1] = await seedPosts(t.workspace.id, t.user.id, 1);
    const [b1] = await seedPosts(tokyo.id, t.user.id, 1);
    const [a2] = await seedPosts(t.workspace.id, t.user.id, 1);
    const res = await call("GET", "/api/v1/posts", { key: t.key });
    expect(res.status).toBe(200);
    const shown = res.body.data.map((p: { id: number; workspace: { id: number; timezone: string } }) => [
      p.id,
      p.workspace.id,
      p.workspace.timezone,
    ]);
    expect(shown).toEqual([
      [a2, t.workspace.id, t.workspace.timezone],
      [b1, tokyo.id, "Asia/Tokyo"],
      [a1, t.workspace.id, t.workspace.timezone],
    ]);
    // seedPosts' first post is created at 2026-01-01T00:00:00Z: 09:00 in Tokyo.
    expect(res.body.data[1].created_at).toBe("2026-01-01T09:00:00+09:00");
  });

  it.each([
    ["per_page=101", "per_page"],
    ["per_page=0", "per_page"],
    ["per_page=abc", "per_page"],
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=1.5", "page"],
    ["page=99999999999", "page"],
    ["include_comments=yes", "include_comments"],
  ])("422 for %s", async (query, field) => {
    const t = await createTenant();
    const res = await call("GET", `/api/v1/posts?${query}`, { key: t.key });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it("uses PUBLIC_BASE_URL for page links when it is set", async () => {
    const t = await createTenant();
    const { default: worker } = await import("../../src/index");
    const { createExecutionContext } = await import("cloudflare:test");
    const res = await worker.fetch(
      new Request("https://internal.test/api/v1/posts?per_page=5", {
        headers: { authorization: `Bearer ${t.key}` },
      }),
      { ...env, PUBLIC_BASE_URL: "https://api.public.example/" },
      createExecutionContext(),
    );
    const body = (await res.json()) as { first_page_url: string };
    expect(body.first_page_url).toBe("https://api.public.example/api/v1/posts?per_page=5&page=1");
  });
});

describe("GET /api/v1/posts budget", () => {
  it("reads a full page of 100 rich posts with comments in one batch alongside the Coordinator, as documented", async () => {
    const t = await createTenant();
    const third = await createAccount(t.workspace.id, "threads");
    const labels: number[] = [];
    for (const name of ["a", "b", "c"]) {
      const res = await call("POST", "/api/v1/labels", {
        key: t.key,
        body: { workspace_id: t.workspace.id, name, color: "#123456" },
      });
      labels.push(res.body.id);
    }
    const media = [await insertMedia(t.workspace.id), await insertMedia(t.workspace.id)];
    const ids = await seedPosts(t.workspace.id, t.user.id, 100, {
      accounts: [
        { id: t.accounts[0]!.id, platform: "twitter" },
        { id: third.id, platform: "threads" },
      ],
      labels,
      media,
    });
    for (const id of ids.slice(0, 100)) await insertComment(id);

    const res = await call("GET", "/api/v1/posts?include_comments=true", { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    for (const post of res.body.data) {
      expect(post.platforms).toHaveLength(2);
      expect(post.labels).toHaveLength(3);
      expect(post.content).toHaveLength(2);
      expect(post.content[0].media).toHaveLength(1);
      expect(post.content[1].media).toHaveLength(1);
      expect(post.comments).toHaveLength(1);
    }
    expectDocumented("GET", "/api/v1/posts", res);
    // The key was looked up by the requests that built the posts: one batch, alongside the Coordinator.
    const timing = serverTiming(res.headers);
    expect(timing.dbTrips).toBe(1);
    expect(timing.gateCalls).toBe(1);
    expect(timing.hops).toBe(1);
  });
});
