// Disconnecting an account detaches it (DELETE /api/v1/accounts/{id}): it leaves the lists and cannot be
// targeted, its published history stays in posts and analytics, and connecting the same identity again
// brings it back with the same id. And the 409s while a row is PUBLISHING (the post's and the account's
// deletes).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { grantInUse } from "../../src/accounts/grant";
import { disconnectAccount } from "../../src/accounts/queries";
import { createDb } from "../../src/db/client";
import worker from "../../src/index";
import { decryptSecret } from "../../src/lib/crypto";
import { runFlow } from "../delegation/support";
import { postOf } from "../publishing/support";
import { call, ORIGIN } from "../support/client";
import { d1Of, insertComment } from "../support/db";
import { createPost, createTenant, inMinutes } from "../support/seed";
import { waitFor } from "../support/wait";

const REDIRECT = "https://app.example.test/accounts/done";

afterEach(() => {
  vi.restoreAllMocks();
});

type Tenant = Awaited<ReturnType<typeof createTenant>>;

async function connectTwitter(t: Tenant, handle: string) {
  const started = await call("POST", "/api/v1/accounts/connect", {
    key: t.key,
    body: { workspace_id: t.workspace.id, platform: "twitter", redirect_url: REDIRECT },
  });
  expect(started.status).toBe(201);
  const { landed } = await runFlow(started.body.authorize_url, { handle });
  expect(landed.searchParams.get("status")).toBe("connected");
  return Number(landed.searchParams.get("account_id"));
}

const db = (t: Tenant) => d1Of(t.workspace.id);

/** Publishes one platform row with its own metrics, as the publisher and the analytics sync do. */
async function publishRow(t: Tenant, postId: number, accountId: number, analytics: Record<string, number>) {
  await db(t)
    .prepare(
      "UPDATE post_platforms SET status = 'PUBLISHED', analytics = ?, posted_on = ?, platform_post_id = 'p' || id, post_url = 'https://x.example/' || id WHERE post_id = ? AND account_id = ?",
    )
    .bind(JSON.stringify(analytics), JSON.stringify([Date.UTC(2026, 10, 20, 9)]), postId, accountId)
    .run();
}

const get = (t: Tenant, path: string) => call("GET", path, { key: t.key });
const ids = (list: Array<{ id: number }>) => list.map((a) => a.id);

