// The posts list's cost does not grow with the tenant: its total comes from the workspaces' maintained
// counters (migrations/0005 triggers), and a page reads a bounded number of index entries (a floor per
// workspace, src/posts/queries.ts pageIdsOfUser). These tests check both against plain SQL.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Answer, admin, call, serverTiming } from "../support/client";
import { createPost, createTenant, createWorkspace } from "../support/seed";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** `n` drafts straight in D1 (one statement), as a large tenant would have them. */
async function bulkPosts(workspaceId: number, userId: number, n: number) {
  await env.DB.prepare(
    `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
     INSERT INTO posts (workspace_id, user_id, status, content) SELECT ?, ?, 'DRAFT', '["bulk"]' FROM k`,
  )
    .bind(n, workspaceId, userId)
    .run();
}

const list = (t: Tenant, query: string) => call("GET", `/api/v1/posts?${query}`, { key: t.key });

async function idsOfUser(userId: number) {
  const { results } = await env.DB.prepare(
    "SELECT id FROM posts WHERE workspace_id IN (SELECT workspace_id FROM workspace_members WHERE user_id = ?) ORDER BY id DESC",
  )
    .bind(userId)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

describe("GET /api/v1/posts: costs that do not grow with the tenant", () => {
  it("pages across several workspaces exactly as ORDER BY id DESC LIMIT/OFFSET would", async () => {
    const t = await createTenant();
    const second = await createWorkspace(t.user.id);
    const third = await createWorkspace(t.user.id);
    // Interleaved ids across the three workspaces, and one workspace much larger than the others.
    for (let round = 0; round < 4; round++) {
      await bulkPosts(t.workspace.id, t.user.id, 3);
      await bulkPosts(second.id, t.user.id, 5);
      await bulkPosts(third.id, t.user.id, 1);
    }
    const expected = await idsOfUser(t.user.id);
    expect(expected).toHaveLength(36);
    for (const page of [1, 2, 3, 5, 6, 7]) {
      const res = await list(t, `per_page=7&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((p: { id: number }) => p.id)).toEqual(
        expected.slice((page - 1) * 7, page * 7),
      );
      expect(res.body.total).toBe(36);
      expect(res.body.last_page).toBe(6);
    }
  });

  it("keeps the total exact through API creates and deletes, direct inserts and another user's posts", async () => {
    const t = await createTenant();
    const other = await createTenant();
    await bulkPosts(other.workspace.id, other.user.id, 50);
    const a = await createPost(t);
    await createPost(t);
    await bulkPosts(t.workspace.id, t.user.id, 10);
    expect((await list(t, "per_page=5")).body.total).toBe(12);
    expect((await call("DELETE", `/api/v1/posts/${a.id}`, { key: t.key })).status).toBe(200);
    const after = await list(t, "per_page=5");
    expect(after.body.total).toBe(11);
    expect(after.body.total).toBe((await idsOfUser(t.user.id)).length);
    // A workspace the user joins brings its posts into the total.
    await admin("POST", `/workspaces/${other.workspace.id}/members`, { user_id: t.user.id });
    expect((await list(t, "per_page=5")).body.total).toBe(61);
  });

  it("reads about the same rows for page 1 of 3,000 posts as of 100, and bounded rows for a deep page", async () => {
    const small = await createTenant();
    const big = await createTenant();
    await bulkPosts(small.workspace.id, small.user.id, 100);
    await bulkPosts(big.workspace.id, big.user.id, 3000);
    await list(small, "per_page=100");
    await list(big, "per_page=100");
    const smallRows = serverTiming((await list(small, "per_page=100")).headers).rowsRead;
    const bigFirst = await list(big, "per_page=100");
    const bigRows = serverTiming(bigFirst.headers).rowsRead;
    expect(bigFirst.body.total).toBe(3000);
    expect(bigRows).toBeLessThanOrEqual(smallRows * 1.5);
    const deep = await list(big, "per_page=100&page=30");
    expect(deep.body.data).toHaveLength(100);
    expect(deep.body.data.at(-1).id).toBe((await idsOfUser(big.user.id)).at(-1));
    // Page 30 walks about 30 × 100 index entries per statement: bounded by its offset, not the total.
    expect(serverTiming(deep.headers).rowsRead).toBeLessThan(20 * 3000);
  });

  it("walks the whole list through next_page_url, which carries before_id, in the same order as by page number", async () => {
    const t = await createTenant();
    const second = await createWorkspace(t.user.id);
    for (let round = 0; round < 3; round++) {
      await bulkPosts(t.workspace.id, t.user.id, 4);
      await bulkPosts(second.id, t.user.id, 3);
    }
    const expected = await idsOfUser(t.user.id);
    const walked: number[] = [];
    let url: string | null = "/api/v1/posts?per_page=5&include_comments=false";
    for (let page = 1; url; page++) {
      const res: Answer = await call("GET", url.replace("https://api.example.test", ""), { key: t.key });
      expect(res.status).toBe(200);
      expect(res.body.current_page).toBe(page);
      expect(res.body.total).toBe(21);
      const ids = res.body.data.map((p: { id: number }) => p.id);
      walked.push(...ids);
      url = res.body.next_page_url;
      if (url) {
        const next = new URL(url);
        expect(next.searchParams.get("before_id")).toBe(String(ids.at(-1)));
        expect(next.searchParams.get("page")).toBe(String(page + 1));
        expect(next.searchParams.get("include_comments")).toBe("false");
      }
      // Only the next page's URL (and the "Next" link, the same URL) carries a cursor.
      const others = [
        res.body.first_page_url,
        res.body.last_page_url,
        res.body.prev_page_url,
        ...res.body.links
          .filter((l: { label: string }) => l.label !== "Next &raquo;")
          .map((l: { url: string | null }) => l.url),
      ];
      for (const other of others.filter(Boolean))
        expect(new URL(other).searchParams.has("before_id")).toBe(false);
    }
    expect(walked).toEqual(expected);
  });

  it("never repeats a post through next_page_url when newer posts arrive between pages", async () => {
    const t = await createTenant();
    await bulkPosts(t.workspace.id, t.user.id, 10);
    const first = await list(t, "per_page=5");
    await bulkPosts(t.workspace.id, t.user.id, 3);
    const followed = await call("GET", first.body.next_page_url.replace("https://api.example.test", ""), {
      key: t.key,
    });
    const byNumber = await list(t, "per_page=5&page=2");
    const seen = new Set(first.body.data.map((p: { id: number }) => p.id));
    expect(followed.body.data.filter((p: { id: number }) => seen.has(p.id))).toEqual([]);
    expect(followed.body.data).toHaveLength(5);
    // By number, page 2 now starts with three posts page 1 already showed.
    expect(byNumber.body.data.filter((p: { id: number }) => seen.has(p.id))).toHaveLength(3);
  });

  it("reads a deep page reached through next_page_url at the cost of page 1", async () => {
    const big = await createTenant();
    await bulkPosts(big.workspace.id, big.user.id, 3000);
    const ids = await idsOfUser(big.user.id);
    await list(big, "per_page=100");
    const firstRows = serverTiming((await list(big, "per_page=100")).headers).rowsRead;
    const byNumber = await list(big, "per_page=100&page=25");
    const byCursor = await list(big, `per_page=100&page=25&before_id=${ids[24 * 100 - 1]}`);
    expect(byCursor.body.data).toEqual(byNumber.body.data);
    expect(byCursor.body.data.at(-1).id).toBe(ids[25 * 100 - 1]);
    expect(serverTiming(byCursor.headers).rowsRead).toBeLessThanOrEqual(firstRows + 10);
    expect(serverTiming(byNumber.headers).rowsRead).toBeGreaterThan(5 * firstRows);
  });

  it("refuses a before_id that is not a positive integer", async () => {
    const t = await createTenant();
    for (const value of ["0", "-1", "abc", "1.5", "99999999999999999"]) {
      const res = await list(t, `before_id=${value}`);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["before_id"]);
    }
  });
});
