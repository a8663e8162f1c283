// Approvals over HTTP: the workspace policy, PENDING_APPROVAL and `version` on create and update, every
// decision's transition, stale versions, the `approvals` ability, exactly one decision under 10 parallel
// approvals, an edit after approval, a due pending post never claimed, queue slots held while pending,
// the review history, the events, tenancy of the new routes, and the MCP tools.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client";
import { claimWakeUp } from "../../src/publishing/wake";
import type { Origins } from "../media/support";
import { admin, call } from "../support/client";
import { d1Of, insertMedia } from "../support/db";
import { ALL_ABILITIES, createKey, createTenant, createWorkspace, inMinutes } from "../support/seed";
import { createWebhook, installOrigins, Receiver, receiverUrl } from "../webhooks/support";
import {
  approve,
  eventVersions,
  makeDue,
  pendingPost,
  postIn,
  reject,
  requiredTenant,
  reviewsOf,
} from "./support";

const WITHOUT_APPROVALS = ["posts", "workspaces", "accounts", "labels"];

describe("the workspace's approval policy", () => {
  it("is `none` by default, set by PATCH and shown on the workspace; a bad value is a 422, another tenant's workspace a 404", async () => {
    const t = await createTenant();
    let list = await call("GET", "/api/v1/workspaces", { key: t.key });
    expect(list.body.data[0].approval).toBe("none");
    const res = await call("PATCH", `/api/v1/workspaces/${t.workspace.id}`, {
      key: t.key,
      body: { approval: "required" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: t.workspace.id, approval: "required" });
    list = await call("GET", "/api/v1/workspaces", { key: t.key });
    expect(list.body.data[0].approval).toBe("required");

    const bad = await call("PATCH", `/api/v1/workspaces/${t.workspace.id}`, {
      key: t.key,
      body: { approval: "sometimes" },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(["approval"]);

    const other = await createTenant();
    const foreign = await call("PATCH", `/api/v1/workspaces/${t.workspace.id}`, {
      key: other.key,
      body: { approval: "none" },
    });
    expect(foreign.status).toBe(404);
    list = await call("GET", "/api/v1/workspaces", { key: t.key });
    expect(list.body.data[0].approval).toBe("required");
  });

  it("cannot be switched by a key that may only propose (no `approvals`): 403 naming it, nothing changed", async () => {
    const t = await requiredTenant();
    const agent = await createKey(t.user.id, WITHOUT_APPROVALS);
    const off = await call("PATCH", `/api/v1/workspaces/${t.workspace.id}`, {
      key: agent.key,
      body: { approval: "none" },
    });
    expect(off.status).toBe(403);
    expect(off.body).toEqual({ message: "Forbidden - Insufficient permissions", ability: "approvals" });
    const list = await call("GET", "/api/v1/workspaces", { key: t.key });
    expect(list.body.data[0].approval).toBe("required");
    // A body that changes nothing of the policy needs only `workspaces`.
    expect(
      (await call("PATCH", `/api/v1/workspaces/${t.workspace.id}`, { key: agent.key, body: {} })).status,
    ).toBe(200);
  });
});

describe("posts in a workspace that requires approval", () => {
  it("a draft stays a draft; a time, publish_now or queue makes it PENDING_APPROVAL, rows too, at version 1", async () => {
    const t = await requiredTenant();
    const draft = await postIn(t, { scheduled_at: undefined });
    expect(draft.body).toMatchObject({ status: "DRAFT", version: 1 });
    const scheduled = await pendingPost(t);
    expect(scheduled.version).toBe(1);
    const now = await pendingPost(t, { scheduled_at: undefined, publish_now: true });
    const got = await call("GET", `/api/v1/posts/${now.id}`, { key: t.key });
    expect(got.body.status).toBe("PENDING_APPROVAL");
    expect(got.body.platforms.map((row: { status: string }) => row.status)).toEqual(["PENDING_APPROVAL"]);
    // Listed by its status.
    const listed = await call("GET", `/api/v1/posts?status=PENDING_APPROVAL&workspace_id=${t.workspace.id}`, {
      key: t.key,
    });
    expect(listed.body.data.map((p: { id: number }) => p.id).sort()).toEqual([scheduled.id, now.id].sort());
    expect(await reviewsOf(t, scheduled.id)).toEqual([
      {
        action: "submitted",
        version: 1,
        note: null,
        by: { type: "key", name: "API key" },
        at: expect.any(String),
      },
    ]);
  });

  it("approve: another version is a 409, then SCHEDULED at its time, then a 422; the history says who", async () => {
    const t = await requiredTenant();
    const post = await pendingPost(t);
    const stale = await approve(t, post.id, { version: 2 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain("version 1");
    const ok = await approve(t, post.id, { version: 1, note: "Looks good" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ status: "SCHEDULED", version: 1, scheduled_at: post.scheduled_at });
    expect(ok.body.platforms[0].status).toBe("SCHEDULED");
    const again = await approve(t, post.id, { version: 1 });
    expect(again.status).toBe(422);
    expect(Object.keys(again.body.errors)).toEqual(["status"]);
    const reviews = await reviewsOf(t, post.id);
    expect(reviews.map((r) => [r.action, r.version, r.note])).toEqual([
      ["submitted", 1, null],
      ["approved", 1, "Looks good"],
    ]);
  });

  it("reject: back to DRAFT with its time released and the reason kept; rejecting again is a 422", async () => {
    const t = await requiredTenant();
    const post = await pendingPost(t);
    const res = await reject(t, post.id, { version: 1, reason: "Wrong link" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "DRAFT", scheduled_at: null, version: 1 });
    expect(res.body.platforms[0].status).toBe("DRAFT");
    expect((await reject(t, post.id, { version: 1, reason: "x" })).status).toBe(422);
    expect((await reject(t, post.id, { version: 1 })).status).toBe(422);
    const reviews = await reviewsOf(t, post.id);
    expect(reviews.at(-1)).toMatchObject({ action: "rejected", version: 1, note: "Wrong link" });
    // Given a time again, it waits again, at a new version.
    const resubmitted = await call("PUT", `/api/v1/posts/${post.id}`, {
      key: t.key,
      body: { scheduled_at: inMinutes(90) },
    });
    expect(resubmitted.body).toMatchObject({ status: "PENDING_APPROVAL", version: 2 });
    expect((await reviewsOf(t, post.id)).at(-1)).toMatchObject({ action: "submitted", version: 2 });
  });

  it("an edit after approval makes it pending again at a new version (`edited`); labels alone do not", async () => {
    const t = await requiredTenant();
    const post = await pendingPost(t);
    expect((await approve(t, post.id, { version: 1 })).status).toBe(200);
    const label = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "Campaign", color: "#112233" },
    });
    const labelled = await call("PUT", `/api/v1/posts/${post.id}`, {
      key: t.key,
      body: { labels: [label.body.id] },
    });
    expect(labelled.body).toMatchObject({ status: "SCHEDULED", version: 1 });
    const edited = await call("PUT", `/api/v1/posts/${post.id}`, {
      key: t.key,
      body: { content: [{ text: "Changed after approval" }] },
    });
    expect(edited.body).toMatchObject({ status: "PENDING_APPROVAL", version: 2 });
    expect(edited.body.platforms[0].status).toBe("PENDING_APPROVAL");
    expect((await reviewsOf(t, post.id)).map((r) => [r.action, r.version])).toEqual([
      ["submitted", 1],
      ["approved", 1],
      ["edited", 2],
    ]);
    // The approval of the version seen before is stale.
    expect((await approve(t, post.id, { version: 1 })).status).toBe(409);
    expect((await approve(t, post.id, { version: 2 })).body.status).toBe("SCHEDULED");
  });

  it("a post approved after its time publishes at once", async () => {
    const t = await requiredTenant();
    const post = await pendingPost(t);
    await makeDue(post.id);
    const sent = vi.spyOn(env.PUBLISH_QUEUE, "sendBatch").mockResolvedValue(undefined as never);
    try {
      const res = await approve(t, post.id, { version: 1 });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe("PUBLISHING");
      expect(res.body.platforms[0].status).toBe("PUBLISHING");
      const bodies = sent.mock.calls.flatMap(([messages]) => [...messages].map((m) => m.body));
      expect(bodies).toContainEqual({ post_id: post.id });
    } finally {
      sent.mockRestore();
    }
  });

  it("a due pending post is never claimed by its wake-up", async () => {
    const t = await requiredTenant();
    const post = await pendingPost(t);
    const due = Date.now() - 1000;
    await makeDue(post.id, due);
    const queue = { send: vi.fn(), sendBatch: vi.fn() } as unknown as Queue;
    const deps = { now: () => Date.now(), sleep: async () => {} };
    const result = await claimWakeUp(createDb(d1Of(post.id)), queue, deps as never, post.id, due);
    expect(result).toBe("stale");
    const got = await call("GET", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(got.body.status).toBe("PENDING_APPROVAL");
  });

  it("with `none` again, waiting posts still wait; an edit then schedules them", async () => {
    const t = await requiredTenant();
    const post = await pendingPost(t);
    await call("PATCH", `/api/v1/workspaces/${t.workspace.id}`, { key: t.key, body: { approval: "none" } });
    expect((await call("GET", `/api/v1/posts/${post.id}`, { key: t.key })).body.status).toBe(
      "PENDING_APPROVAL",
    );
    const edited = await call("PUT", `/api/v1/posts/${post.id}`, {
      key: t.key,
      body: { content: [{ text: "now" }] },
    });
    expect(edited.body).toMatchObject({ status: "SCHEDULED", version: 2 });
  });
});

describe("what a waiting post uses", () => {
  it("its media cannot be deleted (409), and a disconnected account's row leaves it (a draft when none is left)", async () => {
    const t = await requiredTenant();
    const mediaId = await insertMedia(t.workspace.id);
    const post = await pendingPost(t, { content: [{ text: "With a photo", media: [mediaId] }] });
    expect((await call("DELETE", `/api/v1/media/${mediaId}`, { key: t.key })).status).toBe(409);
    const res = await call("DELETE", `/api/v1/accounts/${t.accounts[0]!.id}`, { key: t.key });
    expect(res.status).toBe(200);
    const got = await call("GET", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(got.body).toMatchObject({ status: "DRAFT", platforms: [] });
  });
});

describe("version", () => {
  it("starts at 1 and grows with content, targets, time and settings, not labels", async () => {
    const t = await createTenant();
    const created = await postIn(t);
    expect(created.body).toMatchObject({ status: "SCHEDULED", version: 1 });
    const id = created.body.id;
    const put = (body: object) => call("PUT", `/api/v1/posts/${id}`, { key: t.key, body });
    expect((await put({ content: [{ text: "b" }] })).body.version).toBe(2);
    expect((await put({ accounts: [t.accounts[1]!.id] })).body.version).toBe(3);
    expect((await put({ scheduled_at: inMinutes(120) })).body.version).toBe(4);
    expect((await put({ settings: { linkedin: { visibility: "PUBLIC" } } })).body.version).toBe(5);
    expect((await put({ labels: [] })).body.version).toBe(5);
  });
});

describe("the approvals ability", () => {
  it("a key without it creates pending posts (the agent proposes) but cannot decide: 403 naming the ability", async () => {
    const t = await requiredTenant();
    const agent = await createKey(t.user.id, WITHOUT_APPROVALS);
    const proposed = await postIn(t, {}, agent.key);
    expect(proposed.status).toBe(201);
    expect(proposed.body.status).toBe("PENDING_APPROVAL");
    for (const res of [
      await approve(t, proposed.body.id, { version: 1 }, agent.key),
      await reject(t, proposed.body.id, { version: 1, reason: "no" }, agent.key),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "Forbidden - Insufficient permissions", ability: "approvals" });
    }
    // Reading the history needs only `posts`.
    const history = await call("GET", `/api/v1/posts/${proposed.body.id}/reviews`, { key: agent.key });
    expect(history.status).toBe(200);
    expect((await approve(t, proposed.body.id, { version: 1 })).status).toBe(200);
  });
});

describe("exactly once", () => {
  let origins: Origins;
  beforeEach(() => {
    origins = installOrigins();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("10 parallel approvals: one 200, the others 409 or 422, one review entry, one post.approved", async () => {
    const t = await requiredTenant();
    const receiver = new Receiver(origins, receiverUrl());
    await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiver.url,
      events: ["post.approval_requested", "post.approved", "post.rejected"],
    });
    const post = await pendingPost(t);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => approve(t, post.id, { version: 1, note: `#${i}` })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 409 || s === 422)).toBe(true);
    const approvals = (await reviewsOf(t, post.id)).filter((r) => r.action === "approved");
    expect(approvals).toHaveLength(1);
    expect([...new Set(await eventVersions("post.approved", post.id))]).toEqual(["1"]);
    expect([...new Set(await eventVersions("post.approval_requested", post.id))]).toEqual(["1"]);

    // A rejection is told once too, per version.
    const second = await pendingPost(t);
    await reject(t, second.id, { version: 1, reason: "no" });
    expect([...new Set(await eventVersions("post.rejected", second.id))]).toEqual(["1"]);
    expect(await eventVersions("post.approved", second.id)).toEqual([]);
    // Delivered, each once (waited for, so no delivery outlives the test).
    await receiver.waitFor("post.approval_requested", 2);
    await receiver.waitFor("post.approved");
    await receiver.waitFor("post.rejected");
    expect(receiver.of("post.approved").map((r) => r.json.data.id)).toEqual([post.id]);
    expect(receiver.of("post.rejected").map((r) => [r.json.data.id, r.json.data.status])).toEqual([
      [second.id, "DRAFT"],
    ]);
  });
});

describe("queued posts waiting for approval", () => {
  it("hold their slot: the next queued post takes the following one", async () => {
    const t = await requiredTenant();
    const account = t.accounts[0]!.id;
    const slots = [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
      { day, time: "09:00" },
      { day, time: "17:00" },
    ]);
    expect(
      (await call("PUT", `/api/v1/accounts/${account}/queue`, { key: t.key, body: { slots } })).status,
    ).toBe(200);
    const first = await pendingPost(t, { scheduled_at: undefined, queue: true });
    const second = await pendingPost(t, { scheduled_at: undefined, queue: true });
    expect(first.scheduled_at).not.toBeNull();
    expect(Date.parse(second.scheduled_at!)).toBeGreaterThan(Date.parse(first.scheduled_at!));
    const free = await call("GET", `/api/v1/accounts/${account}/queue/slots?count=2`, { key: t.key });
    expect(free.body.data).not.toContain(first.scheduled_at);
  });
});

