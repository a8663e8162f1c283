// GET /api/v1/posts filters: status, workspace_id, account_id, a scheduled window; combined with each
// other, with pages and with the cursor; an unknown parameter is a 422.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { filteredPage, type PostFilters } from "../../src/posts/queries";
import { call, serverTiming } from "../support/client";
import { createAccount, createPost, createTenant, createWorkspace } from "../support/seed";

const at = (iso: string) => iso;
const list = (key: string, query: Record<string, string>) =>
  call("GET", `/api/v1/posts?${new URLSearchParams(query)}`, { key });
const ids = (body: { data: { id: number }[] }) => body.data.map((p) => p.id);

/** A tenant with two workspaces: drafts and scheduled posts on different accounts and dates. */
async function tenantWithPosts() {
  const t = await createTenant();
  const second = await createWorkspace(t.user.id);
  const third = await createAccount(second.id, "threads");
  const [twitter, linkedin] = t.accounts as [{ id: number }, { id: number }];
  const draft = await createPost(t, { accounts: [twitter.id] });
  const dec1 = await createPost(t, {
    accounts: [twitter.id, linkedin.id],
    scheduled_at: at("2030-12-01T10:00:00Z"),
  });
  const dec15 = await createPost(t, {
    accounts: [linkedin.id],
    scheduled_at: at("2030-12-15T10:00:00+01:00"),
  });
  const jan = await createPost(t, {
    workspace_id: second.id,
    accounts: [third.id],
    scheduled_at: at("2031-01-10T10:00:00Z"),
  });
  return { t, second, third, twitter, linkedin, draft, dec1, dec15, jan };
}

describe("GET /api/v1/posts filters", () => {
  it("filters by status, workspace, account and a scheduled window, alone and together", async () => {
    const { t, second, third, twitter, linkedin, draft, dec1, dec15, jan } = await tenantWithPosts();
    const all = await list(t.key, {});
    expect(ids(all.body)).toEqual([jan.id, dec15.id, dec1.id, draft.id]);

    const drafts = await list(t.key, { status: "DRAFT" });
    expect(ids(drafts.body)).toEqual([draft.id]);
    expect(drafts.body.total).toBe(1);

    expect(ids((await list(t.key, { workspace_id: String(second.id) })).body)).toEqual([jan.id]);
    expect(ids((await list(t.key, { account_id: String(twitter.id) })).body)).toEqual([dec1.id, draft.id]);
    expect(ids((await list(t.key, { account_id: String(third.id) })).body)).toEqual([jan.id]);

    const december = await list(t.key, {
      scheduled_from: "2030-12-01T10:00:00Z",
      scheduled_to: "2030-12-31T23:59:59+01:00",
    });
    expect(ids(december.body)).toEqual([dec15.id, dec1.id]);
    expect(december.body.total).toBe(2);
    // Bounds are included; drafts never match a window.
    expect(ids((await list(t.key, { scheduled_to: "2030-12-01T10:00:00Z" })).body)).toEqual([dec1.id]);
    expect(ids((await list(t.key, { scheduled_from: "2031-01-10T10:00:00Z" })).body)).toEqual([jan.id]);

    const combined = await list(t.key, {
      status: "SCHEDULED",
      workspace_id: String(t.workspace.id),
      account_id: String(linkedin.id),
      scheduled_from: "2030-12-10T00:00:00Z",
    });
    expect(ids(combined.body)).toEqual([dec15.id]);
    expect(combined.body.total).toBe(1);
    // Still one D1 round trip.
    expect(serverTiming(combined.headers).dbTrips).toBeLessThanOrEqual(2);
  });

  it("pages a filtered list, and the page links keep the filters and the cursor", async () => {
    const { t, dec1, dec15, jan } = await tenantWithPosts();
    const first = await list(t.key, { status: "SCHEDULED", per_page: "2" });
    expect(ids(first.body)).toEqual([jan.id, dec15.id]);
    expect(first.body.total).toBe(3);
    expect(first.body.last_page).toBe(2);
    const next = new URL(first.body.next_page_url);
    expect(next.searchParams.get("status")).toBe("SCHEDULED");
    expect(next.searchParams.get("before_id")).toBe(String(dec15.id));
    const second = await call("GET", `${next.pathname}${next.search}`, { key: t.key });
    expect(second.status).toBe(200);
    expect(ids(second.body)).toEqual([dec1.id]);
    const byNumber = await list(t.key, { status: "SCHEDULED", per_page: "2", page: "2" });
    expect(ids(byNumber.body)).toEqual([dec1.id]);
  });

  it("keeps tenants apart: another user's workspace or account matches nothing", async () => {
    const { t } = await tenantWithPosts();
    const other = await createTenant();
    await createPost(other);
    const foreign = await list(t.key, { workspace_id: String(other.workspace.id) });
    expect(foreign.status).toBe(200);
    expect(foreign.body).toMatchObject({ data: [], total: 0 });
    const foreignAccount = await list(t.key, { account_id: String(other.accounts[0]!.id) });
    expect(foreignAccount.body).toMatchObject({ data: [], total: 0 });
  });

  it("refuses unknown parameters and bad filter values with the documented 422", async () => {
    const t = await createTenant();
    const unknown = await list(t.key, { workspace: "1" });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({
      message: "The workspace field is not allowed.",
      errors: { workspace: ["The workspace field is not allowed."] },
    });
    const status = await list(t.key, { status: "LIVE" });
    expect(status.status).toBe(422);
    expect(status.body.errors).toEqual({ status: ["The selected status is invalid."] });
    const date = await list(t.key, { scheduled_from: "tomorrow" });
    expect(date.status).toBe(422);
    expect(date.body.errors.scheduled_from).toEqual([
      "The scheduled from field must be an ISO 8601 date-time with an offset.",
    ]);
    const id = await list(t.key, { account_id: "abc" });
    expect(id.status).toBe(422);
    expect(id.body.errors.account_id).toEqual(["The account id field must be a positive integer."]);
    const window = await list(t.key, {
      scheduled_from: "2030-12-02T00:00:00Z",
      scheduled_to: "2030-12-01T00:00:00Z",
    });
    expect(window.status).toBe(422);
    expect(window.body.errors).toEqual({
      scheduled_to: ["The scheduled to field must be a date after or equal to scheduled from."],
    });
  });
});

