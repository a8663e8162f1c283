// The console's comments page on the X sandbox: the inbox (the REST list's filters and cursor), the
// account's reply published once even when its form is sent twice, hide/unhide, delete, the REST 422's
// sentence for an action X refuses, and another user's comment absent from the page and its actions 404.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliver as deliverSync } from "../analytics/queue";
import { adapterFor, type Connected, connected, follow, published } from "../sandbox/support";
import { call } from "../support/client";
import { signedIn } from "./support";

/** A published X post with a follower's comment on it, synced into the inbox; the owner signed in. */
async function commented(text = `When is the next one? ${crypto.randomUUID().slice(0, 8)}`) {
  const account = await connected("twitter");
  const { rows } = await published(account, {
    content: [{ text: `Ask me anything ${crypto.randomUUID()}` }],
  });
  const row = rows[0]!;
  const fan = await follow("twitter", account.handle, {
    post_id: row.platform_post_id!,
    text,
    author: { name: "Fan One", username: "fan_one" },
  });
  expect(fan.status).toBe(201);
  expect((await deliverSync([row.id])).retryMessages).toEqual([]);
  const listed = await call("GET", `/api/v1/comments?account_id=${account.accountId}`, { key: account.key });
  const comment = listed.body.data.find(
    (c: { platform_comment_id: string }) => c.platform_comment_id === fan.body.id,
  );
  const browser = await signedIn(await userOf(account));
  return { account, row, comment: comment as { id: number; platform_comment_id: string }, text, browser };
}

const userOf = async (account: Connected) =>
  (await env.DB.prepare("SELECT user_id FROM workspace_members WHERE workspace_id = ?")
    .bind(account.workspace.id)
    .first<{ user_id: number }>())!.user_id;

/** The reply form's fields of a comment on the page: its csrf and its one-time key. */
function replyForm(html: string, id: number) {
  const start = html.indexOf(`action="/console/comments/${id}/reply"`);
  expect(start, html).toBeGreaterThan(-1);
  const form = html.slice(start, html.indexOf("</form>", start));
  return {
    csrf: /name="csrf" value="([0-9a-f]{64})"/.exec(form)![1]!,
    reply_key: /name="reply_key" value="([A-Za-z0-9_-]{22})"/.exec(form)![1]!,
  };
}

/** The post's replies as X's conversation search answers them, through the real adapter. */
async function onX(account: Connected, postId: string) {
  const { adapter, auth } = await adapterFor("twitter", account);
  return adapter.comments!(auth, postId);
}