describe("tenancy of the new routes", () => {
  it("another tenant's post, and the other mode's, is a 404 on every new route, and nothing changes", async () => {
    const victim = await requiredTenant();
    const post = await pendingPost(victim);
    const attacker = await createTenant();
    // The victim's own user with a test-mode key: the live post is another mode's.
    const testKey = (
      await admin<{ key: string }>("POST", "/api-keys", {
        user_id: victim.user.id,
        abilities: ALL_ABILITIES,
        mode: "test",
      })
    ).body.key;
    await createWorkspace(victim.user.id, { mode: "test" });
    for (const key of [attacker.key, testKey]) {
      expect((await approve(victim, post.id, { version: 1 }, key)).status).toBe(404);
      expect((await reject(victim, post.id, { version: 1, reason: "x" }, key)).status).toBe(404);
      expect((await call("GET", `/api/v1/posts/${post.id}/reviews`, { key })).status).toBe(404);
      expect((await call("POST", `/api/v1/posts/${post.id}/review-links`, { key, body: {} })).status).toBe(
        404,
      );
      const patch = await call("PATCH", `/api/v1/workspaces/${victim.workspace.id}`, {
        key,
        body: { approval: "none" },
      });
      expect(patch.status).toBe(404);
    }
    const got = await call("GET", `/api/v1/posts/${post.id}`, { key: victim.key });
    expect(got.body.status).toBe("PENDING_APPROVAL");
    expect(await reviewsOf(victim, post.id)).toHaveLength(1);
  });
});

