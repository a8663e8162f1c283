// The analytics totals come from per-account aggregates maintained by triggers (account_metrics,
// migrations/0006), so a report reads O(accounts) rows however many platform rows the tenant has. These
// tests check that the totals stay exactly those of a plain SUM over post_platforms through every kind
// of write (API and direct SQL), and that the rows read do not grow with the published rows.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, serverTiming } from "../support/client";
import { createAccount, createTenant, createWorkspace } from "../support/seed";
import { getJson, postOn, publishFake, setRow } from "./support";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const COUNTS = ["comments", "likes", "shares", "impressions", "quotes", "saves"] as const;

/**
 * The totals of the accounts `accountIds` selects (SQL with one `?`, bound to `arg`), computed the
 * plain way: a SUM over every published row, exactly as the reports did before account_metrics.
 */
async function plainTotals(accountIds: string, arg: number) {
  const metric = (key: string) =>
    `(CASE WHEN status = 'PUBLISHED' THEN json_extract(analytics, '$.${key}') END)`;
  const sums = COUNTS.map((k) => `coalesce(sum(${metric(k)}), 0) AS ${k}`).join(", ");
  const impressions = metric("impressions");
  const rate = metric("engagement_rate");
  const row = await env.DB.prepare(
    `SELECT ${sums}, coalesce(round(CASE WHEN sum(${impressions}) > 0
       THEN sum(${rate} * 1.0 * ${impressions}) / sum(${impressions})
       ELSE avg(nullif(${rate}, 0)) END, 2), 0) AS engagement_rate
     FROM post_platforms WHERE account_id IN (${accountIds})`,
  )
    .bind(arg)
    .first<Record<string, number>>();
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
}

const ofUser =
  "SELECT a.id FROM accounts a JOIN workspace_members m ON m.workspace_id = a.workspace_id WHERE m.user_id = ?";
const ofWorkspace = "SELECT id FROM accounts WHERE workspace_id = ?";
const ofAccount = "SELECT ?";

/**
 * Every total of the overall report and of the reports of `reported` workspaces (and, with
 * `accountReports`, of each account's report) equals the plain SUM. (A user may make 60 requests a
 * minute: the other reports are asked for sparingly.)
 */
