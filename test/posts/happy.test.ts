import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { call, serverTiming } from "../support/client";
import { expectDocumented } from "../support/contract";
import { insertComment, insertMedia, publishRows } from "../support/db";
import { createPost, createTenant, inMinutes } from "../support/seed";

async function createLabel(key: string, workspaceId: number, name = "Launch", color = "#FF0000") {
  const res = await call("POST", "/api/v1/labels", { key, body: { workspace_id: workspaceId, name, color } });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; color: string };
}

describe("POST /api/v1/posts", () => {
  it("creates a scheduled thread with media, labels and settings, answering the full Post shape", async () => {
    const t = await createTenant({ timezone: "Europe/Paris" });
    const [twitter, linkedin] = t.accounts;
    const photo = await insertMedia(t.workspace.id, { name: "cat.jpg", mime_type: "image/jpeg", size: 2048 });
    const clip = await insertMedia(t.workspace.id, {
      name: "clip.mp4",
      mime_type: "video/mp4",
      type: "video",
      size: 99,
    });
    const label = await createLabel(t.key, t.workspace.id);
    const scheduledAt = "2031-06-01T10:30:00Z";
    const res = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        accounts: [twitter!.id, linkedin!.id],
        content: [
          { text: "Hello world", media: [photo, clip] },
          { text: "Second tweet of the thread", media: [] },
        ],
        scheduled_at: scheduledAt,
        labels: [label.id],
        settings: { twitter: { reply_settings: "following", poll: { enabled: false } } },
        auto_plug: { text: "Get the guide: https://example.com", metric: "likes", threshold: 50 },
      },
    });
    expect(res.status).toBe(201);
    expectDocumented("POST", "/api/v1/posts", res);
    const post = res.body;
    expect(Object.keys(post).sort()).toEqual(
      [
        "auto_plug",
        "comments",
        "content",
        "created_at",
        "id",
        "labels",
        "platforms",
        "posted_on",
        "remaining_posts",
        "repeatable",
        "repeatable_gap",
        "repeatable_gap_unit",
        "repeatable_times",
        "scheduled_at",
        "status",
        "updated_at",
        "version",
        "workspace",
      ].sort(),
    );
    expect(post.status).toBe("SCHEDULED");
    expect(post.version).toBe(1);
    expect(post.scheduled_at).toBe("2031-06-01T12:30:00+02:00");
    expect(post.posted_on).toEqual([]);
    expect(post.repeatable).toBe(false);
    expect([
      post.repeatable_times,
      post.repeatable_gap,
      post.repeatable_gap_unit,
      post.remaining_posts,
    ]).toEqual([null, null, null, null]);
    expect(post.workspace).toEqual({
      id: t.workspace.id,
      name: expect.any(String),
      slug: expect.any(String),
      type: "PERSONAL",
      logo: null,
      timezone: "Europe/Paris",
      language: "en",
      mode: "live",
      approval: "none",
    });
    expect(post.labels).toEqual([{ id: label.id, name: "Launch", color: "#FF0000" }]);
    expect(post.comments).toEqual([]);
    expect(post.auto_plug).toEqual({
      text: "Get the guide: https://example.com",
      metric: "likes",
      threshold: 50,
    });
    expect(post.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/);
    expect(post.updated_at).toBe(post.created_at);

    expect(post.content).toHaveLength(2);
    expect(post.content[1]).toEqual({ text: "Second tweet of the thread", media: [] });
    const [first] = post.content;
    expect(first.text).toBe("Hello world");
    expect(first.media.map((m: { id: number }) => m.id)).toEqual([photo, clip]);
    expect(first.media[0]).toEqual({
      id: photo,
      name: "cat.jpg",
      url: expect.stringMatching(
        new RegExp(`^https://api\\.example\\.test/media/${photo}\\?expires=\\d+&sig=[0-9a-f]{64}$`),
      ),
      type: "image/jpeg",
      size: 2048,
    });
    expect(first.media[1]).toMatchObject({ type: "video/mp4", size: 99 });

    expect(post.platforms).toEqual([
      {
        account_id: twitter!.id,
        platform: "twitter",
        posted_on: [],
        status: "SCHEDULED",
        settings: {
          for_super_followers_only: false,
          reply_settings: "following",
          quote_tweet_id: null,
          reply: { in_reply_to_tweet_id: null },
          community_id: null,
          share_with_followers: false,
          text: null,
          poll: { enabled: false },
        },
        analytics: {},
        platform_post_id: null,
        post_url: null,
        error: null,
      },
      {
        account_id: linkedin!.id,
        platform: "linkedin",
        posted_on: [],
        status: "SCHEDULED",
        settings: { visibility: "PUBLIC", disable_reshare: false, document_title: null },
        analytics: {},
        platform_post_id: null,
        post_url: null,
        error: null,
      },
    ]);
  });

  it("creates a draft when neither scheduled_at nor publish_now is given", async () => {
    const t = await createTenant();
    const res = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: { workspace_id: t.workspace.id, accounts: [t.accounts[0]!.id], content: [{ text: "Draft" }] },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("DRAFT");
    expect(res.body.scheduled_at).toBeNull();
    expect(res.body.auto_plug).toBeNull();
    expect(res.body.platforms[0].status).toBe("DRAFT");
  });

  it("publish_now marks the post PUBLISHING and sends it to the publish queue", async () => {
    const t = await createTenant();
    const sent = vi.spyOn(env.PUBLISH_QUEUE, "sendBatch");
    const post = await createPost(t, {
      content: [{ text: "Now" }],
      publish_now: true,
    });
    expect(post.status).toBe("PUBLISHING");
    expect(post.scheduled_at).not.toBeNull();
    expect(sent).toHaveBeenCalledWith([{ body: { post_id: post.id } }]);
    sent.mockRestore();
  });

  it("stores a repeatable post with remaining_posts counting from repeatable_times", async () => {
    const t = await createTenant();
    const post = await createPost(t, {
      content: [{ text: "Weekly tip" }],
      scheduled_at: inMinutes(60),
      repeatable: true,
      repeatable_times: 4,
      repeatable_gap: 1,
      repeatable_gap_unit: "weeks",
    });
    expect(post).toMatchObject({
      repeatable: true,
      repeatable_times: 4,
      repeatable_gap: 1,
      repeatable_gap_unit: "weeks",
      remaining_posts: 4,
    });
  });

  it("fills every platform's settings defaults", async () => {
    const t = await createTenant();
    const platforms = ["tiktok", "instagram", "youtube", "facebook", "pinterest", "threads"];
    const ids: number[] = [];
    for (const platform of platforms) {
      const res = await call("POST", "/admin/v1/accounts", {
        key: "test-admin-token",
        body: { workspace_id: t.workspace.id, platform, username: platform, name: platform },
      });
      ids.push(res.body.id);
    }
    const res = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        accounts: ids,
        content: [{ text: "Everywhere" }],
        settings: {
          youtube: { title: "My video", privacy_status: "unlisted" },
          pinterest: { board_id: "b1" },
          tiktok: { privacy_level: "SELF_ONLY" },
        },
      },
    });
    expect(res.status).toBe(201);
    // Every platform's complete settings object is one the document declares.
    expectDocumented("POST", "/api/v1/posts", res);
    const settings = Object.fromEntries(
      res.body.platforms.map((p: { platform: string; settings: unknown }) => [p.platform, p.settings]),
    );
    expect(settings.tiktok).toEqual({
      privacy_level: "SELF_ONLY",
      title: null,
      disable_duet: false,
      disable_stitch: false,
      disable_comment: false,
      brand_content_toggle: false,
      brand_organic_toggle: false,
      is_aigc: false,
    });
    expect(settings.youtube).toEqual({
      title: "My video",
      privacy_status: "unlisted",
      made_for_kids: false,
      tags: [],
      category_id: null,
    });
    expect(settings.pinterest).toEqual({ board_id: "b1", title: null, link: null, alt_text: null });
    expect(settings.instagram).toEqual({
      post_type: "post",
      share_to_feed: true,
      collaborators: [],
      location_id: null,
    });
    expect(settings.facebook).toEqual({ post_type: "post", link: null });
    expect(settings.threads).toEqual({ reply_control: "everyone", topic_tag: null });
  });

  it("returns a twitter poll's options and duration when it is enabled", async () => {
    const t = await createTenant();
    const post = await createPost(t, {
      content: [{ text: "Which one?" }],
      settings: { twitter: { poll: { enabled: true, options: ["A", "B"], duration_minutes: 1440 } } },
    });
    expect(post.platforms[0].settings.poll).toEqual({
      enabled: true,
      options: ["A", "B"],
      duration_minutes: 1440,
    });
  });
});

