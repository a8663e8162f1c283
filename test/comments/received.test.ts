// Comments stored by the analytics sync: what the adapter says of each (parent, page, own, hidden) kept,
// a parent resolved to our id once stored, and comment.received recorded once per new comment however
// often the sync job is delivered; an edited comment updates its row and tells nothing.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultSyncDeps, type SyncDeps } from "../../src/analytics/sync";
import { commentSchema } from "../../src/comments/schemas";
import { createDb } from "../../src/db/client";
import { publishingAdapter } from "../../src/platforms";
import type { PlatformAdapter, PlatformComment } from "../../src/platforms/types";
import { eventOf } from "../../src/webhooks/emit";
import { deliver } from "../analytics/queue";
import { metrics, postOn, publishFake } from "../analytics/support";
import { call } from "../support/client";
import { createTenant } from "../support/seed";
import { createWebhook, receiverUrl } from "../webhooks/support";

// The announcements are read from the spy, never sent: no webhook is delivered by these tests.
let announced: ReturnType<typeof spyOnSend>;
const spyOnSend = () => vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockResolvedValue(undefined as never);
beforeEach(() => {
  announced = spyOnSend();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const comment = (id: string, fields: Partial<PlatformComment> = {}): PlatformComment => ({
  id,
  content: `Comment ${id}`,
  author_name: "Ada",
  created_at: new Date(Date.UTC(2026, 10, 21, 8, 15)),
  contact: { name: "Ada", username: "ada", profile_url: "https://x.example/ada" },
  ...fields,
});

/** The sandbox adapter answering `found` as the post's comments. */
const reading = (found: () => PlatformComment[]): SyncDeps => ({
  ...defaultSyncDeps,
  adapterFor: (e, platform) =>
    ({
      ...publishingAdapter(e, platform, "live"),
      insights: async () => metrics({ likes: 1 }),
      comments: async () => found(),
    }) satisfies PlatformAdapter,
});

async function stored(postId: number) {
  const { results } = await env.DB.prepare(
    `SELECT id, workspace_id, account_id, platform_comment_id, platform_parent_id, parent_id, content, url,
      is_own, hidden, replied_at, received_at FROM comments WHERE post_id = ? ORDER BY id`,
  )
    .bind(postId)
    .all<Record<string, any>>();
  return results;
}

const received = async (ids: number[]) =>
  (
    await env.DB.prepare(
      `SELECT record_id, version FROM outbox WHERE type = 'comment.received' AND record_id IN (${ids.join(",") || 0}) ORDER BY record_id`,
    ).all<{ record_id: number; version: string }>()
  ).results;

async function listened() {
  const t = await createTenant();
  await createWebhook(t.key, {
    workspace_id: t.workspace.id,
    url: receiverUrl(),
    events: ["comment.received"],
  });
  const post = await postOn(t);
  const rowId = post.rows[0]!;
  await publishFake(rowId, metrics());
  return { t, postId: post.id, rowId };
}

describe("comments stored by the sync", () => {
  it("keeps what the adapter says, resolves a parent stored in the same sync, and fills absent fields", async () => {
    const { t, postId, rowId } = await listened();
    // The reply comes first: its parent is stored by the same batch.
    const found = [
      comment("r1", { parent_id: "c1", url: "https://x.example/r1", is_own: true }),
      comment("c1", { hidden: true }),
      comment("c2"),
    ];
    await deliver([rowId], { deps: reading(() => found) });
    const rows = await stored(postId);
    const c1 = rows.find((r) => r.platform_comment_id === "c1")!;
    expect(rows.map((r) => [r.platform_comment_id, r.parent_id, r.url, r.is_own, r.hidden])).toEqual([
      ["r1", c1.id, "https://x.example/r1", 1, 0],
      ["c1", null, null, 0, 1],
      ["c2", null, null, 0, 0],
    ]);
    expect(rows.every((r) => r.workspace_id === t.workspace.id && r.account_id === t.accounts[0]!.id)).toBe(
      true,
    );
    expect(rows.every((r) => r.replied_at === null && r.received_at > 0)).toBe(true);
  });

  it("records comment.received once per new comment, however often the job is delivered", async () => {
    const { postId, rowId } = await listened();
    let found = [comment("c1"), comment("c2")];
    const deps = reading(() => found);
    // The same job twice in one batch, then delivered again.
    await deliver([rowId, rowId], { deps });
    await deliver([rowId], { deps });
    const first = await stored(postId);
    expect(first).toHaveLength(2);
    expect(await received(first.map((r) => r.id))).toEqual(
      first.map((r) => ({ record_id: r.id, version: "" })),
    );
    // Announced once each (the analytics.synced of the same batches aside).
    const told = () =>
      announced.mock.calls.flatMap(([body]) =>
        (body as { outbox: Array<{ type: string; record_id: number }> }).outbox
          .filter((key) => key.type === "comment.received")
          .map((key) => key.record_id),
      );
    expect(told()).toEqual(first.map((r) => r.id));
    // Once told, the outbox rows are gone (as the webhooks consumer deletes them): a job delivered
    // again still records nothing for the comments already received.
    await env.DB.prepare("DELETE FROM outbox WHERE type = 'comment.received'").run();
    await deliver([rowId], { deps });
    expect(await received(first.map((r) => r.id))).toEqual([]);
    expect(told()).toEqual(first.map((r) => r.id));
    // An edited comment updates its row and tells nothing; a new one is told once.
    found = [comment("c1", { content: "Edited" }), comment("c2"), comment("c3", { parent_id: "c1" })];
    await deliver([rowId], { deps });
    await deliver([rowId], { deps });
    const second = await stored(postId);
    expect(second.map((r) => [r.id, r.content, r.received_at])).toEqual([
      [first[0]!.id, "Edited", first[0]!.received_at],
      [first[1]!.id, "Comment c2", first[1]!.received_at],
      [second[2]!.id, "Comment c3", second[2]!.received_at],
    ]);
    expect(second[2]!.parent_id).toBe(first[0]!.id);
    expect((await received(second.map((r) => r.id))).map((r) => r.record_id)).toEqual([second[2]!.id]);
    expect(told()).toEqual(second.map((r) => r.id));
  });

  it("tells the comment as the inbox lists it", async () => {
    const { t, postId, rowId } = await listened();
    await deliver([rowId], { deps: reading(() => [comment("c1")]) });
    const [row] = await stored(postId);
    const spec = eventOf(env, createDb(env.DB), {
      type: "comment.received",
      recordId: row!.id,
      version: "",
      createdAt: new Date(row!.received_at),
    });
    const built = await spec.build();
    expect(built).toMatchObject({ workspaceId: t.workspace.id, type: "comment.received" });
    expect(commentSchema.parse(built!.data)).toMatchObject({
      id: row!.id,
      post_id: postId,
      actions: ["reply", "hide"],
    });
    const listed = await call("GET", "/api/v1/comments", { key: t.key });
    expect(listed.body.data).toEqual([built!.data]);
  });

  it("keeps a hidden set from the inbox where the read does not report it; a read that does wins", async () => {
    const { postId, rowId } = await listened();
    let found = [comment("c1"), comment("c2", { hidden: false })];
    const deps = reading(() => found);
    await deliver([rowId], { deps });
    await env.DB.prepare("UPDATE comments SET hidden = 1 WHERE post_id = ?").bind(postId).run();
    await deliver([rowId], { deps });
    // c1's read says nothing of hidden: kept; c2's says visible: the platform wins.
    expect((await stored(postId)).map((r) => [r.platform_comment_id, r.hidden])).toEqual([
      ["c1", 1],
      ["c2", 0],
    ]);
    found = [comment("c1", { hidden: false }), comment("c2")];
    await deliver([rowId], { deps });
    expect((await stored(postId)).map((r) => r.hidden)).toEqual([0, 0]);
  });

  it("records nothing when no endpoint listens", async () => {
    const t = await createTenant();
    const post = await postOn(t);
    await publishFake(post.rows[0]!, metrics());
    await deliver([post.rows[0]!], { deps: reading(() => [comment("c1")]) });
    const rows = await stored(post.id);
    expect(rows).toHaveLength(1);
    expect(await received(rows.map((r) => r.id))).toEqual([]);
  });
});