async function expectExact(t: Tenant, workspaceIds: number[], reported: number[], accountReports = false) {
  const overall = await getJson(t, "/api/v1/analytics");
  expect(overall.status).toBe(200);
  expect(overall.body.total).toEqual(await plainTotals(ofUser, t.user.id));
  expect(overall.body.workspaces.map((w: { workspace_id: number }) => w.workspace_id)).toEqual(workspaceIds);
  for (const w of overall.body.workspaces) {
    expect(w.total).toEqual(await plainTotals(ofWorkspace, w.workspace_id));
  }
  for (const a of overall.body.accounts) {
    expect(a.total).toEqual(await plainTotals(ofAccount, a.account_id));
  }
  for (const id of reported) {
    const res = await getJson(t, `/api/v1/analytics/workspaces/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toEqual(await plainTotals(ofWorkspace, id));
    for (const a of res.body.accounts) {
      expect(a.total).toEqual(await plainTotals(ofAccount, a.account_id));
    }
  }
  for (const a of accountReports ? overall.body.accounts : []) {
    const res = await getJson(t, `/api/v1/analytics/accounts/${a.account_id}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toEqual(a.total);
  }
  return overall.body;
}

/** `n` posts with one PUBLISHED row each on the account, straight in D1 (two statements). */
async function bulkPublished(t: Tenant, accountId: number, n: number, marker: string) {
  await env.DB.prepare(
    `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
     INSERT INTO posts (workspace_id, user_id, status, content) SELECT ?, ?, 'PUBLISHED', json_array(?) FROM k`,
  )
    .bind(n, t.workspace.id, t.user.id, marker)
    .run();
  await env.DB.prepare(
    `INSERT INTO post_platforms (post_id, account_id, platform, status, settings, analytics, platform_post_id, posted_on)
     SELECT id, ?, 'twitter', 'PUBLISHED', '{}',
       json_object('comments', id % 3, 'likes', id % 11, 'shares', id % 2, 'impressions', (id % 13) * 10,
                   'quotes', id % 5, 'saves', id % 7, 'engagement_rate', (id % 9) * 1.25),
       CAST(id AS TEXT), '[]'
     FROM posts WHERE workspace_id = ? AND content = json_array(?)`,
  )
    .bind(accountId, t.workspace.id, marker)
    .run();
}

describe("analytics totals from maintained per-account aggregates", () => {
  it("stay exactly the plain SUM through inserts, updates, status changes, moves and deletes", async () => {
    const t = await createTenant();
    const [a, b] = [t.accounts[0]!.id, t.accounts[1]!.id];
    const second = await createWorkspace(t.user.id);
    const c = (await createAccount(second.id, "linkedin")).id;
    // A workspace without accounts still answers zeros.
    const empty = await createWorkspace(t.user.id);
    const workspaceIds = [t.workspace.id, second.id, empty.id];
    const check = (accountReports = false) =>
      expectExact(t, workspaceIds, [t.workspace.id, second.id], accountReports);
    // Another tenant's rows never count.
    const other = await createTenant();
    const foreign = await postOn(other);
    await publishFake(foreign.rows[0]!, { likes: 1000, impressions: 1000, engagement_rate: 50 });

    // Zeros before any row.
    const start = await expectExact(t, workspaceIds, workspaceIds, true);
    expect(start.total.likes).toBe(0);

    // Published rows: with impressions, without (mean of non-zero rates), missing keys, integer rates.
    const p1 = await postOn(t, [a, b]);
    const p2 = await postOn(t, [b, a]);
    const p3 = await postOn(t, [a]);
    const q = await postOn(t, [c], { workspace_id: second.id });
    await publishFake(p1.rows[0]!, {
      comments: 1,
      likes: 10,
      shares: 2,
      impressions: 100,
      quotes: 1,
      saves: 3,
      engagement_rate: 17,
    });
    await publishFake(p1.rows[1]!, { likes: 5, engagement_rate: 5.67 });
    await publishFake(p2.rows[0]!, { likes: 7, engagement_rate: 2.5 });
    await publishFake(p2.rows[1]!, { impressions: 300, engagement_rate: 5.67, saves: 2 });
    await publishFake(q.rows[0]!, { comments: 4, engagement_rate: 0, impressions: 0 });
    // A draft row carrying stale metrics does not count.
    await setRow(p3.rows[0]!, { analytics: { likes: 99, impressions: 99, engagement_rate: 9 } });
    let body = await check(true);
    expect(body.total.likes).toBe(22);
    expect(body.total.impressions).toBe(400);

    // Rows inserted straight in D1.
    await bulkPublished(t, b, 15, `bulk-${t.user.id}`);
    await check();

    // A sync's analytics update.
    await setRow(p1.rows[1]!, { analytics: { likes: 8, impressions: 40, engagement_rate: 3.3 } });
    await setRow(p2.rows[0]!, { analytics: {} });
    await check();

    // PUBLISHED → FAILED and back, and a draft published.
    await setRow(p1.rows[0]!, { status: "FAILED" });
    await check();
    await setRow(p1.rows[0]!, { status: "PUBLISHED" });
    await setRow(p3.rows[0]!, { status: "PUBLISHED" });
    body = await check();
    expect(body.total.likes).toBeGreaterThanOrEqual(99);
    // Status and analytics changed in one statement.
    await env.DB.prepare(
      "UPDATE post_platforms SET status = 'FAILED', analytics = '{\"likes\": 1}' WHERE id = ?",
    )
      .bind(p2.rows[1]!)
      .run();
    await check();

    // A row moved to an account of another workspace, and one moved while changing its status.
    await env.DB.prepare("UPDATE post_platforms SET account_id = ? WHERE id = ?").bind(c, p1.rows[0]!).run();
    await env.DB.prepare("UPDATE post_platforms SET account_id = ?, status = 'PUBLISHED' WHERE id = ?")
      .bind(a, p2.rows[1]!)
      .run();
    await check();

    // A row deleted, and a post deleted through the API (its rows cascade).
    await env.DB.prepare("DELETE FROM post_platforms WHERE id = ?").bind(p2.rows[0]!).run();
    await check();
    expect((await call("DELETE", `/api/v1/posts/${p1.id}`, { key: t.key })).status).toBe(200);
    await check();

    // An account disconnected through the API: detached, its published rows and its aggregate stay.
    const beforeDetach = await check(true);
    expect((await call("DELETE", `/api/v1/accounts/${b}`, { key: t.key })).status).toBe(200);
    body = await check(true);
    expect(body.accounts.map((x: { account_id: number }) => x.account_id)).toEqual([a, b, c]);
    expect(body.total).toEqual(beforeDetach.total);
    const { results } = await env.DB.prepare("SELECT account_id FROM account_metrics WHERE account_id = ?")
      .bind(b)
      .all();
    expect(results).toEqual([{ account_id: b }]);
    // The other tenant's total is untouched.
    expect((await getJson(other, "/api/v1/analytics")).body.total.likes).toBe(1000);
  });

  it("reads no more rows for 2,000 published rows than for 20", async () => {
    const small = await createTenant();
    const big = await createTenant();
    await bulkPublished(small, small.accounts[0]!.id, 10, `small-${small.user.id}`);
    await bulkPublished(small, small.accounts[1]!.id, 10, `small2-${small.user.id}`);
    await bulkPublished(big, big.accounts[0]!.id, 1000, `big-${big.user.id}`);
    await bulkPublished(big, big.accounts[1]!.id, 1000, `big2-${big.user.id}`);

    // Warm up first: a key's first request also looks the key up.
    await getJson(small, "/api/v1/analytics");
    await getJson(big, "/api/v1/analytics");
    const smallRes = await getJson(small, "/api/v1/analytics");
    const bigRes = await getJson(big, "/api/v1/analytics");
    expect(bigRes.body.total).toEqual(await plainTotals(ofUser, big.user.id));
    expect(bigRes.body.total.impressions).toBeGreaterThan(0);
    const smallRows = serverTiming(smallRes.headers).rowsRead;
    const bigRows = serverTiming(bigRes.headers).rowsRead;
    expect(smallRows).toBeGreaterThan(0);
    expect(bigRows).toBeLessThanOrEqual(smallRows * 1.5);
    // Still one batch.
    expect(serverTiming(bigRes.headers).dbTrips).toBe(1);
  });
});
