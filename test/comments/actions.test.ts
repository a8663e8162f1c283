// The inbox's actions end to end on the X sandbox: the account's reply (on the emulator and in the inbox
// under its comment, exactly once under Idempotency-Key, in parallel, and after a lost answer), hide and
// unhide (reaching the emulator, kept by later syncs), delete (gone there and here, never revived by a
// sync), the 422 of an action X refuses, another tenant's comment (404) and a key without `posts` (403).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliver as deliverSync } from "../analytics/queue";
import { adapterFor, type Connected, connected, follow, published } from "../sandbox/support";
import { call } from "../support/client";
import { createKey } from "../support/seed";

type Listed = Record<string, any>;

/** A published X post with Fan One's comment on it, synced into the inbox. */
async function commented(account?: Connected) {
  const owner = account ?? (await connected("twitter"));
  const { rows } = await published(owner, { content: [{ text: `Ask me anything ${crypto.randomUUID()}` }] });
  const row = rows[0]!;
  const fan = await follow("twitter", owner.handle, {
    post_id: row.platform_post_id!,
    text: "When is the next one?",
    author: { name: "Fan One", username: "fan_one" },
  });
  expect(fan.status).toBe(201);
  expect((await deliverSync([row.id])).retryMessages).toEqual([]);
  const comment = (await inbox(owner)).find((c) => c.platform_comment_id === fan.body.id)!;
  return { account: owner, row, comment };
}

async function inbox(account: Connected): Promise<Listed[]> {
  const listed = await call("GET", `/api/v1/comments?account_id=${account.accountId}`, { key: account.key });
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  return listed.body.data;
}

const reply = (account: Connected, id: number, text: string, headers: Record<string, string> = {}) =>
  call("POST", `/api/v1/comments/${id}/replies`, { key: account.key, body: { text }, headers });

/** The post's comments as X's conversation search answers them, through the real adapter. */
async function onX(account: Connected, postId: string) {
  const { adapter, auth } = await adapterFor("twitter", account);
  return adapter.comments!(auth, postId);
}

const ledger = (id: string) => env.SANDBOX_STORE.getByName("twitter").comment(id);

const rowsOf = async (postId: number) =>
  (
    await env.DB.prepare(
      "SELECT id, platform_comment_id, parent_id, is_own, deleted_at FROM comments WHERE post_id = ?",
    )
      .bind(postId)
      .all<Record<string, any>>()
  ).results;

const receivedFor = async (id: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM outbox WHERE type = 'comment.received' AND record_id = ?")
    .bind(id)
    .first<{ n: number }>())!.n;

