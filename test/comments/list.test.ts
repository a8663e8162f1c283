// GET /api/v1/comments: the inbox's filters, its tenancy (another tenant's filters read what absent ones
// do), its ability, and its cursor, which neither repeats nor skips an item while comments arrive.
import { describe, expect, it } from "vitest";
import { call, serverTiming } from "../support/client";
import { insertComment } from "../support/db";
import { createKey, createPost, createTenant, createWorkspace } from "../support/seed";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const list = (t: Tenant | string, query = "") =>
  call("GET", `/api/v1/comments${query ? `?${query}` : ""}`, { key: typeof t === "string" ? t : t.key });
const ids = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((c) => c.id);

/** A tenant with a post on each account: three comments on twitter (a reply among them), one on linkedin. */
async function inbox() {
  const t = await createTenant({ timezone: "Europe/Paris" });
  const [twitter, linkedin] = t.accounts as [Tenant["accounts"][0], Tenant["accounts"][0]];
  const onTwitter = (await createPost(t, { accounts: [twitter.id] })).id as number;
  const onLinkedin = (await createPost(t, { accounts: [linkedin.id] })).id as number;
  const at = Date.UTC(2026, 10, 21, 8, 15);
  const first = await insertComment(onTwitter, {
    platform_comment_id: "t1",
    contact: { name: "Ada", username: "ada", profile_url: null },
    created_at: at,
  });
  const hidden = await insertComment(onTwitter, {
    platform_comment_id: "t2",
    hidden: true,
    created_at: at + 60_000,
  });
  const replied = await insertComment(onTwitter, {
    platform_comment_id: "t3",
    replied_at: at,
    is_own: true,
    url: "https://x.example/t3",
    created_at: at + 120_000,
  });
  const other = await insertComment(onLinkedin, {
    platform: "linkedin",
    platform_comment_id: "l1",
    created_at: at + 180_000,
  });
  return { t, twitter, linkedin, onTwitter, onLinkedin, first, hidden, replied, other };
}

describe("GET /api/v1/comments", () => {
  it("lists every comment of the user's workspaces, newest first, in the Comment shape", async () => {
    const { t, twitter, onTwitter, first, hidden, replied, other } = await inbox();
    const res = await list(t);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([other, replied, hidden, first]);
    expect(res.body).toMatchObject({ next_cursor: null, next_page_url: null, current_page: 1, per_page: 20 });
    expect(res.body.data.at(-1)).toEqual({
      id: first,
      content: "Nice post!",
      author_name: "Grace",
      platform: "twitter",
      created_at: "2026-11-21T09:15:00+01:00",
      contact: { name: "Ada", username: "ada", profile_url: null },
      post_id: onTwitter,
      account_id: twitter.id,
      platform_comment_id: "t1",
      parent_id: null,
      hidden: false,
      url: null,
      is_own: false,
      actions: ["reply", "hide"],
    });
    expect(res.body.data[1]).toMatchObject({ is_own: true, url: "https://x.example/t3" });
  });

  it("filters by workspace, account, post, platform, since, hidden and replied, combined with AND", async () => {
    const { t, linkedin, onTwitter, first, hidden, replied, other } = await inbox();
    const second = await createWorkspace(t.user.id);
    const cases: Array<[string, number[]]> = [
      [`workspace_id=${t.workspace.id}`, [other, replied, hidden, first]],
      [`workspace_id=${second.id}`, []],
      [`account_id=${linkedin.id}`, [other]],
      [`post_id=${onTwitter}`, [replied, hidden, first]],
      [`post_id=${onTwitter}&account_id=${linkedin.id}`, []],
      ["platform=twitter", [replied, hidden, first]],
      ["since=2026-11-21T09:17:00%2B01:00", [other, replied]],
      ["hidden=true", [hidden]],
      ["hidden=false&platform=twitter", [replied, first]],
      ["replied=true", [replied]],
      [`replied=false&post_id=${onTwitter}`, [hidden, first]],
    ];
    for (const [query, expected] of cases) {
      const res = await list(t, query);
      expect(res.status, query).toBe(200);
      expect(ids(res), query).toEqual(expected);
    }
  });

  it("reads the same rows for another tenant's workspace, account or post as for absent ones", async () => {
    const { t } = await inbox();
    const victim = await inbox();
    const absent = 999_999_999;
    for (const [name, foreign] of [
      ["workspace_id", victim.t.workspace.id],
      ["account_id", victim.linkedin.id],
      ["post_id", victim.onTwitter],
    ] as const) {
      const theirs = await list(t, `${name}=${foreign}`);
      const none = await list(t, `${name}=${absent}`);
      expect([theirs.status, none.status]).toEqual([200, 200]);
      expect(theirs.body.data).toEqual([]);
      expect(none.body.data).toEqual([]);
      expect(serverTiming(theirs.headers).rowsRead, name).toBe(serverTiming(none.headers).rowsRead);
    }
  });

  it("refuses a key without the posts ability, unknown parameters and bad values", async () => {
    const { t } = await inbox();
    const { key } = await createKey(t.user.id, ["workspaces", "accounts"]);
    const refused = await list(key);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "Forbidden - Insufficient permissions", ability: "posts" });
    for (const [query, field] of [
      ["status=PUBLISHED", "status"],
      ["hidden=maybe", "hidden"],
      ["platform=myspace", "platform"],
      ["since=yesterday", "since"],
      ["per_page=101", "per_page"],
      ["cursor=MTIz!", "cursor"],
      ["cursor=YWJj", "cursor"],
    ]) {
      const res = await list(t, query!);
      expect(res.status, query).toBe(422);
      expect(Object.keys(res.body.errors), query).toEqual([field]);
    }
  });

  it("walks pages by cursor without repeating or skipping an item while new comments arrive", async () => {
    const { t, onTwitter, first, hidden, replied, other } = await inbox();
    const page1 = await list(t, "per_page=2");
    expect(ids(page1)).toEqual([other, replied]);
    expect(page1.body.next_cursor).toEqual(expect.any(String));
    const cursor = page1.body.next_cursor as string;
    expect(page1.body.next_page_url).toBe(
      `https://api.example.test/api/v1/comments?per_page=2&page=2&cursor=${cursor}`,
    );
    // Two comments arrive between the pages: page 2 by number would repeat `replied` and `other`.
    const arrived = [await insertComment(onTwitter, { platform_comment_id: "n1" })];
    arrived.push(await insertComment(onTwitter, { platform_comment_id: "n2" }));
    const page2 = await list(t, `per_page=2&cursor=${cursor}`);
    expect(ids(page2)).toEqual([hidden, first]);
    expect(page2.body).toMatchObject({ next_cursor: null, next_page_url: null, prev_page_url: null });
    const byNumber = await list(t, "per_page=2&page=2");
    expect(ids(byNumber)).toEqual([other, replied]);
    expect(ids(await list(t, "per_page=2"))).toEqual(arrived.reverse());
  });
});