describe("GET /api/v1/posts/{id}", () => {
  it("answers the same shape as create, with analytics only on published rows and comments on request", async () => {
    const t = await createTenant({ timezone: "America/New_York" });
    const created = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        accounts: t.accounts.map((a) => a.id),
        content: [{ text: "Hi" }],
      },
    });
    const id = created.body.id;
    const same = await call("GET", `/api/v1/posts/${id}`, { key: t.key });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(created.body);

    const metrics = {
      comments: 2,
      likes: 10,
      shares: 1,
      impressions: 500,
      quotes: 0,
      saves: 3,
      engagement_rate: 3.2,
    };
    await publishRows(id, metrics, Date.UTC(2026, 10, 21, 14, 5));
    await insertComment(id, {
      contact: { name: "Grace Hopper", username: "grace", profile_url: "https://x.example/grace" },
    });
    await insertComment(id, { platform: "linkedin", content: "Great", author_name: "Alan" });
    const published = await call("GET", `/api/v1/posts/${id}?include_comments=true`, { key: t.key });
    expectDocumented("GET", "/api/v1/posts/{id}", published);
    expect(published.body.status).toBe("PUBLISHED");
    expect(published.body.posted_on).toEqual(["2026-11-21 09:05 AM"]);
    for (const row of published.body.platforms) {
      expect(row.status).toBe("PUBLISHED");
      expect(row.posted_on).toEqual(["2026-11-21 09:05 AM"]);
      expect(row.analytics).toEqual(metrics);
    }
    expect(published.body.comments).toEqual([
      {
        id: expect.any(Number),
        content: "Nice post!",
        author_name: "Grace",
        platform: "twitter",
        created_at: "2026-11-21T03:15:00-05:00",
        contact: { name: "Grace Hopper", username: "grace", profile_url: "https://x.example/grace" },
      },
      {
        id: expect.any(Number),
        content: "Great",
        author_name: "Alan",
        platform: "linkedin",
        created_at: "2026-11-21T03:15:00-05:00",
        contact: null,
      },
    ]);
    const without = await call("GET", `/api/v1/posts/${id}`, { key: t.key });
    expect(without.body.comments).toEqual([]);
  });
});