describe("the comments page", () => {
  it("lists the user's comments with their post, account and state, filters as the REST list, and not another user's", async () => {
    const mine = await commented();
    const theirs = await commented();
    const page = await mine.browser.get("/console/comments");
    expect(page.status).toBe(200);
    expect(page.html).toContain('aria-current="page">Comments</a>');
    expect(page.html).toContain(mine.text);
    expect(page.html).toContain("Fan One (@fan_one)");
    expect(page.html).toContain(`@${mine.account.handle}`);
    expect(page.html).toContain("visible");
    expect(page.html).toContain(`aria-label="Hide comment #${mine.comment.id}"`);
    // X lets an account delete only its own posts: no delete button on a follower's comment.
    expect(page.html).not.toContain(`Delete comment #${mine.comment.id}`);
    expect(page.html).toMatch(/<a href="https?:\/\/[^"]+" class="url">post #\d+<\/a>/);
    expect(page.html).not.toContain(theirs.text);
    expect(page.html).not.toContain(`comment-${theirs.comment.id}"`);
    for (const [query, shown] of [
      ["?platform=twitter&hidden=&replied=false", true],
      ["?platform=linkedin", false],
      ["?hidden=true", false],
      [`?account_id=${theirs.account.accountId}`, false],
      ["?since=2999-01-01", false],
    ] as const) {
      const filtered = await mine.browser.get(`/console/comments${query}`);
      expect(filtered.status, query).toBe(200);
      expect(filtered.html.includes(mine.text), query).toBe(shown);
    }
    const bad = await mine.browser.get("/console/comments?hidden=maybe&colour=blue");
    expect(bad.status).toBe(422);
    expect(bad.html).toContain("The hidden field must be true or false.");
  });

  it("pages by the REST list's cursor", async () => {
    // The sandbox's sync brings a few comments of its own besides the follower's.
    const { browser } = await commented();
    const ids = (html: string) => [...html.matchAll(/ id="comment-(\d+)"/g)].map((m) => Number(m[1]));
    const first = await browser.get("/console/comments?per_page=1");
    const next = /<a href="(\/console\/comments\?[^"]*cursor=[^"]+)">Next page<\/a>/.exec(first.html);
    expect(next, first.html).not.toBeNull();
    expect(next![1]).toContain("per_page=1");
    const second = await browser.get(next![1]!.replaceAll("&amp;", "&"));
    expect(second.status).toBe(200);
    expect(ids(first.html)).toHaveLength(1);
    expect(ids(second.html)).toHaveLength(1);
    expect(ids(second.html)[0]).toBeLessThan(ids(first.html)[0]!);
    expect(second.html).toContain('<a href="/console/comments">First page</a>');
  });

  it("publishes a reply once when its form is sent twice, and shows it under its comment", async () => {
    const { account, row, comment, browser } = await commented();
    const form = replyForm((await browser.get("/console/comments")).html, comment.id);
    const path = `/console/comments/${comment.id}/reply`;
    const first = await browser.post(path, { ...form, text: "Next week!" });
    const again = await browser.post(path, { ...form, text: "Next week!" });
    expect([first.status, again.status]).toEqual([303, 303]);
    expect(first.headers.get("location")).toBe(`/console/comments#comment-${comment.id}`);
    const read = await onX(account, row.platform_post_id!);
    expect(read.filter((c) => c.content === "Next week!")).toHaveLength(1);
    // The same key with another text is not another reply either.
    const other = await browser.post(path, { ...form, text: "Another one" });
    expect(other.status).toBe(422);
    expect((await onX(account, row.platform_post_id!)).some((c) => c.content === "Another one")).toBe(false);
    // A new form (a new key) is a new reply.
    const fresh = replyForm((await browser.get("/console/comments")).html, comment.id);
    expect(fresh.reply_key).not.toBe(form.reply_key);
    const page = await browser.get("/console/comments");
    const replies = page.html.slice(page.html.indexOf(`aria-label="Replies to comment #${comment.id}"`));
    expect(replies).toContain("Your account&#39;s reply");
    expect(replies).toContain("Next week!");
    expect(page.html).toContain("replied");
    // Empty text is a 422 page; a reply form without csrf changes nothing.
    expect((await browser.post(path, { ...fresh, text: "" })).status).toBe(422);
    const { csrf: _, ...noCsrf } = fresh;
    expect((await browser.post(path, { ...noCsrf, text: "No csrf" })).status).toBe(403);
    expect((await onX(account, row.platform_post_id!)).some((c) => c.content === "No csrf")).toBe(false);
  });

  it("hides and shows a comment again, deletes the account's reply, and shows the REST 422 for what X refuses", async () => {
    const { account, comment, browser } = await commented();
    const csrf = await browser.csrf("/console/comments");
    expect((await browser.post(`/console/comments/${comment.id}/hide`, { csrf })).status).toBe(303);
    let page = await browser.get("/console/comments?hidden=true");
    expect(page.html).toContain(`aria-label="Unhide comment #${comment.id}"`);
    expect((await browser.post(`/console/comments/${comment.id}/unhide`, { csrf })).status).toBe(303);
    page = await browser.get("/console/comments?hidden=false");
    expect(page.html).toContain(`aria-label="Hide comment #${comment.id}"`);
    // A forced delete of a follower's comment: the REST route's sentence, as a page.
    const rest = await call("DELETE", `/api/v1/comments/${comment.id}`, { key: account.key });
    expect(rest.status).toBe(422);
    const refused = await browser.post(`/console/comments/${comment.id}/delete`, { csrf });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain("X (Twitter) lets an account delete only its own posts.");
    // The account's own reply offers delete (in a <details>), and goes.
    const answered = await call("POST", `/api/v1/comments/${comment.id}/replies`, {
      key: account.key,
      body: { text: "Mine to delete" },
    });
    page = await browser.get("/console/comments");
    expect(page.html).toContain(`<summary>Delete comment #${answered.body.id}</summary>`);
    expect((await browser.post(`/console/comments/${answered.body.id}/delete`, { csrf })).status).toBe(303);
    page = await browser.get("/console/comments");
    expect(page.html).not.toContain("Mine to delete");
  });

  it("answers another user's comment as an absent one on every action, and changes nothing", async () => {
    const { account, row, comment } = await commented();
    const other = await commented();
    const csrf = await other.browser.csrf("/console/comments");
    const absent = await other.browser.post("/console/comments/999999999999/hide", { csrf });
    expect(absent.status).toBe(404);
    const key = "A".repeat(22);
    for (const action of ["reply", "hide", "unhide", "delete"]) {
      const form: Record<string, string> =
        action === "reply" ? { csrf, reply_key: key, text: "Not yours" } : { csrf };
      const foreign = await other.browser.post(`/console/comments/${comment.id}/${action}`, form);
      expect(foreign.status, action).toBe(404);
      expect(foreign.html, action).toBe(absent.html);
    }
    expect((await other.browser.post("/console/comments/abc/hide", { csrf })).status).toBe(404);
    expect((await onX(account, row.platform_post_id!)).some((c) => c.content === "Not yours")).toBe(false);
  });
});
