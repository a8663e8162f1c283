// POST /api/v1/analytics/posts/{id}/sync: one job per PUBLISHED row with a platform post, nothing when
// the post's owner has no syncing subscription, 404 for a post the caller cannot see.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultSyncDeps } from "../../src/analytics/sync";
import worker from "../../src/index";
import { publishingAdapter } from "../../src/platforms";
import { follow } from "../sandbox/support";
import { admin, call, serverTiming } from "../support/client";
import { createKey, createTenant, createUser } from "../support/seed";
import { waitFor } from "../support/wait";
import {
  createWebhook,
  deliveriesSettled,
  installOrigins,
  outboxCleared,
  Receiver,
  receiverUrl,
} from "../webhooks/support";
import { deliver } from "./queue";
import {
  metrics,
  postOn,
  publishFake,
  publishOnSandbox,
  readRow,
  sandboxAccount,
  setRow,
  subscribe,
} from "./support";

/** Captures what the route enqueues, without delivering it. */
function captureQueue() {
  const sent = vi.spyOn(env.ANALYTICS_SYNC_QUEUE, "sendBatch").mockResolvedValue(undefined as never);
  return () => sent.mock.calls.flatMap(([messages]) => [...messages].map((m) => m.body));
}
afterEach(() => {
  vi.restoreAllMocks();
});

const sync = (key: string, postId: number) => call("POST", `/api/v1/analytics/posts/${postId}/sync`, { key });

describe("POST /api/v1/analytics/posts/{id}/sync", () => {
  it.each(["active", "trialing", "grace_period"])(
    "queues one job per PUBLISHED row with a platform post (owner %s)",
    async (status) => {
      const t = await createTenant();
      await subscribe(t.user.id, status);
      const third = (
        await admin("POST", "/accounts", {
          workspace_id: t.workspace.id,
          platform: "threads",
          username: `h${Date.now()}`,
          name: "Third",
        })
      ).body.id as number;
      const post = await postOn(t, [t.accounts[0]!.id, t.accounts[1]!.id, third]);
      await publishFake(post.rows[0]!, metrics());
      await publishFake(post.rows[2]!, metrics());
      // Published but without a platform post id: nothing to sync.
      await publishFake(post.rows[1]!, metrics());
      await setRow(post.rows[1]!, { platform_post_id: null });
      const sent = captureQueue();

      const res = await sync(t.key, post.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ post_id: post.id, jobs_dispatched: 2, skipped: false, skip_reason: null });
      expect(sent()).toEqual([{ row_id: post.rows[0] }, { row_id: post.rows[2] }]);
      // The key is known (it created the post): the Coordinator, then the one batch.
      expect(serverTiming(res.headers)).toMatchObject({ dbTrips: 1, gateCalls: 1, hops: 2 });
    },
  );

  it("queues nothing for rows that are not published", async () => {
    const t = await createTenant();
    await subscribe(t.user.id);
    const post = await postOn(t, [t.accounts[0]!.id, t.accounts[1]!.id]);
    await publishFake(post.rows[0]!, metrics());
    await setRow(post.rows[0]!, { status: "FAILED" });
    const sent = captureQueue();
    const res = await sync(t.key, post.id);
    expect(res.body).toEqual({ post_id: post.id, jobs_dispatched: 0, skipped: false, skip_reason: null });
    expect(sent()).toEqual([]);
  });

  it.each([null, "canceled", "none"])(
    "skips when the owner's subscription is %s (null: no row)",
    async (status) => {
      const t = await createTenant();
      await subscribe(t.user.id, status);
      const post = await postOn(t);
      await publishFake(post.rows[0]!, metrics());
      const sent = captureQueue();
      const res = await sync(t.key, post.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        post_id: post.id,
        jobs_dispatched: 0,
        skipped: true,
        skip_reason: "post_owner_subscription_inactive",
      });
      expect(sent()).toEqual([]);
    },
  );

  it("goes by the post owner's subscription, not the caller's", async () => {
    const t = await createTenant();
    const member = await createUser();
    await admin("POST", `/workspaces/${t.workspace.id}/members`, { user_id: member.id });
    const memberKey = (await createKey(member.id)).key;
    const post = await postOn(t);
    await publishFake(post.rows[0]!, metrics());
    const sent = captureQueue();

    await subscribe(member.id);
    await subscribe(t.user.id, "canceled");
    const unpaidOwner = await sync(memberKey, post.id);
    expect(unpaidOwner.body).toMatchObject({ skipped: true, jobs_dispatched: 0 });

    await subscribe(member.id, "canceled");
    await subscribe(t.user.id);
    const paidOwner = await sync(memberKey, post.id);
    expect(paidOwner.body).toMatchObject({ skipped: false, jobs_dispatched: 1 });
    expect(sent()).toEqual([{ row_id: post.rows[0] }]);
  });

  it("answers 404 for another tenant's post, whatever its subscription", async () => {
    const victim = await createTenant();
    await subscribe(victim.user.id);
    const post = await postOn(victim);
    await publishFake(post.rows[0]!, metrics());
    const attacker = await createTenant();
    await subscribe(attacker.user.id);
    const sent = captureQueue();
    const res = await sync(attacker.key, post.id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Post not found." });
    expect(sent()).toEqual([]);
  });

  it("is delivered through the real queue: the metrics and comments arrive seconds later", async () => {
    const t = await createTenant();
    await subscribe(t.user.id);
    const post = await postOn(t);
    await publishOnSandbox(post.rows[0]!, sandboxAccount(t));
    const res = await sync(t.key, post.id);
    expect(res.body).toMatchObject({ jobs_dispatched: 1, skipped: false });

    const row = await waitFor(
      async () => {
        // The route claims the row (analytics_synced_at) at once; the metrics arrive with the job.
        const read = await readRow(post.rows[0]!);
        return read.analytics.impressions > 0 ? read : undefined;
      },
      { interval: 200, what: `row ${post.rows[0]} synced` },
    );
    expect(row.analytics.impressions).toBeGreaterThan(0);
    const report = await call("GET", `/api/v1/analytics/posts/${post.id}`, { key: t.key });
    expect(report.body.total).toEqual(row.analytics);
    const withComments = await call("GET", `/api/v1/posts/${post.id}?include_comments=true`, { key: t.key });
    expect(withComments.body.comments).toHaveLength(row.analytics.comments);
  });

  it("coalesces syncs within a minute: 10 syncs of a 2-account post read each row once", async () => {
    const t = await createTenant();
    await subscribe(t.user.id);
    const post = await postOn(t, [t.accounts[0]!.id, t.accounts[1]!.id]);
    for (const row of post.rows) await publishFake(row, metrics());
    const sent = captureQueue();
    for (let i = 0; i < 10; i++) {
      const res = await sync(t.key, post.id);
      // The answer counts the rows' jobs, queued now or coalesced into the one already queued.
      expect(res.body).toEqual({ post_id: post.id, jobs_dispatched: 2, skipped: false, skip_reason: null });
    }
    expect(sent()).toEqual(post.rows.map((row_id) => ({ row_id })));
    // What the platform is asked when those jobs run: one read per row.
    const insights = vi.fn(async () => metrics({ likes: 3 }));
    const deps = {
      ...defaultSyncDeps,
      adapterFor: (e: Env, p: Parameters<typeof publishingAdapter>[1]) => ({
        ...publishingAdapter(e, p, "live"),
        insights,
        comments: async () => [],
      }),
    };
    await deliver(sent(), { deps });
    expect(insights).toHaveBeenCalledTimes(2);
    // Still within the minute after the sync: nothing new is queued.
    await sync(t.key, post.id);
    expect(sent()).toHaveLength(2);
    // A minute later, a sync reads again.
    for (const row of post.rows) await setRow(row, { analytics_synced_at: Date.now() - 61_000 });
    const later = await sync(t.key, post.id);
    expect(later.body).toMatchObject({ jobs_dispatched: 2 });
    expect(sent()).toHaveLength(4);
  });

  it("answers 403 for a key without the posts ability", async () => {
    const t = await createTenant();
    const { key } = await createKey(t.user.id, ["accounts", "workspaces", "labels"]);
    const post = await postOn(t);
    for (const [method, path] of [
      ["POST", `/api/v1/analytics/posts/${post.id}/sync`],
      ["GET", `/api/v1/analytics/posts/${post.id}`],
      ["GET", `/api/v1/analytics/accounts/${t.accounts[0]!.id}`],
      ["GET", `/api/v1/analytics/workspaces/${t.workspace.id}`],
      ["GET", "/api/v1/analytics"],
    ] as const) {
      const res = await call(method, path, { key });
      expect([path, res.status, res.body]).toEqual([
        path,
        403,
        { message: "Forbidden - Insufficient permissions", ability: "posts" },
      ]);
    }
  });
});