describe("disconnecting an account detaches it", () => {
  it("keeps its published rows, their metrics and the analytics totals (the 139 → 61 drop)", async () => {
    const t = await createTenant();
    const gone = await connectTwitter(t, `gone_${t.user.id}`);
    const kept = t.accounts[1]!.id;
    const post = await createPost(t, { accounts: [gone, kept] });
    await publishRow(t, post.id, gone, { impressions: 78, likes: 5, comments: 1 });
    await publishRow(t, post.id, kept, { impressions: 61, likes: 2 });
    await db(t).prepare("UPDATE posts SET status = 'PUBLISHED' WHERE id = ?").bind(post.id).run();
    await insertComment(post.id);

    const paths = [
      `/api/v1/posts/${post.id}`,
      `/api/v1/posts`,
      `/api/v1/analytics/posts/${post.id}`,
      `/api/v1/analytics/workspaces/${t.workspace.id}`,
      `/api/v1/analytics`,
      `/api/v1/analytics/accounts/${gone}`,
    ];
    const before = await Promise.all(paths.map((p) => get(t, p)));
    for (const answer of before) expect(answer.status).toBe(200);
    expect(before[3]!.body.total.impressions).toBe(139);
    const comments = (await get(t, `/api/v1/posts/${post.id}?include_comments=true`)).body;
    // Created after the snapshots: its row is cancelled by the disconnect.
    const scheduled = await createPost(t, { accounts: [gone], scheduled_at: inMinutes(60) });

    const res = await call("DELETE", `/api/v1/accounts/${gone}`, { key: t.key });
    expect(res.status).toBe(200);

    // Every post, list and analytics answer unchanged: rows, post_url, posted_on, metrics, totals.
    const after = await Promise.all(paths.map((p) => get(t, p)));
    for (const [i, answer] of after.entries()) {
      if (paths[i] === "/api/v1/posts") {
        const published = (b: { data: Array<{ id: number }> }) => b.data.find((p) => p.id === post.id);
        expect(published(answer.body)).toEqual(published(before[i]!.body));
      } else expect(answer.body, paths[i]).toEqual(before[i]!.body);
    }
    expect(after[3]!.body.total.impressions).toBe(139);
    expect((await get(t, `/api/v1/posts/${post.id}?include_comments=true`)).body).toEqual(comments);

    // Its scheduled post is cancelled as before: no row left, a draft.
    const cancelled = (await get(t, `/api/v1/posts/${scheduled.id}`)).body;
    expect(cancelled.status).toBe("DRAFT");
    expect(cancelled.platforms).toEqual([]);

    // Gone from the lists; its tokens deleted.
    expect(ids((await get(t, "/api/v1/accounts")).body.data)).not.toContain(gone);
    const workspaces = (await get(t, "/api/v1/workspaces")).body.data;
    expect(ids(workspaces.find((w: { id: number }) => w.id === t.workspace.id).accounts)).not.toContain(gone);
    const stored = await db(t)
      .prepare("SELECT access_token_enc, refresh_token_enc, disconnected_at FROM accounts WHERE id = ?")
      .bind(gone)
      .first<Record<string, unknown>>();
    expect(stored).toMatchObject({ access_token_enc: null, refresh_token_enc: null });
    expect(stored!.disconnected_at).toBeTypeOf("number");

    // It cannot be targeted: the 422 of an unknown account.
    const body = { workspace_id: t.workspace.id, accounts: [kept, gone], content: [{ text: "Hi" }] };
    const create = await call("POST", "/api/v1/posts", { key: t.key, body });
    expect(create.status).toBe(422);
    expect(create.body.errors["accounts.1"]).toEqual(["The selected accounts.1 is invalid."]);
    const validate = await call("POST", "/api/v1/posts/validate", { key: t.key, body });
    // The dry run answers 200 with create's errors: the same as for an unknown account.
    expect(validate.status).toBe(200);
    expect(validate.body.errors["accounts.1"]).toEqual(["The selected accounts.1 is invalid."]);
    expect(validate.body.accounts[1].will_publish).toBe(false);
    const draft = await createPost(t, { accounts: [kept] });
    const update = await call("PUT", `/api/v1/posts/${draft.id}`, { key: t.key, body: { accounts: [gone] } });
    expect(update.status).toBe(422);
    expect(update.body.errors["accounts.0"]).toEqual(["The selected accounts.0 is invalid."]);
    // Disconnecting it again: it is no longer there.
    expect((await call("DELETE", `/api/v1/accounts/${gone}`, { key: t.key })).status).toBe(404);

    // Connecting the same identity again brings it back: same id, its history with it.
    expect(await connectTwitter(t, `gone_${t.user.id}`)).toBe(gone);
    expect(ids((await get(t, "/api/v1/accounts")).body.data)).toContain(gone);
    const back = await Promise.all(paths.map((p) => get(t, p)));
    expect(back[0]!.body).toEqual(before[0]!.body);
    expect(back[3]!.body.total.impressions).toBe(139);
    expect(back[5]!.body).toEqual(before[5]!.body);
  });
});