describe("PUT /api/v1/posts/{id}", () => {
  it("replaces the given fields, keeps the others, and rebuilds the platform rows", async () => {
    const t = await createTenant();
    const [twitter, linkedin] = t.accounts;
    const label = await createLabel(t.key, t.workspace.id, "Old", "#000000");
    const other = await createLabel(t.key, t.workspace.id, "New", "#00FF00");
    const created = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        accounts: [twitter!.id],
        content: [{ text: "v1" }],
        labels: [label.id],
        settings: { twitter: { reply_settings: "verified" } },
      },
    });
    const id = created.body.id;
    const updated = await call("PUT", `/api/v1/posts/${id}`, {
      key: t.key,
      body: {
        accounts: [twitter!.id, linkedin!.id],
        content: [{ text: "v2" }],
        labels: [other.id],
        scheduled_at: inMinutes(30),
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.status).toBe("SCHEDULED");
    expect(updated.body.content).toEqual([{ text: "v2", media: [] }]);
    expect(updated.body.labels).toEqual([{ id: other.id, name: "New", color: "#00FF00" }]);
    expect(updated.body.platforms.map((p: { account_id: number }) => p.account_id)).toEqual([
      twitter!.id,
      linkedin!.id,
    ]);
    // The kept twitter row keeps its settings; every row follows the post's status.
    expect(updated.body.platforms[0].settings.reply_settings).toBe("verified");
    expect(updated.body.platforms.every((p: { status: string }) => p.status === "SCHEDULED")).toBe(true);

    const unscheduled = await call("PUT", `/api/v1/posts/${id}`, {
      key: t.key,
      body: { scheduled_at: null },
    });
    expect(unscheduled.body.status).toBe("DRAFT");
    expect(unscheduled.body.content).toEqual([{ text: "v2", media: [] }]);
    expect(unscheduled.body.labels).toHaveLength(1);
  });

  it("refuses to edit a published post (422) and leaves it untouched", async () => {
    const t = await createTenant();
    const created = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: { workspace_id: t.workspace.id, accounts: [t.accounts[0]!.id], content: [{ text: "Live" }] },
    });
    await publishRows(created.body.id, { likes: 1 }, Date.now());
    const res = await call("PUT", `/api/v1/posts/${created.body.id}`, {
      key: t.key,
      body: { content: [{ text: "Edited" }] },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: "A published post cannot be edited.",
      errors: { status: ["A published post cannot be edited."] },
    });
    const after = await call("GET", `/api/v1/posts/${created.body.id}`, { key: t.key });
    expect(after.body.content[0].text).toBe("Live");
  });
});

