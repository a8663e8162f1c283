// The analytics-sync consumer, called as the runtime calls it (createMessageBatch / getQueueResult), on
// rows published on the sandbox through its adapter: metrics and comments stored once however often a
// job is delivered, stale rows skipped, and each kind of platform failure answered as it should be.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SYNC_BACKOFF } from "../../src/analytics/consumer";
import { defaultSyncDeps, type SyncDeps } from "../../src/analytics/sync";
import { backoffSeconds } from "../../src/lib/queue";
import { publishingAdapter } from "../../src/platforms";
import { type PlatformAdapter, PlatformError } from "../../src/platforms/types";
import { call } from "../support/client";
import { createTenant } from "../support/seed";
import { createWebhook, receiverUrl } from "../webhooks/support";
import { deliver } from "./queue";
import {
  authOf,
  metrics,
  postOn,
  publishFake,
  publishOnSandbox,
  readRow,
  sandboxAccount,
  setRow,
} from "./support";

afterEach(() => {
  vi.restoreAllMocks();
});

async function storedComments(postId: number) {
  const { results } = await env.DB.prepare(
    "SELECT id, platform, platform_comment_id, content, author_name, contact FROM comments WHERE post_id = ? ORDER BY id",
  )
    .bind(postId)
    .all<Record<string, any>>();
  return results;
}

/** A tenant's post published on the sandbox (twitter), and its row. */
async function sandboxPostOf(fields: Record<string, unknown> = {}, text = "Hello") {
  const t = await createTenant();
  const post = await postOn(t, [t.accounts[0]!.id], fields);
  const rowId = post.rows[0]!;
  const published = await publishOnSandbox(rowId, sandboxAccount(t), text);
  return { t, postId: post.id, rowId, published };
}

/** The sandbox adapter with some of its calls replaced. */
function withAdapter(overrides: Partial<PlatformAdapter>): SyncDeps {
  return {
    ...defaultSyncDeps,
    adapterFor: (e, platform) => ({ ...publishingAdapter(e, platform, "live"), ...overrides }),
  };
}