describe("comment actions on X", () => {
  it("offers reply and hide on a follower's comment, reply and delete on the account's own", async () => {
    const { account, comment } = await commented();
    expect(comment.actions).toEqual(["reply", "hide"]);
    const answered = await reply(account, comment.id, "Next week!");
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
    expect(answered.body).toMatchObject({
      is_own: true,
      parent_id: comment.id,
      actions: ["reply", "delete"],
    });
  });

  it("publishes a reply on X under the comment, lists it under its parent, and a sync stores it once", async () => {
    const { account, row, comment } = await commented();
    const answered = await reply(account, comment.id, "Thank you!");
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
    const platformId = answered.body.platform_comment_id as string;
    expect(answered.body).toMatchObject({
      content: "Thank you!",
      is_own: true,
      parent_id: comment.id,
      post_id: comment.post_id,
      url: `https://x.com/${account.handle}/status/${platformId}`,
    });
    // On the emulator: the account's post replying to Fan One's.
    const read = await onX(account, row.platform_post_id!);
    expect(read.filter((c) => c.content === "Thank you!")).toMatchObject([
      { id: platformId, parent_id: comment.platform_comment_id, is_own: true },
    ]);
    // In the inbox, under its parent, which is now replied to; a sync stores nothing twice nor tells.
    expect((await deliverSync([row.id])).retryMessages).toEqual([]);
    const listed = await inbox(account);
    expect(listed.filter((c) => c.platform_comment_id === platformId)).toHaveLength(1);
    expect(await receivedFor(answered.body.id)).toBe(0);
    const replied = await call("GET", `/api/v1/comments?account_id=${account.accountId}&replied=true`, {
      key: account.key,
    });
    expect(replied.body.data.map((c: Listed) => c.id)).toEqual([comment.id]);
  });

  it("refuses a reply over X's limit and a body with unknown fields", async () => {
    const { account, comment } = await commented();
    const long = await reply(account, comment.id, "x".repeat(281));
    expect(long.status).toBe(422);
    expect(long.body.errors.text).toBeDefined();
    const extra = await call("POST", `/api/v1/comments/${comment.id}/replies`, {
      key: account.key,
      body: { text: "Hi", hidden: true },
    });
    expect(extra.status).toBe(422);
  });

  it("answers the first reply again to a repeat with the same Idempotency-Key, and to parallel ones", async () => {
    const { account, row, comment } = await commented();
    const key = { "Idempotency-Key": `reply-${crypto.randomUUID()}` };
    const first = await reply(account, comment.id, "Once only", key);
    const again = await reply(account, comment.id, "Once only", key);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    const parallelKey = { "Idempotency-Key": `reply-${crypto.randomUUID()}` };
    const both = await Promise.all([
      reply(account, comment.id, "Twice sent", parallelKey),
      reply(account, comment.id, "Twice sent", parallelKey),
    ]);
    expect(both.map((answer) => answer.status)).toContain(201);
    const read = await onX(account, row.platform_post_id!);
    expect(read.filter((c) => c.content === "Once only")).toHaveLength(1);
    expect(read.filter((c) => c.content === "Twice sent")).toHaveLength(1);
  });

  it("finds a reply whose answer was lost instead of publishing it twice, and the sync adopts it", async () => {
    const { account, row, comment } = await commented();
    const text = "Lost on the way #sandbox-lost";
    const lost = await reply(account, comment.id, text);
    expect(lost.status, JSON.stringify(lost.body)).toBe(409);
    // The reply is on X already; the inbox shows it pending (no platform id yet).
    expect((await onX(account, row.platform_post_id!)).filter((c) => c.content === text)).toHaveLength(1);
    const pending = (await rowsOf(comment.post_id)).filter((r) => r.is_own && r.platform_comment_id === null);
    expect(pending).toHaveLength(1);
    // A sync meanwhile adopts it: no second row, no comment.received.
    expect((await deliverSync([row.id])).retryMessages).toEqual([]);
    const adopted = (await rowsOf(comment.post_id)).filter((r) => r.id === pending[0]!.id);
    expect(adopted[0]!.platform_comment_id).not.toBeNull();
    expect(await receivedFor(pending[0]!.id)).toBe(0);
    // A second reply with the same text after a lost answer, synced or not, publishes nothing more.
    const text2 = "Lost again #sandbox-lost";
    expect((await reply(account, comment.id, text2)).status).toBe(409);
    const retried = await reply(account, comment.id, text2);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    const onPlatform = (await onX(account, row.platform_post_id!)).filter((c) => c.content === text2);
    expect(onPlatform).toHaveLength(1);
    expect(retried.body).toMatchObject({ platform_comment_id: onPlatform[0]!.id, parent_id: comment.id });
    expect((await deliverSync([row.id])).retryMessages).toEqual([]);
    const mine = (await rowsOf(comment.post_id)).filter((r) => r.is_own);
    expect(mine).toHaveLength(2);
  });

  it("hides and shows a follower's comment on X, and a sync keeps it hidden", async () => {
    const { account, row, comment } = await commented();
    const hidden = await call("POST", `/api/v1/comments/${comment.id}/hide`, { key: account.key });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
    expect(hidden.body).toMatchObject({ id: comment.id, hidden: true, actions: ["reply", "hide"] });
    expect((await ledger(comment.platform_comment_id))?.hidden).toBe(true);
    // X's read does not say which replies are hidden: the sync keeps what the inbox set.
    expect((await deliverSync([row.id])).retryMessages).toEqual([]);
    expect((await inbox(account)).find((c) => c.id === comment.id)?.hidden).toBe(true);
    const shown = await call("POST", `/api/v1/comments/${comment.id}/unhide`, { key: account.key });
    expect(shown.status).toBe(200);
    expect(shown.body.hidden).toBe(false);
    expect((await ledger(comment.platform_comment_id))?.hidden).toBe(false);
  });

  it("deletes the account's reply on X and here; a sync of a stale read does not bring it back", async () => {
    const { account, row, comment } = await commented();
    const answered = await reply(account, comment.id, "Oops, wrong thread");
    expect(answered.status).toBe(201);
    // A stale read (before the delete) is what the sync below stores again.
    const stale = await onX(account, row.platform_post_id!);
    const deleted = await call("DELETE", `/api/v1/comments/${answered.body.id}`, { key: account.key });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toEqual({ message: "Comment deleted successfully." });
    expect(await ledger(answered.body.platform_comment_id)).toBeNull();
    expect((await inbox(account)).map((c) => c.id)).not.toContain(answered.body.id);
    const { syncRow, defaultSyncDeps } = await import("../../src/analytics/sync");
    const { createDb } = await import("../../src/db/client");
    const { publishingAdapter } = await import("../../src/platforms");
    await syncRow(
      env,
      createDb(env.DB),
      row.id,
      {
        ...defaultSyncDeps,
        adapterFor: (e, platform) => ({
          ...publishingAdapter(e, platform, "live"),
          comments: async () => stale,
        }),
      },
      `stale-${crypto.randomUUID()}`,
    );
    expect((await inbox(account)).map((c) => c.id)).not.toContain(answered.body.id);
    expect(await receivedFor(answered.body.id)).toBe(0);
    // Its parent stays, and a second delete is a 404.
    expect((await inbox(account)).map((c) => c.id)).toContain(comment.id);
    const again = await call("DELETE", `/api/v1/comments/${answered.body.id}`, { key: account.key });
    expect(again.status).toBe(404);
  });

  it("deletes a reply already gone from X (X's 404 counts as deleted)", async () => {
    const { account, comment } = await commented();
    const answered = await reply(account, comment.id, "Gone already");
    await env.SANDBOX_STORE.getByName("twitter").deleteComment(answered.body.platform_comment_id);
    const deleted = await call("DELETE", `/api/v1/comments/${answered.body.id}`, { key: account.key });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await inbox(account)).map((c) => c.id)).not.toContain(answered.body.id);
  });

  it("refuses with a 422 what X refuses: deleting a follower's reply, hiding the account's own", async () => {
    const { account, comment } = await commented();
    const refused = await call("DELETE", `/api/v1/comments/${comment.id}`, { key: account.key });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      action: ["X (Twitter) lets an account delete only its own posts."],
    });
    expect(await ledger(comment.platform_comment_id)).not.toBeNull();
    const own = await reply(account, comment.id, "Mine");
    const hideOwn = await call("POST", `/api/v1/comments/${own.body.id}/hide`, { key: account.key });
    expect(hideOwn.status).toBe(422);
    expect(hideOwn.body.errors.action[0]).toMatch(/not the account's own/);
  });

  it("answers another tenant's comment as an absent one, and a key without `posts` with a 403", async () => {
    const { account, comment } = await commented();
    const other = await connected("twitter");
    const absent = await call("POST", "/api/v1/comments/999999999999/hide", { key: other.key });
    for (const [method, path, body] of [
      ["POST", `/api/v1/comments/${comment.id}/replies`, { text: "Hi" }],
      ["POST", `/api/v1/comments/${comment.id}/hide`, undefined],
      ["POST", `/api/v1/comments/${comment.id}/unhide`, undefined],
      ["DELETE", `/api/v1/comments/${comment.id}`, undefined],
    ] as const) {
      const foreign = await call(method, path, { key: other.key, body });
      expect(foreign.status, path).toBe(404);
      expect(foreign.body).toEqual(absent.body);
    }
    const member = await env.DB.prepare("SELECT user_id FROM workspace_members WHERE workspace_id = ?")
      .bind(account.workspace.id)
      .first<{ user_id: number }>();
    const { key } = await createKey(member!.user_id, ["accounts"]);
    const forbidden = await call("POST", `/api/v1/comments/${comment.id}/hide`, { key });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.ability).toBe("posts");
  });

  it("shows a comment that is not hidden again without harm (200, hidden false)", async () => {
    const { account, comment } = await commented();
    const shown = await call("POST", `/api/v1/comments/${comment.id}/unhide`, { key: account.key });
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body).toMatchObject({ id: comment.id, hidden: false });
    expect((await ledger(comment.platform_comment_id))?.hidden ?? false).toBe(false);
  });

  it("deletes once under two parallel deletes: no failure, and the reply gone there and here", async () => {
    const { account, comment } = await commented();
    const answered = await reply(account, comment.id, `Twice ${crypto.randomUUID()}`);
    expect(answered.status).toBe(201);
    const path = `/api/v1/comments/${answered.body.id}`;
    const both = await Promise.all([
      call("DELETE", path, { key: account.key }),
      call("DELETE", path, { key: account.key }),
    ]);
    for (const one of both) expect([200, 404], JSON.stringify(one.body)).toContain(one.status);
    expect(both.some((one) => one.status === 200)).toBe(true);
    expect(await ledger(answered.body.platform_comment_id)).toBeNull();
    expect((await inbox(account)).map((c) => c.id)).not.toContain(answered.body.id);
  });

  it("answers a 409 for a comment of a disconnected account", async () => {
    const { account, comment } = await commented();
    const gone = await call("DELETE", `/api/v1/accounts/${account.accountId}`, { key: account.key });
    expect(gone.status).toBe(200);
    const refused = await reply(account, comment.id, "Still here?");
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/disconnected/);
  });
});