describe("disconnecting settles the account's other rows", () => {
  it("keeps a repeat's earlier publications, and leaves no FAILED post without rows", async () => {
    const t = await createTenant();
    const [gone, kept] = t.accounts as [{ id: number }, { id: number }];
    const d1 = db(t);
    // A repeatable post between two occurrences: both rows published before, now SCHEDULED again.
    const repeat = await createPost(t, {
      accounts: [gone.id, kept.id],
      scheduled_at: inMinutes(60),
      repeatable: true,
      repeatable_times: 3,
      repeatable_gap: 1,
      repeatable_gap_unit: "days",
    });
    const postedOn = Date.UTC(2026, 10, 20, 9);
    await d1
      .prepare(
        "UPDATE post_platforms SET posted_on = ?, platform_post_id = 'p' || id, post_url = 'https://x.example/' || id, analytics = '{\"impressions\": 7}' WHERE post_id = ?",
      )
      .bind(JSON.stringify([postedOn]), repeat.id)
      .run();
    // A FAILED post whose only row (on this account) never published.
    const failed = await createPost(t, { accounts: [gone.id] });
    await d1.batch([
      d1.prepare("UPDATE posts SET status = 'FAILED' WHERE id = ?").bind(failed.id),
      d1
        .prepare(
          `UPDATE post_platforms SET status = 'FAILED', error = '{"code":"x","message":"y"}' WHERE post_id = ?`,
        )
        .bind(failed.id),
    ]);
    // A FAILED post whose other row published: once the failed row is cancelled, it is PUBLISHED.
    const partly = await createPost(t, { accounts: [gone.id, kept.id] });
    await d1.batch([
      d1.prepare("UPDATE posts SET status = 'FAILED' WHERE id = ?").bind(partly.id),
      d1
        .prepare("UPDATE post_platforms SET status = 'FAILED' WHERE post_id = ? AND account_id = ?")
        .bind(partly.id, gone.id),
      d1
        .prepare(
          "UPDATE post_platforms SET status = 'PUBLISHED', posted_on = ? WHERE post_id = ? AND account_id = ?",
        )
        .bind(JSON.stringify([postedOn]), partly.id, kept.id),
    ]);

    expect((await call("DELETE", `/api/v1/accounts/${gone.id}`, { key: t.key })).status).toBe(200);

    const repeated = (await get(t, `/api/v1/posts/${repeat.id}`)).body;
    expect(repeated.status).toBe("SCHEDULED");
    const rowOf = (post: { platforms: Array<Record<string, unknown>> }, id: number) =>
      post.platforms.find((r) => r.account_id === id);
    expect(rowOf(repeated, gone.id)).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: expect.stringMatching(/^p\d+$/),
      analytics: { impressions: 7 },
    });
    expect(rowOf(repeated, kept.id)).toMatchObject({ status: "SCHEDULED" });
    const gonePosted = await d1
      .prepare("SELECT posted_on FROM post_platforms WHERE post_id = ? AND account_id = ?")
      .bind(repeat.id, gone.id)
      .first<{ posted_on: string }>();
    expect(JSON.parse(gonePosted!.posted_on)).toEqual([postedOn]);

    const failedAfter = (await get(t, `/api/v1/posts/${failed.id}`)).body;
    expect(failedAfter.status).toBe("DRAFT");
    expect(failedAfter.platforms).toEqual([]);
    const partlyAfter = (await get(t, `/api/v1/posts/${partly.id}`)).body;
    expect(partlyAfter.status).toBe("PUBLISHED");
    expect(partlyAfter.platforms.map((r: { account_id: number }) => r.account_id)).toEqual([kept.id]);
  });

  it("does not revoke a grant another connected account holds (the same platform identity)", async () => {
    const t = await createTenant();
    const handle = `shared_${t.user.id}`;
    const first = await connectTwitter(t, handle);
    const other = await createTenant();
    const second = await connectTwitter(other, handle);
    expect(second).not.toBe(first);
    const database = createDb(db(t));
    // Read only: the first statement of the disconnect batch reads the account's grant.
    const [read] = disconnectAccount(database, { userId: t.user.id, mode: "live" }, first);
    const [account] = await read;
    expect(account).toMatchObject({ grantUserId: expect.any(String), publishing: 0 });
    expect(await grantInUse(env, account!)).toBe(true);
    expect((await call("DELETE", `/api/v1/accounts/${second}`, { key: other.key })).status).toBe(200);
    expect(await grantInUse(env, account!)).toBe(false);
    // An account whose grant is unknown (connected before grants were recorded) is never revoked,
    // nor one whose other accounts cannot all be looked at (a shard that does not answer).
    expect(await grantInUse(env, { ...account!, grantUserId: null })).toBe(true);
    const unreadable = {
      prepare: () => {
        throw new Error("D1 is unavailable");
      },
    };
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(await grantInUse({ ...env, DB_SHARD_1: unreadable } as unknown as Env, account!)).toBe(true);
  });
});

/** Connects a LinkedIn channel of `handle` (a Community Management app lists its organisation too). */
async function connectLinkedIn(t: Tenant, handle: string, channel: "profile" | "organisation") {
  const vars = env as unknown as Record<string, string | undefined>;
  const products = vars.LINKEDIN_PRODUCTS;
  vars.LINKEDIN_PRODUCTS = "community_management";
  try {
    const started = await call("POST", "/api/v1/accounts/connect", {
      key: t.key,
      body: { workspace_id: t.workspace.id, platform: "linkedin", redirect_url: REDIRECT },
    });
    const { landed } = await runFlow(started.body.authorize_url, {
      handle,
      channel: (labels) =>
        channel === "profile" ? labels.indexOf(handle) : labels.indexOf(`${handle} Inc.`),
    });
    expect(landed.searchParams.get("status")).toBe("connected");
    return Number(landed.searchParams.get("account_id"));
  } finally {
    vars.LINKEDIN_PRODUCTS = products;
  }
}

