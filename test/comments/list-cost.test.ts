// The inbox's cost does not grow with the tenant: a page, by cursor however deep, with or without a
// filter, reads the same rows (Server-Timing `rows`) at 1,000 comments as at 100,000 (docs/scaling.md).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, serverTiming } from "../support/client";
import { createPost, createTenant } from "../support/seed";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** `n` comments on one post of the tenant's first account, straight in D1 (one statement). */
async function bulkComments(t: Tenant, n: number) {
  const post = (await createPost(t, { accounts: [t.accounts[0]!.id] })).id as number;
  await env.DB.prepare(
    `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?1)
     INSERT INTO comments (workspace_id, account_id, post_id, platform, platform_comment_id, content, author_name,
       hidden, received_at, created_at)
     SELECT ?2, ?3, ?4, 'twitter', 'c' || i, 'Comment ' || i, 'Reader', i % 10 = 0, 1795000000000 + i, 1795000000000 + i FROM k`,
  )
    .bind(n, t.workspace.id, t.accounts[0]!.id, post)
    .run();
  return post;
}

/** Rows read by page 1 and by a cursor page in the middle of the list, for each way of listing. */
async function costs(t: Tenant, post: number, n: number) {
  const { results } = await env.DB.prepare(
    "SELECT id FROM comments WHERE workspace_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?",
  )
    .bind(t.workspace.id, Math.floor(n / 2))
    .all<{ id: number }>();
  const middle = btoa(String(results[0]!.id)).replace(/=+$/, "");
  const out: Record<string, [number, number]> = {};
  for (const [name, filter] of [
    ["none", ""],
    ["workspace", `workspace_id=${t.workspace.id}`],
    ["account", `account_id=${t.accounts[0]!.id}`],
    ["post", `post_id=${post}`],
    ["hidden", "hidden=true"],
  ] as const) {
    const read = async (query: string) => {
      const res = await call("GET", `/api/v1/comments?${query}`, { key: t.key });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(20);
      return serverTiming(res.headers).rowsRead;
    };
    out[name] = [await read(filter), await read(`${filter}&cursor=${middle}`)];
  }
  return out;
}

describe("GET /api/v1/comments: a cost that does not grow with the tenant", () => {
  it("reads the same rows at 1,000 and at 100,000 comments in a workspace", { timeout: 60_000 }, async () => {
    const small = await createTenant();
    const big = await createTenant();
    const smallCosts = await costs(small, await bulkComments(small, 1_000), 1_000);
    const bigCosts = await costs(big, await bulkComments(big, 100_000), 100_000);
    // The same, up to the few rows the tenant's own memberships and index pages add (measured: 0 to 2).
    for (const [name, [first, deep]] of Object.entries(bigCosts)) {
      const [smallFirst, smallDeep] = smallCosts[name]!;
      expect(Math.abs(first - smallFirst), name).toBeLessThanOrEqual(5);
      expect(Math.abs(deep - smallDeep), name).toBeLessThanOrEqual(5);
    }
    // About a page's rows a few times over (the floor, the page, its rows and their workspace), never the
    // tenant's size; a filter that few comments match (one in ten here) reads through to a page of them.
    for (const name of ["none", "workspace", "account", "post"]) expect(bigCosts[name]![1]).toBeLessThan(200);
    expect(bigCosts.hidden![1]).toBeLessThan(1_000);
  });
});
