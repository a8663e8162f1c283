// Review links: created by a key with `approvals` for a waiting post, the page showing the post per
// platform, one decision per link (used twice: the second decides nothing), expired, tampered and
// old-version links, the form's CSRF defence (its token and `Origin`), and the history naming the link.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signReviewLink } from "../../src/approvals/links";
import { call, ORIGIN } from "../support/client";
import { createKey, inMinutes } from "../support/seed";
import { pendingPost, requiredTenant, reviewsOf, type Tenant } from "./support";

async function linkFor(t: Tenant, id: number, body: Record<string, unknown> = {}) {
  const res = await call("POST", `/api/v1/posts/${id}/review-links`, { key: t.key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { url: string; expires_in: number };
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

const open = (url: string) => call("GET", pathOf(url));

/** The form's csrf field on a review page. */
const csrfOf = (html: string) => /name="csrf" value="([0-9a-f]+)"/.exec(html)?.[1];

const decide = (url: string, fields: Record<string, string>, origin: string | null = ORIGIN) =>
  call("POST", pathOf(url), {
    rawBody: new URLSearchParams(fields).toString(),
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(origin ? { origin } : {}),
    },
  });

describe("review links", () => {
  it("shows the post per platform and approves it once; the history names the link", async () => {
    const t = await requiredTenant();
    const post = await pendingPost(t, {
      accounts: t.accounts.map((a) => a.id),
      content: [{ text: "First of the thread" }, { text: "Second item" }],
    });
    const link = await linkFor(t, post.id, { label: "Client: Acme" });
    expect(link.expires_in).toBe(7 * 24 * 3600);
    expect(link.url).toMatch(new RegExp(`^${ORIGIN}/review/${post.id}\\?`));

    const page = await open(link.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'none'");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = page.body as string;
    expect(html).toContain("First of the thread");
    expect(html).toContain("Reply 1 in the thread");
    expect(html).toContain("LinkedIn");
    expect(html).toContain('name="decision" value="approve"');
    expect(html).toContain('name="decision" value="reject"');
    expect(html).toContain('name="note"');
    const csrf = csrfOf(html)!;

    const done = await decide(link.url, { csrf, decision: "approve", note: "Fine by us" });
    expect(done.status).toBe(200);
    expect(done.body).toContain("Approved");
    const got = await call("GET", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(got.body.status).toBe("SCHEDULED");
    expect((await reviewsOf(t, post.id)).at(-1)).toMatchObject({
      action: "approved",
      version: 1,
      note: "Fine by us",
      by: { type: "link", name: "Client: Acme" },
    });

    // Used again: nothing to decide, nothing changes.
    const again = await decide(link.url, { csrf, decision: "reject" });
    expect(again.status).toBe(409);
    expect((await open(link.url)).status).toBe(409);
    expect((await call("GET", `/api/v1/posts/${post.id}`, { key: t.key })).body.status).toBe("SCHEDULED");
    expect((await reviewsOf(t, post.id)).filter((r) => r.action !== "submitted")).toHaveLength(1);
  });

  it("rejects with the note; the label defaults to `review link`", async () => {
    const t = await requiredTenant();
    const post = await pendingPost(t);
    const link = await linkFor(t, post.id);
    const csrf = csrfOf((await open(link.url)).body)!;
    const res = await decide(link.url, { csrf, decision: "reject", note: "Typo in line 1" });
    expect(res.status).toBe(200);
    expect((await call("GET", `/api/v1/posts/${post.id}`, { key: t.key })).body.status).toBe("DRAFT");
    expect((await reviewsOf(t, post.id)).at(-1)).toMatchObject({
      action: "rejected",
      note: "Typo in line 1",
      by: { type: "link", name: "review link" },
    });
  });

  it("a link for an older version says the post changed and decides nothing", async () => {
    const t = await requiredTenant();
    const post = await pendingPost(t);
    const link = await linkFor(t, post.id);
    const csrf = csrfOf((await open(link.url)).body)!;
    await call("PUT", `/api/v1/posts/${post.id}`, { key: t.key, body: { content: [{ text: "v2" }] } });
    const page = await open(link.url);
    expect(page.status).toBe(409);
    expect(page.body).toContain("changed since the link was made");
    expect((await decide(link.url, { csrf, decision: "approve" })).status).toBe(409);
    const got = await call("GET", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(got.body).toMatchObject({ status: "PENDING_APPROVAL", version: 2 });
  });

  it("an expired link is a 410 page, a tampered one a 403, and neither decides", async () => {
    const t = await requiredTenant();
    const post = await pendingPost(t);
    const expired = await signReviewLink(env, ORIGIN, {
      postId: post.id,
      version: 1,
      expires: Math.floor(Date.now() / 1000) - 1,
      label: null,
    });
    expect((await open(expired)).status).toBe(410);
    expect((await decide(expired, { csrf: "0".repeat(64), decision: "approve" })).status).toBe(410);

    const link = await linkFor(t, post.id);
    const csrf = csrfOf((await open(link.url)).body)!;
    const u = new URL(link.url);
    const tampered = [
      new URL(link.url),
      new URL(link.url),
      new URL(link.url),
      new URL(`${ORIGIN}/review/${post.id + 1}${u.search}`),
    ];
    tampered[0]!.searchParams.set("v", "2");
    tampered[1]!.searchParams.set("exp", String(Number(u.searchParams.get("exp")) + 3600));
    // The signature's last digit changed (to another digit: one in sixteen already ends in 0).
    const sig = u.searchParams.get("sig")!;
    tampered[2]!.searchParams.set("sig", `${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}`);
    for (const url of tampered) {
      expect((await open(url.toString())).status).toBe(403);
      expect((await decide(url.toString(), { csrf, decision: "approve" })).status).toBe(403);
    }
    expect((await call("GET", `/api/v1/posts/${post.id}`, { key: t.key })).body.status).toBe(
      "PENDING_APPROVAL",
    );
  });

  it("the form needs its csrf token and this origin", async () => {
    const t = await requiredTenant();
    const post = await pendingPost(t);
    const link = await linkFor(t, post.id);
    const csrf = csrfOf((await open(link.url)).body)!;
    expect((await decide(link.url, { decision: "approve" })).status).toBe(403);
    expect((await decide(link.url, { csrf: "f".repeat(64), decision: "approve" })).status).toBe(403);
    expect((await decide(link.url, { csrf, decision: "approve" }, "https://evil.example")).status).toBe(403);
    expect((await decide(link.url, { csrf, decision: "approve" }, null)).status).toBe(403);
    expect((await call("GET", `/api/v1/posts/${post.id}`, { key: t.key })).body.status).toBe(
      "PENDING_APPROVAL",
    );
  });

  it("only for a waiting post (422), within 30 days (422), and never another tenant's (404)", async () => {
    const t = await requiredTenant();
    const draft = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: { workspace_id: t.workspace.id, accounts: [t.accounts[0]!.id], content: [{ text: "d" }] },
    });
    const notWaiting = await call("POST", `/api/v1/posts/${draft.body.id}/review-links`, {
      key: t.key,
      body: {},
    });
    expect(notWaiting.status).toBe(422);
    const post = await pendingPost(t, { scheduled_at: inMinutes(30) });
    const tooLong = await call("POST", `/api/v1/posts/${post.id}/review-links`, {
      key: t.key,
      body: { expires_in: 31 * 24 * 3600 },
    });
    expect(tooLong.status).toBe(422);
    const other = await requiredTenant();
    const foreign = await call("POST", `/api/v1/posts/${post.id}/review-links`, { key: other.key, body: {} });
    expect(foreign.status).toBe(404);
    const agent = await createKey(t.user.id, ["posts"]);
    const refused = await call("POST", `/api/v1/posts/${post.id}/review-links`, { key: agent.key, body: {} });
    expect(refused.status).toBe(403);
  });
});