describe("comment.received, end to end", () => {
  it("reaches the workspace's endpoint once when the sync job is delivered twice", async () => {
    const origins = installOrigins();
    const t = await createTenant();
    const receiver = new Receiver(origins, receiverUrl());
    const hook = await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiver.url,
      events: ["comment.received"],
    });
    const post = await postOn(t);
    const account = sandboxAccount(t);
    const published = await publishOnSandbox(post.rows[0]!, account);
    const made = await follow(account.platform, account.username, {
      post_id: published.id,
      text: "First!",
      author: { name: "Fan One", username: "fan_one" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    // One job, handed to the worker twice under the same message id, as the queue redelivers it.
    const job = { id: `comment-sync-${post.rows[0]}`, body: { row_id: post.rows[0] } };
    for (let copy = 0; copy < 2; copy++) {
      const batch = createMessageBatch("analytics-sync", [
        { ...job, timestamp: new Date(), attempts: 1 + copy },
      ]);
      const ctx = createExecutionContext();
      await worker.queue(batch, env, ctx);
      expect((await getQueueResult(batch, ctx)).retryMessages).toEqual([]);
    }

    // The sandbox's own followers comment too: each stored comment is told once, the follower's among them.
    const stored = (
      await env.DB.prepare("SELECT id FROM comments WHERE post_id = ? ORDER BY id")
        .bind(post.id)
        .all<{ id: number }>()
    ).results.map((c) => c.id);
    const requests = await receiver.waitFor("comment.received", stored.length);
    const events = requests.map((r) => new Webhook(hook.secret).verify(r.body, r.headers) as any);
    expect(events.find((e) => e.data.platform_comment_id === made.body.id)?.data).toMatchObject({
      content: "First!",
      post_id: post.id,
      is_own: false,
    });
    for (const id of stored) await outboxCleared(id, "comment.received");
    for (const e of events)
      expect(await deliveriesSettled(e.id)).toMatchObject([{ status: "succeeded", attempts: 1 }]);
    expect(
      receiver
        .of("comment.received")
        .map((r) => r.json.data.id)
        .sort((a, b) => a - b),
    ).toEqual(stored);
  });
});