describe("storing", () => {
  it("stores the platform's metrics, the sync time and the post's comments, and acks", async () => {
    const { t, postId, rowId, published } = await sandboxPostOf();
    const before = Date.now();
    const result = await deliver([rowId]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);

    const row = await readRow(rowId);
    expect(row.analytics_synced_at).toBeGreaterThanOrEqual(before);
    expect(Object.keys(row.analytics).sort()).toEqual(
      ["comments", "engagement_rate", "impressions", "likes", "quotes", "saves", "shares"].sort(),
    );
    expect(row.analytics.impressions).toBeGreaterThan(0);
    const live = await publishingAdapter(env, "twitter", "live").insights(
      authOf(sandboxAccount(t)),
      published.id,
    );
    expect(live!.impressions).toBeGreaterThanOrEqual(row.analytics.impressions);

    const stored = await storedComments(postId);
    expect(stored.length).toBeGreaterThanOrEqual(1);
    // The sandbox lists exactly as many comments as its metrics count.
    expect(stored).toHaveLength(row.analytics.comments);
    expect(stored[0]).toMatchObject({
      platform: "twitter",
      platform_comment_id: expect.stringMatching(/^\d+$/),
    });
    expect(JSON.parse(stored[0]!.contact)).toMatchObject({ name: stored[0]!.author_name });
  });

  it("leaves a disconnected account's row as it was: no platform call, its metrics kept", async () => {
    const { t, rowId } = await sandboxPostOf();
    await setRow(rowId, { analytics: { impressions: 61 } });
    expect((await call("DELETE", `/api/v1/accounts/${t.accounts[0]!.id}`, { key: t.key })).status).toBe(200);
    const insights = vi.fn();
    const result = await deliver([rowId], { deps: withAdapter({ insights }) });
    expect(result.explicitAcks).toHaveLength(1);
    expect(insights).not.toHaveBeenCalled();
    const row = await readRow(rowId);
    expect(row.status).toBe("PUBLISHED");
    expect(row.analytics).toEqual({ impressions: 61 });
  });

  it("asks nothing past the platform's insights lifetime: the row keeps its metrics, the sync is recorded", async () => {
    const { rowId } = await sandboxPostOf();
    const DAY = 86_400_000;
    await setRow(rowId, { analytics: { impressions: 61 }, posted_on: [Date.now() - 2 * DAY] });
    const insights = vi.fn();
    const comments = vi.fn();
    // Insights for a day after publication, as Instagram gives a story's.
    const deps = {
      ...withAdapter({ insights, comments }),
      lifetimeOf: () => ({ insightsLifetime: () => 86_400 }),
    };
    const before = Date.now();
    const result = await deliver([rowId], { deps });
    expect(result.explicitAcks).toHaveLength(1);
    expect(insights).not.toHaveBeenCalled();
    expect(comments).not.toHaveBeenCalled();
    const row = await readRow(rowId);
    expect(row.analytics).toEqual({ impressions: 61 });
    expect(row.analytics_synced_at).toBeGreaterThanOrEqual(before);
    // Within the lifetime, the row is read as any other.
    await setRow(rowId, { posted_on: [Date.now() - DAY / 2] });
    const within = await deliver([rowId], { deps: { ...deps, adapterFor: defaultSyncDeps.adapterFor } });
    expect(within.explicitAcks).toHaveLength(1);
    expect((await readRow(rowId)).analytics.impressions).toBeGreaterThan(0);
    expect(Object.keys((await readRow(rowId)).analytics)).toContain("engagement_rate");
  });

  it("tells the follow-up read of an awaiting row when it was published, so a platform can stop waiting", async () => {
    const { rowId } = await sandboxPostOf();
    const postedAt = Date.now() - 8 * 86_400_000;
    await setRow(rowId, { awaiting_public_id: 1, post_url: null, posted_on: [postedAt] });
    const resolve = vi.fn(async (_account: unknown, id: string, _publishedAt?: number) => ({
      id,
      url: null,
    }));
    const result = await deliver([rowId], { deps: withAdapter({ resolve }) });
    expect(result.explicitAcks).toHaveLength(1);
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve.mock.calls[0]![2]).toBe(postedAt);
    // Answered as published for good without a public address: nothing is awaited any more.
    expect((await readRow(rowId)).awaiting_public_id).toBe(0);
  });

  it("changes nothing twice when a job is delivered again, or twice in one batch", async () => {
    const { postId, rowId } = await sandboxPostOf();
    await deliver([rowId]);
    const first = await storedComments(postId);
    // A comment edited on the platform since (here: in our copy) takes the platform's text again.
    await env.DB.prepare("UPDATE comments SET content = 'edited' WHERE post_id = ?").bind(postId).run();
    const again = await deliver([rowId, rowId]);
    expect(again.explicitAcks).toHaveLength(2);
    const second = await storedComments(postId);
    // Comments only ever grow on the sandbox; none is stored twice.
    expect(second.slice(0, first.length)).toEqual(first);
    const ids = second.map((c) => c.platform_comment_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(second).toHaveLength((await readRow(rowId)).analytics.comments);
  });

  it("records analytics.synced only when the metrics changed, once per job however often it is delivered", async () => {
    const t = await createTenant();
    await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiverUrl(),
      events: ["analytics.synced"],
    });
    const post = await postOn(t);
    const rowId = post.rows[0]!;
    await publishFake(rowId, metrics({ likes: 2 }));
    const announced = vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockResolvedValue(undefined as never);
    const events = async () =>
      (
        await env.DB.prepare("SELECT version FROM outbox WHERE record_id = ? AND type = 'analytics.synced'")
          .bind(rowId)
          .all<{ version: string }>()
      ).results.length;
    let answer = metrics({ likes: 2 });
    const deps = withAdapter({ insights: async () => answer, comments: async () => [] });
    // The platform answers what is stored: synced, nothing to tell.
    await deliver([rowId, rowId], { deps });
    expect(await events()).toBe(0);
    expect(announced).not.toHaveBeenCalled();
    // New metrics: one event, however often its job (one message id) is delivered.
    answer = metrics({ likes: 3 });
    await deliver([{ row_id: rowId }], { deps });
    expect(await events()).toBe(1);
    expect(announced).toHaveBeenCalledTimes(1);
    // Another job finding the same metrics tells nothing more.
    await deliver([rowId], { deps });
    expect(await events()).toBe(1);
    expect((await readRow(rowId)).analytics).toEqual(metrics({ likes: 3 }));
  });

  it("shows the synced comments and metrics on GET /api/v1/posts/{id}?include_comments=true", async () => {
    const { t, postId, rowId } = await sandboxPostOf();
    await deliver([rowId]);
    const row = await readRow(rowId);
    const res = await call("GET", `/api/v1/posts/${postId}?include_comments=true`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body.platforms[0].analytics).toEqual(row.analytics);
    expect(res.body.comments).toHaveLength(row.analytics.comments);
    expect(res.body.comments[0]).toMatchObject({
      platform: "twitter",
      content: expect.any(String),
      author_name: expect.any(String),
      contact: { name: expect.any(String), username: expect.any(String) },
    });
    const analytics = await call("GET", `/api/v1/analytics/posts/${postId}`, { key: t.key });
    expect(analytics.body.total).toEqual(row.analytics);
  });

  it("acks rows that are no longer PUBLISHED, gone, or malformed messages, and touches nothing", async () => {
    const { postId, rowId } = await sandboxPostOf();
    await setRow(rowId, { status: "FAILED", analytics: { likes: 7 } });
    const result = await deliver([rowId, 999_999_999, { row_id: "x" }, null]);
    expect(result.explicitAcks).toHaveLength(4);
    expect(result.retryMessages).toEqual([]);
    const row = await readRow(rowId);
    expect(row.analytics).toEqual({ likes: 7 });
    expect(row.analytics_synced_at).toBeNull();
    expect(await storedComments(postId)).toEqual([]);
  });
});