/** `n` posts of `status` straight in D1 (one statement), each with a platform row on `accountId`. */
async function bulkPosts(
  workspaceId: number,
  userId: number,
  accountId: number,
  n: number,
  status: "DRAFT" | "SCHEDULED",
) {
  const scheduledAt = status === "SCHEDULED" ? Date.parse("2030-12-05T10:00:00Z") : null;
  await env.DB.batch([
    env.DB.prepare(
      `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
       INSERT INTO posts (workspace_id, user_id, status, content, scheduled_at)
       SELECT ?, ?, ?, '["bulk"]', ? FROM k`,
    ).bind(n, workspaceId, userId, status, scheduledAt),
    env.DB.prepare(
      `INSERT INTO post_platforms (post_id, account_id, platform, status, settings, analytics, posted_on)
       SELECT id, ?, 'twitter', status, '{}', '{}', '[]' FROM posts p
       WHERE workspace_id = ? AND NOT EXISTS (SELECT 1 FROM post_platforms r WHERE r.post_id = p.id)`,
    ).bind(accountId, workspaceId),
  ]);
}

// Issue 29, 2.2: a filter used to be applied beside the tenant scope, not inside it, so `?workspace_id=`
// of another tenant's workspace read its posts (2 / 16 / 46 rows for 0 / 5 / 20 posts, an absent one 1:
// Server-Timing told how many posts it had), and `?status=` walked every tenant's posts of that status.
describe("GET /api/v1/posts filters read the caller's rows only", () => {
  const rowsOf = async (key: string, query: Record<string, string>) => {
    const res = await list(key, query);
    expect(res.status).toBe(200);
    return { rows: serverTiming(res.headers).rowsRead, body: res.body };
  };
  const ABSENT = 999_999_999;

  it("a foreign workspace or account costs what an absent one does, however many posts it has", async () => {
    const t = await createTenant();
    await createPost(t);
    const other = await createTenant();
    const [otherAccount] = other.accounts as [{ id: number }];
    await rowsOf(t.key, {}); // the key is read once per isolate
    const absentWorkspace = await rowsOf(t.key, { workspace_id: String(ABSENT) });
    const absentAccount = await rowsOf(t.key, { account_id: String(ABSENT) });
    expect(absentWorkspace.body).toMatchObject({ data: [], total: 0 });
    for (const more of [0, 5, 15]) {
      await bulkPosts(other.workspace.id, other.user.id, otherAccount.id, more, "DRAFT");
      const workspace = await rowsOf(t.key, { workspace_id: String(other.workspace.id) });
      expect(workspace.body).toMatchObject({ data: [], total: 0 });
      expect(workspace.rows).toBe(absentWorkspace.rows);
      const account = await rowsOf(t.key, { account_id: String(otherAccount.id) });
      expect(account.body).toMatchObject({ data: [], total: 0 });
      expect(account.rows).toBe(absentAccount.rows);
    }
  });

  it("status and scheduled filters read the same rows when another tenant adds 20 posts of each", async () => {
    const { t } = await tenantWithPosts();
    const queries: Record<string, string>[] = [
      { status: "DRAFT" },
      { status: "SCHEDULED" },
      { scheduled_from: "2030-12-01T00:00:00Z", scheduled_to: "2030-12-31T00:00:00Z" },
      { status: "SCHEDULED", scheduled_from: "2030-12-01T00:00:00Z" },
      { status: "DRAFT", workspace_id: String(t.workspace.id) },
      { account_id: String(t.accounts[0]!.id), status: "SCHEDULED" },
    ];
    // The other tenant exists, with a post of each status, before the first measure: an index walk reads
    // the entry after its range to know it ended, one row more when there is one (not a count of them).
    const other = await createTenant();
    const account = other.accounts[0]!.id;
    await bulkPosts(other.workspace.id, other.user.id, account, 1, "DRAFT");
    await bulkPosts(other.workspace.id, other.user.id, account, 1, "SCHEDULED");
    await rowsOf(t.key, {});
    const before: Awaited<ReturnType<typeof rowsOf>>[] = [];
    for (const query of queries) before.push(await rowsOf(t.key, query));
    await bulkPosts(other.workspace.id, other.user.id, account, 20, "DRAFT");
    await bulkPosts(other.workspace.id, other.user.id, account, 20, "SCHEDULED");
    for (const [i, query] of queries.entries()) {
      const after = await rowsOf(t.key, query);
      expect(after.body.data).toEqual(before[i]!.body.data);
      expect({ query, rows: after.rows }).toEqual({ query, rows: before[i]!.rows });
    }
  });

  it("walks indexes that start with the tenant, never another tenant's entries", async () => {
    const db = createDb(env.DB);
    const plan = async (filters: PostFilters) => {
      const query = filteredPage(
        db,
        { userId: 1, mode: "live" },
        { page: 1, perPage: 10, filters },
      ).ids.toSQL();
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
        .bind(...query.params)
        .all<{ detail: string }>();
      return results.map((r) => r.detail).join("\n");
    };
    const from = new Date("2030-12-01T00:00:00Z");
    expect(await plan({ status: "DRAFT" })).toMatch(
      /SEARCH \w+ USING (COVERING )?INDEX posts_workspace_status_idx/,
    );
    expect(await plan({ status: "DRAFT", workspaceId: 3 })).toMatch(/posts_workspace_status_idx/);
    expect(await plan({ scheduledFrom: from })).toMatch(/posts_workspace_scheduled_idx/);
    for (const filters of [
      { status: "DRAFT" as const },
      { scheduledFrom: from },
      { workspaceId: 3 },
      { accountId: 4 },
    ])
      expect(await plan(filters)).not.toMatch(/posts_due_idx|posts_status_updated_idx|\bSCAN\b(?! CONSTANT)/);
  });
});
