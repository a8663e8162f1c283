// The four analytics reports: shapes, sums, the engagement rate (weighted, mean of non-zero rates, 0),
// `{}` for rows that are not published, the account's platform posts order, tenancy and the D1 cost.
import { describe, expect, it } from "vitest";
import { admin, serverTiming } from "../support/client";
import { createAccount, createTenant, createUser, createWorkspace } from "../support/seed";
import { getJson, metrics, postOn, publishFake, setRow } from "./support";

const A = { comments: 1, likes: 10, shares: 2, impressions: 100, quotes: 1, saves: 3, engagement_rate: 17 };
const B = { comments: 4, likes: 5, shares: 6, impressions: 300, quotes: 0, saves: 2, engagement_rate: 5.67 };

const ZERO = metrics();

describe("GET /api/v1/analytics/posts/{id}", () => {
  it("sums the published rows, weights the rate by impressions, and lists each row with its account", async () => {
    const t = await createTenant();
    const post = await postOn(t, [t.accounts[0]!.id, t.accounts[1]!.id]);
    await publishFake(post.rows[0]!, A, "777");
    await publishFake(post.rows[1]!, B, "888");

    const res = await getJson(t, `/api/v1/analytics/posts/${post.id}`);
    expect(res.status).toBe(200);
    // (17 × 100 + 5.67 × 300) / 400 = 8.5025 → 8.5
    expect(res.body.total).toEqual({
      comments: 5,
      likes: 15,
      shares: 8,
      impressions: 400,
      quotes: 1,
      saves: 5,
      engagement_rate: 8.5,
    });
    expect(res.body.post_id).toBe(post.id);
    expect(res.body.accounts).toEqual([
      {
        account_id: t.accounts[0]!.id,
        platform: "twitter",
        status: "PUBLISHED",
        post_url: "https://platform.example/777",
        analytics: A,
        account: {
          id: t.accounts[0]!.id,
          workspace_id: t.workspace.id,
          platform: "twitter",
          username: expect.stringMatching(/^handle_/),
          name: "Account Name",
          avatar: "https://cdn.example.test/avatar.png",
          has_expired: false,
          is_default: false,
          support_threads: true,
          is_verified: false,
        },
      },
      expect.objectContaining({ account_id: t.accounts[1]!.id, platform: "linkedin", analytics: B }),
    ]);
    // One batch after the key lookup.
    expect(serverTiming(res.headers)).toMatchObject({ dbTrips: 1, gateCalls: 1, hops: 1 });
  });

  it("shows {} for rows that are not PUBLISHED and leaves their stale metrics out of the total", async () => {
    const t = await createTenant();
    const post = await postOn(t, [t.accounts[0]!.id, t.accounts[1]!.id]);
    await publishFake(post.rows[0]!, A);
    await publishFake(post.rows[1]!, B);
    await setRow(post.rows[1]!, { status: "FAILED" });

    const res = await getJson(t, `/api/v1/analytics/posts/${post.id}`);
    expect(res.body.total).toEqual(A);
    expect(res.body.accounts.map((a: any) => [a.status, a.analytics])).toEqual([
      ["PUBLISHED", A],
      ["FAILED", {}],
    ]);
  });

  it("answers zeros for a draft, with {} and a null post_url for its rows", async () => {
    const t = await createTenant();
    const post = await postOn(t);
    const res = await getJson(t, `/api/v1/analytics/posts/${post.id}`);
    expect(res.body).toMatchObject({
      post_id: post.id,
      total: ZERO,
      accounts: [{ status: "DRAFT", post_url: null, analytics: {} }],
    });
  });

  it("fills a PUBLISHED row that was never synced with zeros", async () => {
    const t = await createTenant();
    const post = await postOn(t);
    await publishFake(post.rows[0]!, {});
    const res = await getJson(t, `/api/v1/analytics/posts/${post.id}`);
    expect(res.body.accounts[0].analytics).toEqual(ZERO);
    expect(res.body.total).toEqual(ZERO);
  });
});

