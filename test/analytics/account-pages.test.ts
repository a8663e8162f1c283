// GET /api/v1/analytics/accounts/{id} pages its platform rows (Laravel's simple paginator fields):
// a page reads what it shows through post_platforms_account_order_idx, however many rows the account has,
// and the pages together list every row once, in the report's order.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { serverTiming } from "../support/client";
import { createTenant } from "../support/seed";
import { getJson } from "./support";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/**
 * `count` published posts on the tenant's first account, straight in D1 (the API would take minutes):
 * platform post ids "1" … "count" (so numeric order differs from text order), and one draft row.
 */
async function seedRows(t: Tenant, count: number) {
  const account = t.accounts[0]!.id;
  const now = Date.now();
  const upTo = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count + 1})`;
  await env.DB.batch([
    env.DB.prepare(
      `${upTo} INSERT INTO posts (workspace_id, user_id, status, content, created_at, updated_at)
       SELECT ?, ?, 'PUBLISHED', json_array('p' || i), ?, ? FROM n`,
    ).bind(t.workspace.id, t.user.id, now, now),
    env.DB.prepare(
      `INSERT INTO post_platforms (post_id, account_id, platform, status, settings, analytics, platform_post_id,
         post_url, posted_on, created_at, updated_at)
       SELECT p.id, ?, 'twitter', CASE WHEN r.i <= ? THEN 'PUBLISHED' ELSE 'DRAFT' END, '{}',
         json_object('likes', r.i, 'impressions', 10), CASE WHEN r.i <= ? THEN CAST(r.i AS TEXT) END,
         NULL, '[]', ?, ?
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS i FROM posts WHERE workspace_id = ?) AS p
       JOIN (SELECT id, row_number() OVER (ORDER BY id) AS i FROM posts WHERE workspace_id = ?) AS r ON r.id = p.id`,
    ).bind(account, count, count, now, now, t.workspace.id, t.workspace.id),
  ]);
  return account;
}

const ids = (body: { platform_posts: Array<{ platform_post_id: string | null }> }) =>
  body.platform_posts.map((p) => p.platform_post_id);

describe("GET /api/v1/analytics/accounts/{id}: pages", () => {
  it("pages the rows newest first, 100 unless asked, and the pages together list each row once", async () => {
    const t = await createTenant();
    const account = await seedRows(t, 204);
    const path = `/api/v1/analytics/accounts/${account}`;

    const first = await getJson(t, path);
    expect(first.status).toBe(200);
    expect(ids(first.body)).toEqual(Array.from({ length: 100 }, (_, i) => String(204 - i)));
    expect(first.body).toMatchObject({
      current_page: 1,
      per_page: 100,
      next_page_url: `https://api.example.test${path}?page=2`,
      prev_page_url: null,
    });
    // The total is the account's, whatever the page: 204 published rows of 10 impressions.
    expect(first.body.total.impressions).toBe(2040);

    const third = await getJson(t, `${path}?page=3`);
    expect(ids(third.body)).toEqual(["4", "3", "2", "1", null]);
    expect(third.body).toMatchObject({
      current_page: 3,
      next_page_url: null,
      prev_page_url: `https://api.example.test${path}?page=2`,
    });
    expect(third.body.total).toEqual(first.body.total);

    const walked: Array<string | null> = [];
    for (let url: string | null = `${path}?per_page=50`; url; ) {
      const page = await getJson(t, url.replace("https://api.example.test", ""));
      expect(page.body.per_page).toBe(50);
      walked.push(...ids(page.body));
      url = page.body.next_page_url;
    }
    expect(walked).toEqual([...Array.from({ length: 204 }, (_, i) => String(204 - i)), null]);

    const past = await getJson(t, `${path}?page=9`);
    expect(past.body).toMatchObject({ platform_posts: [], next_page_url: null, current_page: 9 });
  });

  it("refuses a per_page or page out of range with a 422 naming the field", async () => {
    const t = await createTenant();
    for (const [query, field] of [
      ["per_page=101", "per_page"],
      ["per_page=0", "per_page"],
      ["page=0", "page"],
      ["page=x", "page"],
    ]) {
      const res = await getJson(t, `/api/v1/analytics/accounts/${t.accounts[0]!.id}?${query}`);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
  });

  it("reads what a page shows: the rows read do not grow with the account's rows", async () => {
    const small = await createTenant();
    const big = await createTenant();
    const smallAccount = await seedRows(small, 150);
    const bigAccount = await seedRows(big, 3000);
    const read = async (t: Tenant, account: number, query = "") => {
      const res = await getJson(t, `/api/v1/analytics/accounts/${account}${query}`);
      expect(res.status).toBe(200);
      expect(res.body.platform_posts).toHaveLength(100);
      return serverTiming(res.headers).rowsRead;
    };
    // Warm the keys: a key's first request also reads it.
    await read(small, smallAccount);
    await read(big, bigAccount);
    const smallRows = await read(small, smallAccount);
    const bigRows = await read(big, bigAccount);
    // A sort of the account's rows would read all 3,000; the index walk reads the page (and one more).
    expect(bigRows).toBeLessThan(400);
    expect(bigRows).toBeLessThanOrEqual(smallRows + 10);
    // A deeper page costs its offset, still not the account's size.
    expect(await read(big, bigAccount, "?page=2")).toBeLessThan(600);
  });
});