describe("failures", () => {
  it("retries a rate-limited sync after the platform's Retry-After", async () => {
    const { rowId } = await sandboxPostOf();
    const deps = withAdapter({
      insights: () =>
        Promise.reject(
          new PlatformError("HTTP 429", { kind: "rate_limited", code: "rate_limited", retryAfterSeconds: 7 }),
        ),
    });
    const result = await deliver([rowId], { deps });
    expect(result.retryMessages).toHaveLength(1);
    expect(result.delays).toEqual([7]);
    expect((await readRow(rowId)).analytics_synced_at).toBeNull();
  });

  it("retries a transient failure with a backoff that grows with the attempts", async () => {
    const { rowId } = await sandboxPostOf();
    const deps = withAdapter({
      comments: () =>
        Promise.reject(new PlatformError("HTTP 503", { kind: "transient", code: "server_error" })),
    });
    const first = await deliver([rowId], { deps, attempts: 1 });
    const third = await deliver([rowId], { deps, attempts: 3 });
    expect([first.delays, third.delays]).toEqual([[30], [120]]);
    expect(backoffSeconds(20, SYNC_BACKOFF)).toBe(900);
    // Nothing half-stored: no metrics without their comments.
    expect((await readRow(rowId)).analytics_synced_at).toBeNull();
  });

  it("records and acks a permanent failure: the row keeps its metrics", async () => {
    const t = await createTenant();
    const post = await postOn(t);
    // A platform post the sandbox does not have: a 404, refused for good.
    await publishFake(post.rows[0]!, { likes: 3 }, "123456789");
    const result = await deliver([post.rows[0]!]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    const row = await readRow(post.rows[0]!);
    expect(row.analytics).toEqual({ likes: 3 });
    expect(row.analytics_synced_at).toBeGreaterThan(0);
  });

  it("records and acks an auth failure", async () => {
    const { rowId } = await sandboxPostOf();
    const deps = withAdapter({
      insights: () => Promise.reject(new PlatformError("HTTP 401", { kind: "auth", code: "unauthorized" })),
    });
    const result = await deliver([rowId], { deps });
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
  });

  it("acks dead letters, leaving the row as it was", async () => {
    const { rowId } = await sandboxPostOf();
    await setRow(rowId, { analytics: { likes: 5 } });
    const result = await deliver([rowId, "junk"], { queue: "analytics-sync-dlq" });
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
    expect((await readRow(rowId)).analytics).toEqual({ likes: 5 });
  });
});