describe("DELETE /api/v1/posts/{id}", () => {
  it("deletes the post with its rows; a second delete and a get are 404", async () => {
    const t = await createTenant();
    const { id } = await createPost(t, { scheduled_at: inMinutes(5) });
    const res = await call("DELETE", `/api/v1/posts/${id}`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Post deleted successfully." });
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM post_platforms WHERE post_id = ?")
      .bind(id)
      .first();
    expect(rows).toEqual({ n: 0 });
    expect((await call("GET", `/api/v1/posts/${id}`, { key: t.key })).status).toBe(404);
    expect((await call("DELETE", `/api/v1/posts/${id}`, { key: t.key })).status).toBe(404);
  });
});

describe("editing a failed post", () => {
  it("does not re-arm its past schedule: without a new scheduled_at it becomes a draft", async () => {
    const t = await createTenant();
    const { id } = await createPost(t, { scheduled_at: inMinutes(1) });
    await env.DB.prepare("UPDATE posts SET status = 'FAILED', scheduled_at = ? WHERE id = ?")
      .bind(Date.now() - 60_000, id)
      .run();
    const edited = await call("PUT", `/api/v1/posts/${id}`, {
      key: t.key,
      body: { content: [{ text: "fixed" }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.status).toBe("DRAFT");
    expect(edited.body.scheduled_at).toBeNull();
    const rescheduled = await call("PUT", `/api/v1/posts/${id}`, {
      key: t.key,
      body: { scheduled_at: inMinutes(60) },
    });
    expect(rescheduled.body.status).toBe("SCHEDULED");
  });
});

describe("posted_on", () => {
  it("shows a publication to several accounts in the same minute once on the post, each row its own", async () => {
    const t = await createTenant({ timezone: "Europe/Paris" });
    const post = await createPost(t, { accounts: t.accounts.map((a) => a.id) });
    await publishRows(post.id, {}, Date.UTC(2026, 10, 21, 14, 5, 1));
    // The second row a few seconds later, the same minute; then a repeat's next publication.
    await env.DB.prepare(
      "UPDATE post_platforms SET posted_on = ? WHERE id = (SELECT max(id) FROM post_platforms WHERE post_id = ?)",
    )
      .bind(JSON.stringify([Date.UTC(2026, 10, 21, 14, 5, 7), Date.UTC(2026, 10, 22, 14, 5, 7)]), post.id)
      .run();
    const shown = await call("GET", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(shown.body.posted_on).toEqual(["2026-11-21 03:05 PM", "2026-11-22 03:05 PM"]);
    expect(shown.body.platforms.map((row: { posted_on: string[] }) => row.posted_on)).toEqual([
      ["2026-11-21 03:05 PM"],
      ["2026-11-21 03:05 PM", "2026-11-22 03:05 PM"],
    ]);
  });
});

describe("write budget", () => {
  it("create and update cost two sequential hops once the key is known: the Coordinator alongside the reference checks, then the writes with the read-back", async () => {
    const t = await createTenant();
    // The key's first request looks it up in D1 (test/http/gate.test.ts); the budgets below are later ones.
    await call("GET", "/api/v1/workspaces", { key: t.key });
    const created = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: { workspace_id: t.workspace.id, accounts: t.accounts.map((a) => a.id), content: [{ text: "x" }] },
    });
    expect(serverTiming(created.headers)).toMatchObject({ dbTrips: 2, gateCalls: 1, hops: 2 });
    const updated = await call("PUT", `/api/v1/posts/${created.body.id}`, {
      key: t.key,
      body: { content: [{ text: "y" }] },
    });
    expect(serverTiming(updated.headers)).toMatchObject({ dbTrips: 2, gateCalls: 1, hops: 2 });
    const fetched = await call("GET", `/api/v1/posts/${created.body.id}`, { key: t.key });
    expect(serverTiming(fetched.headers)).toMatchObject({ dbTrips: 1, gateCalls: 1, hops: 1 });
    const deleted = await call("DELETE", `/api/v1/posts/${created.body.id}`, { key: t.key });
    expect(serverTiming(deleted.headers)).toMatchObject({ dbTrips: 1, gateCalls: 1, hops: 2 });
  });
});