/** DELETE through the worker with a context of our own, awaited to its end (the revocation after the answer). */
async function disconnectAndSettle(t: Tenant, accountId: number) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${ORIGIN}/api/v1/accounts/${accountId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${t.key}` },
    }),
    env,
    ctx,
  );
  expect(res.status).toBe(200);
  await waitOnExecutionContext(ctx);
}

/** Publishes one post now on the account and answers the status it settles in. */
async function publishOn(t: Tenant, accountId: number) {
  const post = await createPost(t, {
    accounts: [accountId],
    content: [{ text: `Still connected ${crypto.randomUUID()}` }],
    publish_now: true,
  });
  return waitFor(
    async () => {
      const status = (await postOf(post.id))?.status;
      return status === "PUBLISHED" || status === "FAILED" ? status : undefined;
    },
    { what: `post ${post.id} settled` },
  );
}

describe("disconnecting one account of a shared grant (a LinkedIn member and their organisation)", () => {
  it("leaves another tenant's organisation account working when the member's is disconnected", async () => {
    const handle = `mem_${crypto.randomUUID().slice(0, 8)}`;
    const member = await createTenant();
    const organisation = await createTenant();
    const profile = await connectLinkedIn(member, handle, "profile");
    const page = await connectLinkedIn(organisation, handle, "organisation");
    await disconnectAndSettle(member, profile);
    expect(await publishOn(organisation, page)).toBe("PUBLISHED");
    // The last account of the grant gone, the grant is revoked at the platform.
    const { access_token_enc } = (await db(organisation)
      .prepare("SELECT access_token_enc FROM accounts WHERE id = ?")
      .bind(page)
      .first<{ access_token_enc: string }>())!;
    const token = await decryptSecret(env.ENCRYPTION_KEY, access_token_enc);
    await disconnectAndSettle(organisation, page);
    const me = await call("GET", "/sandbox/linkedin/v2/userinfo", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(401);
  });

  it("leaves another tenant's member account working when the organisation's is disconnected", async () => {
    const handle = `org_${crypto.randomUUID().slice(0, 8)}`;
    const member = await createTenant();
    const organisation = await createTenant(undefined, 1);
    const profile = await connectLinkedIn(member, handle, "profile");
    const page = await connectLinkedIn(organisation, handle, "organisation");
    await disconnectAndSettle(organisation, page);
    expect(await publishOn(member, profile)).toBe("PUBLISHED");
  });
});

describe("a PUBLISHING row blocks deletes (409)", () => {
  it("refuses to delete the post or disconnect its account until the row settles", async () => {
    const t = await createTenant();
    const [account, other] = t.accounts as [{ id: number }, { id: number }];
    const post = await createPost(t, { accounts: [account.id] });
    const scheduled = await createPost(t, { accounts: [account.id, other.id], scheduled_at: inMinutes(60) });
    const d1 = db(t);
    await d1.batch([
      d1.prepare("UPDATE posts SET status = 'PUBLISHING' WHERE id = ?").bind(post.id),
      d1.prepare("UPDATE post_platforms SET status = 'PUBLISHING' WHERE post_id = ?").bind(post.id),
    ]);
    const shown = (await get(t, `/api/v1/posts/${post.id}`)).body;
    const shownScheduled = (await get(t, `/api/v1/posts/${scheduled.id}`)).body;

    const deletePost = await call("DELETE", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(deletePost.status).toBe(409);
    expect(deletePost.body.message).toMatch(/being published/);
    expect((await get(t, `/api/v1/posts/${post.id}`)).body).toEqual(shown);

    const disconnect = await call("DELETE", `/api/v1/accounts/${account.id}`, { key: t.key });
    expect(disconnect.status).toBe(409);
    expect(disconnect.body.message).toMatch(/being published/);
    expect(ids((await get(t, "/api/v1/accounts")).body.data)).toContain(account.id);
    expect((await get(t, `/api/v1/posts/${scheduled.id}`)).body).toEqual(shownScheduled);
    expect((await get(t, `/api/v1/posts/${post.id}`)).body).toEqual(shown);

    // Settled: both go through.
    await d1.batch([
      d1.prepare("UPDATE posts SET status = 'FAILED' WHERE id = ?").bind(post.id),
      d1.prepare("UPDATE post_platforms SET status = 'FAILED' WHERE post_id = ?").bind(post.id),
    ]);
    expect((await call("DELETE", `/api/v1/accounts/${account.id}`, { key: t.key })).status).toBe(200);
    expect((await call("DELETE", `/api/v1/posts/${post.id}`, { key: t.key })).status).toBe(200);
    expect((await get(t, `/api/v1/posts/${post.id}`)).status).toBe(404);
  });
});