describe("MCP", () => {
  const rpc = (key: string, name: string, args: Record<string, unknown>) =>
    call("POST", "/mcp", {
      key,
      headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
    });

  it("approve_post and reject_post decide as REST does, and need the approvals ability", async () => {
    const t = await requiredTenant();
    const agent = await createKey(t.user.id, WITHOUT_APPROVALS);
    const post = await pendingPost(t);
    const refused = await rpc(agent.key, "approve_post", { id: post.id, version: 1 });
    expect(refused.body.result.isError).toBe(true);
    expect(refused.body.result.content[0].text).toContain("Insufficient permissions");
    const approved = await rpc(t.key, "approve_post", { id: post.id, version: 1 });
    expect(JSON.parse(approved.body.result.content[0].text).status).toBe("SCHEDULED");
    const other = await pendingPost(t);
    const rejected = await rpc(t.key, "reject_post", { id: other.id, version: 1, reason: "Not now" });
    expect(JSON.parse(rejected.body.result.content[0].text).status).toBe("DRAFT");
    // The agent (no `approvals`) reads why: the history names the reviewer and the reason.
    const history = await rpc(agent.key, "get_post_reviews", { id: other.id });
    expect(history.body.result.isError).toBeFalsy();
    expect(
      JSON.parse(history.body.result.content[0].text).data.map((r: { action: string }) => r.action),
    ).toEqual(["submitted", "rejected"]);
    expect(history.body.result.content[0].text).toContain("Not now");
  });
});
