// Issue 10, item 3 (posts) and item 9 (lone surrogates): a post could hold 25 items × 63,206
// characters, and 40 such posts made one list answer 63 MB; text is now checked against each target
// platform's documented maximum, a post's total text is capped, and text must be well-formed Unicode.
import { describe, expect, it } from "vitest";
import { PLATFORM_TEXT_LIMITS } from "../../src/platforms/catalog";
import { MAX_POST_TEXT } from "../../src/posts/limits";
import { call } from "../support/client";
import { createAccount, createPost, createTenant } from "../support/seed";

const create = (t: Awaited<ReturnType<typeof createTenant>>, body: Record<string, unknown>) =>
  call("POST", "/api/v1/posts", { key: t.key, body: { workspace_id: t.workspace.id, ...body } });

describe("post text limits", () => {
  it("refuses text over a target platform's maximum with a 422 naming the platform", async () => {
    const t = await createTenant(); // a twitter and a linkedin account
    const res = await create(t, {
      accounts: t.accounts.map((a) => a.id),
      content: [{ text: "x".repeat(PLATFORM_TEXT_LIMITS.twitter + 1) }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      "content.0.text": [
        `The content.0.text field must not be greater than ${PLATFORM_TEXT_LIMITS.twitter} characters on twitter.`,
      ],
    });
    const fits = await create(t, {
      accounts: [t.accounts[1]!.id],
      content: [{ text: "x".repeat(PLATFORM_TEXT_LIMITS.twitter + 1) }],
    });
    expect(fits.status).toBe(201);
  });

  it("counts characters as people do (code points, not UTF-16 units)", async () => {
    const t = await createTenant();
    const emoji = "🚀".repeat(PLATFORM_TEXT_LIMITS.twitter);
    const res = await create(t, { accounts: [t.accounts[0]!.id], content: [{ text: emoji }] });
    expect(res.status).toBe(201);
  });

  it("checks stored text against new accounts on update", async () => {
    const t = await createTenant();
    const post = await createPost(t, {
      accounts: [t.accounts[1]!.id],
      content: [{ text: "y".repeat(1000) }],
    });
    const res = await call("PUT", `/api/v1/posts/${post.id}`, {
      key: t.key,
      body: { accounts: [t.accounts[0]!.id] },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["content.0.text"]);
  });

  it(`caps a post's total text at ${MAX_POST_TEXT} characters, whatever its platforms`, async () => {
    const t = await createTenant();
    const facebook = await createAccount(t.workspace.id, "facebook");
    // Each item far below Facebook's maximum, together just over the cap.
    const each = Math.ceil((MAX_POST_TEXT + 1) / 25);
    const res = await create(t, {
      accounts: [facebook.id],
      content: Array.from({ length: 25 }, () => ({ text: "z".repeat(each) })),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.content).toEqual([
      `The content field must not hold more than ${MAX_POST_TEXT} characters of text in all.`,
    ]);
    // 25 items at Facebook's maximum are 1.5 MB: over the JSON body cap, refused before they are read.
    const huge = await create(t, {
      accounts: [facebook.id],
      content: Array.from({ length: 25 }, () => ({ text: "z".repeat(PLATFORM_TEXT_LIMITS.facebook) })),
    });
    expect(huge.status).toBe(413);
  });

  it("refuses text with lone surrogates", async () => {
    const t = await createTenant();
    const res = await create(t, { accounts: [t.accounts[1]!.id], content: [{ text: "bad \ud800 text" }] });
    expect(res.status).toBe(422);
    expect(res.body.errors["content.0.text"]).toEqual([
      "The content.0.text field must be valid Unicode text.",
    ]);
  });
});

describe("comments in answers", () => {
  it("shows each post's newest 100 comments, so a page stays bounded", async () => {
    const { env } = await import("cloudflare:workers");
    const t = await createTenant();
    const post = await createPost(t, { content: [{ text: "popular" }] });
    const statements = Array.from({ length: 130 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO comments (workspace_id, account_id, post_id, platform, platform_comment_id, content, author_name, received_at) VALUES (?, ?, ?, 'twitter', ?, ?, 'A', 0)",
      ).bind(t.workspace.id, t.accounts[0]!.id, post.id, `c${i}`, `comment ${i}`),
    );
    await env.DB.batch(statements.slice(0, 65));
    await env.DB.batch(statements.slice(65));
    const one = await call("GET", `/api/v1/posts/${post.id}?include_comments=true`, { key: t.key });
    expect(one.body.comments).toHaveLength(100);
    expect(one.body.comments[0].content).toBe("comment 30");
    expect(one.body.comments.at(-1).content).toBe("comment 129");
    const list = await call("GET", "/api/v1/posts?include_comments=true", { key: t.key });
    expect(list.body.data.find((p: { id: number }) => p.id === post.id).comments).toHaveLength(100);
  });
});
