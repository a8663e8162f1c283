// The publishing engine end to end on the sandbox platform: every failure trigger, counted on the
// sandbox account itself. The real queue delivers `publish_now` (and the rate limit's Retry-After);
// consumers are driven by hand where the queue's backoff would make a test slow.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ATTEMPT_TIMEOUT_MS } from "../../src/publishing/lease";
import { call } from "../support/client";
import { insertMedia } from "../support/db";
import { createPost, createTenant } from "../support/seed";
import { deliver, postOf, publishingPost, rowsOf, sandboxPosts, settled } from "./support";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("on the sandbox", () => {
  it("publish_now reaches PUBLISHED with the sandbox post's id and url, exactly one publication", async () => {
    const t = await createTenant();
    const post = await createPost(t, { content: [{ text: "Hello sandbox" }], publish_now: true });
    const [row] = await settled(post.id);
    const published = await sandboxPosts("twitter", t.accounts[0]!.id);
    expect(published).toHaveLength(1);
    expect(published[0]!.text).toEqual(["Hello sandbox"]);
    expect(row).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: published[0]!.id,
      post_url: `https://api.example.test/sandbox/twitter/posts/${published[0]!.id}`,
      error: null,
    });
    expect(row!.platform_post_id).toMatch(/^\d+$/);

    const answer = await call("GET", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(answer.body.status).toBe("PUBLISHED");
    expect(answer.body.platforms[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: row!.platform_post_id,
      post_url: row!.post_url,
      error: null,
    });
    expect(answer.body.platforms[0].posted_on).toHaveLength(1);
  });

  it("delivers a thread with media in order: on X a reply chain, each post with its uploaded media", async () => {
    const t = await createTenant();
    const stored = async (mime: string, bytes: Uint8Array) => {
      const type = mime.startsWith("video/") ? "video" : "image";
      const id = await insertMedia(t.workspace.id, { mime_type: mime, type, size: bytes.byteLength });
      const row = await env.DB.prepare("SELECT r2_key FROM media WHERE id = ?")
        .bind(id)
        .first<{ r2_key: string }>();
      await env.MEDIA.put(row!.r2_key, bytes);
      return id;
    };
    const photo = await stored("image/png", new Uint8Array(64).fill(1));
    const clip = await stored("video/mp4", new Uint8Array(96).fill(2));
    const id = await publishingPost(t, {
      content: [{ text: "First", media: [photo] }, { text: "Second" }, { text: "Third", media: [clip] }],
    });
    await deliver([{ post_id: id }]);
    // X publishes a thread as a chain of replies: the account lists the first post, each reply the next.
    const listed = await sandboxPosts("twitter", t.accounts[0]!.id);
    expect(listed).toHaveLength(1);
    const chain = [listed[0]!];
    for (let i = 0; i < 2; i++) {
      const next = await call("GET", `/sandbox/twitter/posts/${(chain[i] as any).replies[0].id}`, {
        headers: { accept: "application/json" },
      });
      chain.push(next.body);
    }
    expect(chain.map((p) => p.text)).toEqual([["First"], ["Second"], ["Third"]]);
    expect(chain.map((p) => p.media.map((m) => [m.item, m.type]))).toEqual([
      [[0, "image/png"]],
      [],
      [[0, "video/mp4"]],
    ]);
    // Each media is what X received, stored by its X media id.
    for (const post of [chain[0]!, chain[2]!])
      expect(new URL(post.media[0]!.url).pathname).toMatch(/^\/sandbox\/twitter\/media\/\d{19}$/);
    expect((await rowsOf(id))[0]!.platform_post_id).toBe(chain[0]!.id);
  });

  it("#sandbox-fail: FAILED with the platform's message at once, no retry, nothing published", async () => {
    const t = await createTenant();
    const id = await publishingPost(t, { content: [{ text: "Bad #sandbox-fail" }] });
    const result = await deliver([{ post_id: id }]);
    expect(result).toMatchObject({ acks: 1, retries: 0 });
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({
      status: "FAILED",
      error: { message: expect.stringContaining("#sandbox-fail") },
      platform_post_id: null,
    });
    expect((await postOf(id))!.status).toBe("FAILED");
    expect(await sandboxPosts("twitter", t.accounts[0]!.id)).toEqual([]);
  });

  it("#sandbox-flaky: retried with backoff and published on the third attempt", async () => {
    const t = await createTenant();
    const id = await publishingPost(t, { content: [{ text: "Wobbly #sandbox-flaky" }] });
    const first = await deliver([{ post_id: id }], { attempts: 1 });
    expect(first).toMatchObject({ retries: 1, delays: [10] });
    expect((await rowsOf(id))[0]).toMatchObject({
      status: "PUBLISHING",
      error: { message: expect.stringContaining("attempt 1") },
    });
    const second = await deliver([{ post_id: id }], { attempts: 2 });
    expect(second).toMatchObject({ retries: 1, delays: [20] });
    const third = await deliver([{ post_id: id }], { attempts: 3 });
    expect(third).toMatchObject({ acks: 1, retries: 0 });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", attempts: 3, error: null });
    expect(await sandboxPosts("twitter", t.accounts[0]!.id)).toHaveLength(1);
  });

  it("#sandbox-ratelimit: retried by the queue after the 2-second Retry-After, then published", async () => {
    const t = await createTenant();
    const start = Date.now();
    const post = await createPost(t, { content: [{ text: "Busy #sandbox-ratelimit" }], publish_now: true });
    const [row] = await settled(post.id, 15_000);
    expect(row).toMatchObject({ attempts: 2, error: null });
    const [published] = await sandboxPosts("twitter", t.accounts[0]!.id);
    expect(Date.parse(published!.published_at) - start).toBeGreaterThanOrEqual(2000);
  });

  it("#sandbox-lost: the lost answer is reconciled, exactly one publication", async () => {
    const t = await createTenant();
    const id = await publishingPost(t, { content: [{ text: "Where did it go #sandbox-lost" }] });
    const first = await deliver([{ post_id: id }]);
    expect(first.retries).toBe(1);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING", error: expect.anything() });
    await deliver([{ post_id: id }], { attempts: 2 });
    const published = await sandboxPosts("twitter", t.accounts[0]!.id);
    expect(published).toHaveLength(1);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: published[0]!.id });
  });

  it("publishes nothing twice when a message is redelivered after success", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    await deliver([{ post_id: id }]);
    await deliver([{ post_id: id }, { post_id: id }]);
    expect(await sandboxPosts("twitter", t.accounts[0]!.id)).toHaveLength(1);
  });

  it("gives two consumers racing on one post (two batches at once) one publication per row", async () => {
    const t = await createTenant();
    const id = await publishingPost(t, { accounts: t.accounts.map((a) => a.id) });
    await Promise.all([deliver([{ post_id: id }]), deliver([{ post_id: id }]), deliver([{ post_id: id }])]);
    expect(await sandboxPosts("twitter", t.accounts[0]!.id)).toHaveLength(1);
    expect(await sandboxPosts("linkedin", t.accounts[1]!.id)).toHaveLength(1);
    expect((await postOf(id))!.status).toBe("PUBLISHED");
  });

  it("takes over the row of a worker that died mid-call and reconciles it: one publication", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const [row] = await rowsOf(id);
    // The dead worker's attempt reached the sandbox with the row's fingerprint, then nothing was recorded.
    const { publishingAdapter } = await import("../../src/platforms/index");
    const handle = (await env.DB.prepare("SELECT username FROM accounts WHERE id = ?")
      .bind(t.accounts[0]!.id)
      .first<{ username: string }>())!.username;
    const earlier = await publishingAdapter(env, "twitter", "live").publish(
      { handle, platformUserId: null, accessToken: null },
      { items: [{ text: "Hello", media: [] }], settings: {}, fingerprint: `sp-${row!.id}-1` },
    );
    await env.DB.prepare(
      "UPDATE post_platforms SET attempt_id = 'dead', attempt_started_at = ?, attempts = 1 WHERE id = ?",
    )
      .bind(Date.now() - ATTEMPT_TIMEOUT_MS - 60_000, row!.id)
      .run();
    await deliver([{ post_id: id }]);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: earlier.id });
    expect(await sandboxPosts("twitter", t.accounts[0]!.id)).toHaveLength(1);
  });
});