describe("GET /api/v1/analytics/accounts/{id}", () => {
  it("lists the account's rows newest platform post first, numerically, unpublished rows last", async () => {
    const t = await createTenant();
    const account = t.accounts[0]!.id;
    const ids = ["9", "100", "2", "10"];
    const posts = [];
    for (const id of ids) {
      const post = await postOn(t);
      await publishFake(post.rows[0]!, metrics({ likes: Number(id), impressions: 10 }), id);
      posts.push(post.id);
    }
    const draft = await postOn(t);
    // A row of the other account is not this account's.
    const other = await postOn(t, [t.accounts[1]!.id]);
    await publishFake(other.rows[0]!, A);

    const res = await getJson(t, `/api/v1/analytics/accounts/${account}`);
    expect(res.status).toBe(200);
    expect(res.body.account_id).toBe(account);
    expect(res.body.platform_posts.map((p: any) => p.platform_post_id)).toEqual([
      "100",
      "10",
      "9",
      "2",
      null,
    ]);
    expect(res.body.platform_posts[0]).toEqual({
      platform_post_id: "100",
      post_id: posts[1],
      platform: "twitter",
      status: "PUBLISHED",
      post_url: "https://platform.example/100",
      analytics: metrics({ likes: 100, impressions: 10 }),
    });
    expect(res.body.platform_posts[4]).toEqual({
      platform_post_id: null,
      post_id: draft.id,
      platform: "twitter",
      status: "DRAFT",
      post_url: null,
      analytics: {},
    });
    expect(res.body.total).toEqual(metrics({ likes: 121, impressions: 40 }));
    expect(serverTiming(res.headers)).toMatchObject({ dbTrips: 1, gateCalls: 1, hops: 1 });
  });

  it("averages the non-zero rates when no row has impressions", async () => {
    const t = await createTenant();
    for (const rate of [4.5, 0, 3.5]) {
      const post = await postOn(t);
      await publishFake(post.rows[0]!, metrics({ likes: 1, engagement_rate: rate }));
    }
    const res = await getJson(t, `/api/v1/analytics/accounts/${t.accounts[0]!.id}`);
    expect(res.body.total).toEqual(metrics({ likes: 3, engagement_rate: 4 }));
  });

  it("answers an empty list and zero for every metric for an account without rows", async () => {
    const t = await createTenant();
    const res = await getJson(t, `/api/v1/analytics/accounts/${t.accounts[1]!.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account_id: t.accounts[1]!.id,
      total: ZERO,
      platform_posts: [],
      current_page: 1,
      per_page: 100,
      next_page_url: null,
      prev_page_url: null,
    });
  });
});

describe("GET /api/v1/analytics/workspaces/{id}", () => {
  it("answers the workspace's total and every account's, zeros for an account without data", async () => {
    const t = await createTenant();
    const third = await createAccount(t.workspace.id, "threads");
    const both = await postOn(t, [t.accounts[0]!.id, t.accounts[1]!.id]);
    await publishFake(both.rows[0]!, A);
    await publishFake(both.rows[1]!, B);
    const again = await postOn(t);
    await publishFake(again.rows[0]!, A);

    const res = await getJson(t, `/api/v1/analytics/workspaces/${t.workspace.id}`);
    expect(res.status).toBe(200);
    // (17 × 200 + 5.67 × 300) / 500 = 10.202
    expect(res.body.total).toEqual({
      comments: 6,
      likes: 25,
      shares: 10,
      impressions: 500,
      quotes: 2,
      saves: 8,
      engagement_rate: 10.2,
    });
    expect(res.body.workspace_id).toBe(t.workspace.id);
    expect(res.body.accounts).toEqual([
      {
        account_id: t.accounts[0]!.id,
        workspace_id: t.workspace.id,
        platform: "twitter",
        username: expect.any(String),
        total: {
          comments: 2,
          likes: 20,
          shares: 4,
          impressions: 200,
          quotes: 2,
          saves: 6,
          engagement_rate: 17,
        },
      },
      {
        account_id: t.accounts[1]!.id,
        workspace_id: t.workspace.id,
        platform: "linkedin",
        username: expect.any(String),
        total: B,
      },
      {
        account_id: third.id,
        workspace_id: t.workspace.id,
        platform: "threads",
        username: expect.any(String),
        total: ZERO,
      },
    ]);
    expect(serverTiming(res.headers)).toMatchObject({ dbTrips: 1, gateCalls: 1, hops: 1 });
  });
});

describe("GET /api/v1/analytics", () => {
  it("answers totals across every accessible workspace, per workspace and per account", async () => {
    const t = await createTenant();
    const second = await createWorkspace(t.user.id);
    const elsewhere = await createAccount(second.id, "facebook");
    const empty = await createWorkspace(t.user.id);
    const post = await postOn(t);
    await publishFake(post.rows[0]!, A);
    const far = await postOn(t, [elsewhere.id], { workspace_id: second.id });
    await publishFake(far.rows[0]!, B);
    // Another tenant's data is not counted.
    const stranger = await createTenant();
    await publishFake((await postOn(stranger)).rows[0]!, A);

    const res = await getJson(t, "/api/v1/analytics");
    expect(res.status).toBe(200);
    expect(res.body.total).toEqual({
      comments: 5,
      likes: 15,
      shares: 8,
      impressions: 400,
      quotes: 1,
      saves: 5,
      engagement_rate: 8.5,
    });
    expect(res.body.workspaces).toEqual([
      { workspace_id: t.workspace.id, name: expect.any(String), total: A },
      { workspace_id: second.id, name: expect.any(String), total: B },
      { workspace_id: empty.id, name: expect.any(String), total: ZERO },
    ]);
    expect(res.body.accounts.map((a: any) => [a.account_id, a.workspace_id, a.total])).toEqual([
      [t.accounts[0]!.id, t.workspace.id, A],
      [t.accounts[1]!.id, t.workspace.id, ZERO],
      [elsewhere.id, second.id, B],
    ]);
    expect(serverTiming(res.headers)).toMatchObject({ dbTrips: 1, gateCalls: 1, hops: 1 });
  });

  it("answers zeros and empty lists for a user without workspaces", async () => {
    const user = await createUser();
    const key = await admin("POST", "/api-keys", { user_id: user.id, abilities: ["posts"] });
    const res = await getJson({ key: key.body.key } as any, "/api/v1/analytics");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total: ZERO, workspaces: [], accounts: [] });
  });
});

describe("tenancy", () => {
  it("answers 404 for another tenant's post, account and workspace, and for unknown ids", async () => {
    const victim = await createTenant();
    const post = await postOn(victim);
    await publishFake(post.rows[0]!, A);
    const attacker = await createTenant();
    const cases = [
      [`/api/v1/analytics/posts/${post.id}`, "Post not found."],
      [`/api/v1/analytics/accounts/${victim.accounts[0]!.id}`, "Account not found."],
      [`/api/v1/analytics/workspaces/${victim.workspace.id}`, "Workspace not found."],
      ["/api/v1/analytics/posts/999999999", "Post not found."],
      ["/api/v1/analytics/accounts/999999999", "Account not found."],
      ["/api/v1/analytics/workspaces/999999999", "Workspace not found."],
    ] as const;
    for (const [path, message] of cases) {
      const res = await getJson(attacker, path);
      expect([path, res.status, res.body]).toEqual([path, 404, { message }]);
    }
    const sync = await getJson(attacker, "/api/v1/analytics");
    expect(sync.body.workspaces.map((w: any) => w.workspace_id)).toEqual([attacker.workspace.id]);
  });

  it("answers 422 for an id that is not a positive integer", async () => {
    const t = await createTenant();
    const res = await getJson(t, "/api/v1/analytics/posts/abc");
    expect(res.status).toBe(422);
  });
});
