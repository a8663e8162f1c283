// Facebook Pages end to end on the sandbox's emulator of the Graph API: the real adapter
// (src/platforms/facebook/) connects, publishes, reconciles, reads insights and comments and replies,
// every call answered by src/sandbox/facebook/ on Facebook's own paths and in its own shapes; what was
// uploaded is kept between attempts, and a lost final answer is reconciled by what was recorded; the
// facts the emulator states from Meta's pages (appsecret_proof, ids that grow with time, a photo's
// link, a reel's plays, a story's 24 h) checked against the adapter's reading of the same pages.
// Nothing here moves a clock or replaces the global fetch: it runs in the shared runtime.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decryptSecret } from "../../src/lib/crypto";
import { facebook } from "../../src/platforms/facebook/index";
import { publishingAdapter } from "../../src/platforms/index";
import { appSecretProof as adapterProof } from "../../src/platforms/meta";
import { sandboxPlatformId } from "../../src/sandbox/emulators";
import { freshId } from "../../src/sandbox/facebook/rules";
import { appSecretProof as emulatorProof } from "../../src/sandbox/facebook/token";
import { runFlow } from "../delegation/support";
import { deliver, handleOf, publishingPost, rowsOf } from "../publishing/support";
import { call } from "../support/client";
import { insertMedia } from "../support/db";
import { hmacHex } from "../support/hmac";
import { createAccount, createTenant } from "../support/seed";
import { emulatedDeps } from "./support";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** A tenant whose first account is a Facebook Page the operator created (no stored token). */
async function pageTenant() {
  const t = await createTenant();
  const page = await createAccount(t.workspace.id, "facebook");
  return { ...t, accounts: [page, ...t.accounts] } as Tenant;
}

type SandboxPost = {
  id: string;
  text: string[];
  media: Array<{ item: number; url: string; type: string }>;
  replies: Array<{ id: string; text: string }>;
  platform_request: unknown;
};

async function postsOf(handle: string): Promise<SandboxPost[]> {
  const res = await call("GET", `/sandbox/facebook/accounts/${encodeURIComponent(handle)}/posts`);
  expect(res.status).toBe(200);
  return res.body.data;
}
const statsOf = async (handle: string) =>
  (await call("GET", `/sandbox/facebook/accounts/${encodeURIComponent(handle)}/stats`)).body;

/** A POST with a form body, as the Graph API is called. */
const formCall = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  call("POST", path, {
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
    rawBody: new URLSearchParams(fields).toString(),
  });

const accountRow = (id: number) =>
  env.DB.prepare("SELECT * FROM accounts WHERE id = ?").bind(id).first<Record<string, any>>();

/** Publishes a post on the tenant's Facebook Page by one delivery; its row and the Page's posts. */
async function publish(t: Tenant, content: unknown[], settings?: unknown) {
  const id = await publishingPost(t, {
    content,
    ...(settings ? { settings: { facebook: settings } } : {}),
  });
  const result = await deliver([{ post_id: id }]);
  const handle = await handleOf(t.accounts[0]!.id);
  return { id, result, row: (await rowsOf(id))[0]!, handle, posts: await postsOf(handle) };
}

describe("Facebook on the Graph API emulator", () => {
  it("connects: consent, code exchange, long-lived token, the Page chooser; the Page's own token is stored", async () => {
    const t = await createTenant();
    const start = await call("POST", "/api/v1/accounts/connect", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        platform: "facebook",
        redirect_url: "https://app.example.test/done",
      },
    });
    expect(start.status).toBe(201);
    const flow = await runFlow(start.body.authorize_url, {
      handle: "fbconnect",
      channel: (labels) => labels.indexOf("fbconnect's Shop"),
    });
    // The consent is on Facebook's own dialog path.
    expect(new URL(flow.steps.authorize.headers.get("location")!).pathname).toBe(
      "/sandbox/facebook/v25.0/dialog/oauth",
    );
    expect(flow.landed.searchParams.get("status")).toBe("connected");
    const row = await accountRow(Number(flow.landed.searchParams.get("account_id")));
    expect(row).toMatchObject({
      username: "fbconnect-shop",
      name: "fbconnect's Shop",
      platform_user_id: await sandboxPlatformId("facebook", "fbconnect-shop"),
    });
    // The stored token is the Page's: /me answers the Page.
    const token = await decryptSecret(env.ENCRYPTION_KEY, row!.access_token_enc);
    const me = await call("GET", "/sandbox/facebook/v25.0/me?fields=id,name", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.body).toEqual({ id: row!.platform_user_id, name: "fbconnect's Shop" });

    // It publishes as that Page.
    const id = await publishingPost(t, { accounts: [row!.id], content: [{ text: "From the shop" }] });
    await deliver([{ post_id: id }]);
    const [published] = await postsOf("fbconnect-shop");
    expect(published!.text).toEqual(["From the shop"]);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: published!.id });

    // Removing the app (DELETE /me/permissions is the user's; the sandbox's revoke does the same):
    // the Page token stops working the way Facebook refuses it, and the next post fails for good.
    expect((await call("POST", "/sandbox/facebook/accounts/fbconnect/revoke")).status).toBe(200);
    const refused = await call("GET", "/sandbox/facebook/v25.0/me", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: "OAuthException", code: 190, error_subcode: 458 });
    const after = await publishingPost(t, { accounts: [row!.id], content: [{ text: "After revoke" }] });
    const result = await deliver([{ post_id: after }]);
    expect(result).toMatchObject({ acks: 1, retries: 0 });
    expect((await rowsOf(after))[0]).toMatchObject({ status: "FAILED", error: { code: "account_expired" } });
    expect(await postsOf("fbconnect-shop")).toHaveLength(1);
    // Facebook's refusal is for good and a Page token has nothing to refresh with: only a reconnect helps.
    const account = await call("GET", `/api/v1/accounts/${row!.id}`, { key: t.key });
    expect(account.body).toMatchObject({
      has_expired: true,
      health: { status: "reauth_required", last_error: { code: "token_rejected" } },
    });
  });

  it("the long-lived exchange refuses a bad token and a wrong app secret in Meta's format", async () => {
    const form = (fields: Record<string, string>) =>
      formCall("/sandbox/facebook/v25.0/oauth/access_token", fields);
    const bad = await form({
      grant_type: "fb_exchange_token",
      client_id: "sandbox-facebook-client",
      client_secret: "sandbox-facebook-secret",
      fb_exchange_token: "forged",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: "OAuthException", code: 190 });
    expect(bad.body.error.fbtrace_id).toEqual(expect.any(String));
    const secret = await form({
      grant_type: "fb_exchange_token",
      client_id: "sandbox-facebook-client",
      client_secret: "wrong",
      fb_exchange_token: "forged",
    });
    expect(secret.body.error).toMatchObject({ code: 1, message: "Error validating client secret." });
  });

  it("publishes a text post with a link: one POST /{page}/feed in Facebook's field names, one publication", async () => {
    const t = await pageTenant();
    const { row, handle, posts } = await publish(t, [{ text: "Hello Page" }], {
      link: "https://example.com/article",
    });
    expect(posts).toHaveLength(1);
    const pageId = await sandboxPlatformId("facebook", handle);
    expect(posts[0]!.id).toMatch(new RegExp(`^${pageId}_\\d+$`));
    expect(posts[0]!.platform_request).toEqual({
      message: "Hello Page",
      link: "https://example.com/article",
    });
    expect(row).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: posts[0]!.id,
      post_url: `https://api.example.test/sandbox/facebook/posts/${posts[0]!.id}`,
    });
    expect(await statsOf(handle)).toMatchObject({ publications: 1, media_uploads: 0 });
  });

  it("publishes one photo by url, several photos as attached_media, and a video on the graph host", async () => {
    const t = await pageTenant();
    const photo = await insertMedia(t.workspace.id, { mime_type: "image/png" });
    const second = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const clip = await insertMedia(t.workspace.id, { mime_type: "video/mp4", type: "video" });

    const one = await publish(t, [{ text: "One photo", media: [photo] }]);
    expect(one.row.status).toBe("PUBLISHED");
    const single = one.posts[0]!;
    expect(Object.keys(single.platform_request as object).sort()).toEqual(["message", "url"]);
    expect((single.platform_request as { url: string }).url).toContain(`/media/${photo}`);

    const album = await publish(t, [{ text: "Two photos", media: [photo, second] }]);
    expect(album.row.status).toBe("PUBLISHED");
    const multi = album.posts[1]!;
    expect(multi.text).toEqual(["Two photos"]);
    expect(multi.media).toHaveLength(2);
    const request = multi.platform_request as {
      message: string;
      attached_media: Array<{ media_fbid: string }>;
    };
    expect(request.message).toBe("Two photos");
    expect(request.attached_media).toHaveLength(2);

    const video = await publish(t, [{ text: "A clip", media: [clip] }]);
    expect(video.row.status).toBe("PUBLISHED");
    const clipPost = video.posts[2]!;
    expect(clipPost.id).toMatch(/^\d+$/);
    expect(Object.keys(clipPost.platform_request as object).sort()).toEqual(["description", "file_url"]);
    // Three publications; uploads: one published photo, two unpublished ones, one video.
    expect(await statsOf(one.handle)).toMatchObject({ publications: 3, media_uploads: 4 });
  });

  it("publishes a thread as the Page's comments under its post", async () => {
    const t = await pageTenant();
    const { row, posts } = await publish(t, [{ text: "Main" }, { text: "First comment" }]);
    expect(row.status).toBe("PUBLISHED");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.replies.map((r) => r.text)).toEqual(["First comment"]);
    expect(posts[0]!.replies[0]!.id).toMatch(/^\d+_\d+$/);
  });

  it("refuses an unsupported node the Graph API's way, and a user token posting as the Page with #200", async () => {
    const t = await pageTenant();
    const handle = await handleOf(t.accounts[0]!.id);
    const { mintToken } = await import("../../src/sandbox/mint");
    const token = await mintToken(env, "facebook", handle);
    const stranger = await formCall(
      "/sandbox/facebook/v25.0/123/feed",
      { message: "hi" },
      { authorization: `Bearer ${token}` },
    );
    expect(stranger.status).toBe(400);
    expect(stranger.body.error).toMatchObject({ code: 100, error_subcode: 33, type: "GraphMethodException" });
    const owner = await mintToken(env, "facebook", "someone");
    const pageId = await sandboxPlatformId("facebook", "someone-page");
    const asUser = await formCall(
      `/sandbox/facebook/v25.0/${pageId}/feed`,
      { message: "hi" },
      { authorization: `Bearer ${owner}` },
    );
    expect(asUser.body.error).toMatchObject({ code: 200 });
    const empty = await formCall(
      `/sandbox/facebook/v25.0/${await sandboxPlatformId("facebook", handle)}/feed`,
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(empty.body.error).toMatchObject({ code: 100, message: "(#100) Missing message or attachment." });
  });

  it("#sandbox-fail: FAILED with Facebook's code 368 message, nothing published", async () => {
    const t = await pageTenant();
    const { result, row, posts } = await publish(t, [{ text: "Bad #sandbox-fail" }]);
    expect(result).toMatchObject({ acks: 1, retries: 0 });
    expect(row).toMatchObject({
      status: "FAILED",
      error: { code: "policy_blocked", message: expect.stringContaining("#sandbox-fail") },
    });
    expect(posts).toEqual([]);
  });

  it("#sandbox-ratelimit: code 32 with the usage headers; retried after their minute, then published", async () => {
    const t = await pageTenant();
    const handle = await handleOf(t.accounts[0]!.id);
    const pageId = await sandboxPlatformId("facebook", handle);
    const { mintToken } = await import("../../src/sandbox/mint");
    const token = await mintToken(env, "facebook", handle);
    const direct = await formCall(
      `/sandbox/facebook/v25.0/${pageId}/feed`,
      { message: "Direct #sandbox-ratelimit" },
      { authorization: `Bearer ${token}` },
    );
    expect(direct.body.error).toMatchObject({ code: 32 });
    const usage = JSON.parse(direct.headers.get("x-business-use-case-usage")!);
    expect(usage[pageId][0]).toMatchObject({ type: "pages", estimated_time_to_regain_access: 1 });

    const id = await publishingPost(t, { content: [{ text: "Busy #sandbox-ratelimit" }] });
    expect(await deliver([{ post_id: id }])).toMatchObject({ retries: 1, delays: [60] });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING", error: { code: "rate_limited" } });
    await deliver([{ post_id: id }], { attempts: 2 });
    expect((await rowsOf(id))[0]!.status).toBe("PUBLISHED");
    expect((await postsOf(handle)).filter((p) => p.text[0] === "Busy #sandbox-ratelimit")).toHaveLength(1);
  });

  it("#sandbox-lost: the lost answer is found in /{page}/posts, published exactly once", async () => {
    const t = await pageTenant();
    const id = await publishingPost(t, { content: [{ text: "Where did it go #sandbox-lost" }] });
    expect((await deliver([{ post_id: id }])).retries).toBe(1);
    await deliver([{ post_id: id }], { attempts: 2 });
    const handle = await handleOf(t.accounts[0]!.id);
    const posts = await postsOf(handle);
    expect(posts).toHaveLength(1);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: posts[0]!.id });
    expect(await statsOf(handle)).toMatchObject({ publications: 1 });
  });

  it("insights, comments and a reply through the adapter, in Facebook's metric names on the wire", async () => {
    const t = await pageTenant();
    const { row, handle } = await publish(t, [{ text: "Measure me" }]);
    const postId = row.platform_post_id!;
    const adapter = publishingAdapter(env, "facebook", "live");
    const account = { handle, platformUserId: null, accessToken: null };
    const metrics = (await adapter.insights(account, postId))!;
    expect(metrics.impressions).toBeGreaterThan(0);

    const { mintToken } = await import("../../src/sandbox/mint");
    const token = await mintToken(env, "facebook", handle);
    const auth = { authorization: `Bearer ${token}` };
    const wire = await call(
      "GET",
      `/sandbox/facebook/v25.0/${postId}/insights?metric=post_media_view,post_reactions_by_type_total&period=lifetime`,
      { headers: auth },
    );
    expect(wire.body.data.map((m: { name: string }) => m.name)).toEqual([
      "post_media_view",
      "post_reactions_by_type_total",
    ]);
    expect(wire.body.data[0].values[0].value).toBe(metrics.impressions);
    const reactions = wire.body.data[1].values[0].value as Record<string, number>;
    expect(Object.values(reactions).reduce((a, b) => a + b, 0)).toBe(metrics.likes);
    // A retired metric is refused as Facebook refuses it.
    const retired = await call("GET", `/sandbox/facebook/v25.0/${postId}/insights?metric=post_impressions`, {
      headers: auth,
    });
    expect(retired.body.error).toMatchObject({
      code: 100,
      message: "(#100) The value must be a valid insights metric",
    });
    // Insights only to the Page's own tokens.
    const other = await mintToken(env, "facebook", "another-page");
    const foreign = await call("GET", `/sandbox/facebook/v25.0/${postId}/insights?metric=post_media_view`, {
      headers: { authorization: `Bearer ${other}` },
    });
    expect(foreign.body.error).toMatchObject({ code: 10 });

    const comments = await adapter.comments!(account, postId);
    expect(comments.length).toBe(metrics.comments);
    expect(comments[0]!.content.length).toBeGreaterThan(0);

    const reply = await adapter.reply!(account, postId, "Thanks all", "fp-reply");
    expect(reply.id).toMatch(/^\d+_\d+$/);
    const [post] = await postsOf(handle);
    expect(post!.replies.map((r) => r.text)).toEqual(["Thanks all"]);
    const found = await adapter.find(account, {
      text: "Thanks all",
      replyTo: postId,
      fingerprint: "fp-reply",
    });
    expect(found?.id).toBe(reply.id);
    // The Page's comment is listed among the post's comments, and counted.
    const after = await adapter.comments!(account, postId);
    expect(after.map((c) => c.content)).toContain("Thanks all");
    expect(after.length).toBe(comments.length + 1);
  });

  it("a follower's comment and reply (the follower tool) read back with parent, permalink, author and hidden", async () => {
    const t = await pageTenant();
    const { row, handle } = await publish(t, [{ text: "Talk to me" }]);
    const postId = row.platform_post_id!;
    const adapter = publishingAdapter(env, "facebook", "live");
    const pageId = await sandboxPlatformId("facebook", handle);
    const account = { handle, platformUserId: pageId, accessToken: null };
    const tool = (body: Record<string, unknown>) =>
      call("POST", `/sandbox/facebook/accounts/${encodeURIComponent(handle)}/comments`, { body });
    const made = await tool({
      post_id: postId,
      text: "Love it",
      author: { name: "Fan One", username: "fan_one" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.id).toMatch(/^\d+_\d+$/);
    const answer = await tool({
      post_id: postId,
      text: "Me too",
      author: "fan_two",
      parent_id: made.body.id,
    });
    expect(answer.status).toBe(201);
    expect(answer.body.parent_id).toBe(made.body.id);
    expect((await tool({ post_id: "1_2", text: "x", author: "fan" })).status).toBe(404);
    expect((await tool({ post_id: postId, text: "x", author: "fan", parent_id: "1_2" })).status).toBe(404);
    await adapter.reply!(account, postId, "Thanks", "fp-own");

    const comments = await adapter.comments!(account, postId);
    const top = comments.find((c) => c.id === made.body.id)!;
    expect(top).toMatchObject({
      content: "Love it",
      author_name: "Fan One",
      parent_id: null,
      is_own: false,
      hidden: false,
      url: expect.stringContaining(`comment_id=${made.body.id}`),
      contact: { name: "Fan One", username: expect.any(String), profile_url: null },
    });
    expect(comments.find((c) => c.id === answer.body.id)).toMatchObject({
      content: "Me too",
      author_name: "fan_two",
      parent_id: made.body.id,
    });
    expect(comments.find((c) => c.content === "Thanks")).toMatchObject({ is_own: true });
    // The Graph API's default filter (toplevel) leaves the reply out.
    const token = await (await import("../../src/sandbox/mint")).mintToken(env, "facebook", handle);
    const toplevel = await call("GET", `/sandbox/facebook/v25.0/${postId}/comments?fields=id,parent`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const ids = toplevel.body.data.map((c: { id: string }) => c.id);
    expect(ids).toContain(made.body.id);
    expect(ids).not.toContain(answer.body.id);
  });

  it("the Page answers, hides, shows again and deletes a follower's comment through the adapter", async () => {
    const t = await pageTenant();
    const { row, handle } = await publish(t, [{ text: "Moderate me" }]);
    const postId = row.platform_post_id!;
    const adapter = publishingAdapter(env, "facebook", "live");
    const pageId = await sandboxPlatformId("facebook", handle);
    const account = { handle, platformUserId: pageId, accessToken: null };
    const made = await call("POST", `/sandbox/facebook/accounts/${encodeURIComponent(handle)}/comments`, {
      body: { post_id: postId, text: "Spam here", author: { name: "Fan One", username: "fan_one" } },
    });
    expect(made.status).toBe(201);
    const ref = { id: made.body.id, postId, parentId: null, isOwn: false, hidden: false };

    // The reply sits under the comment and reads back as the Page's own, with its parent.
    const reply = await adapter.replyToComment!(account, ref, "We hear you");
    expect(reply).toMatchObject({ id: expect.stringMatching(/^\d+_\d+$/), url: expect.any(String) });
    const read = async () => adapter.comments!(account, postId);
    expect((await read()).find((c) => c.id === reply.id)).toMatchObject({
      content: "We hear you",
      parent_id: made.body.id,
      is_own: true,
      hidden: false,
    });

    await adapter.hideComment!(account, ref, true);
    expect((await read()).find((c) => c.id === made.body.id)?.hidden).toBe(true);
    await adapter.hideComment!(account, ref, false);
    expect((await read()).find((c) => c.id === made.body.id)?.hidden).toBe(false);

    // The Page's own comment is not hideable: the rule says why, and the emulator refuses it too.
    const own = { id: reply.id, postId, parentId: made.body.id, isOwn: true, hidden: false };
    expect(facebook.commentRules!("hide", own)).toMatch(/own comments/);
    expect(facebook.commentRules!("delete", own)).toBeNull();
    await expect(adapter.hideComment!(account, own, true)).rejects.toMatchObject({ kind: "permanent" });

    await adapter.deleteComment!(account, ref);
    await adapter.deleteComment!(account, own);
    const left = await read();
    expect(left.map((c) => c.id)).not.toContain(made.body.id);
    expect(left.map((c) => c.id)).not.toContain(reply.id);
    // Deleting again resolves (already gone); hiding a deleted comment is Facebook's unknown object.
    await adapter.deleteComment!(account, ref);
    await expect(adapter.hideComment!(account, ref, true)).rejects.toMatchObject({ kind: "permanent" });
    // Another Page's token cannot reach the comment: not found for it.
    const { mintToken } = await import("../../src/sandbox/mint");
    const other = await mintToken(env, "facebook", "another-page");
    const foreign = await call("DELETE", `/sandbox/facebook/v25.0/${made.body.id}`, {
      headers: { authorization: `Bearer ${other}` },
    });
    expect(foreign.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });
});

const sandbox = async (handle: string, what: "posts" | "stats") =>
  (await call("GET", `/sandbox/facebook/accounts/${encodeURIComponent(handle)}/${what}`)).body;

/** Delivers the post until its row is no longer PUBLISHING (a transient fault retries). */
async function deliveredUntilDone(postId: number) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    await deliver([{ post_id: postId }], { attempts: attempt });
    const [row] = await rowsOf(postId);
    if (row!.status !== "PUBLISHING") return { row: row!, attempts: attempt };
  }
  throw new Error("still publishing after 5 attempts");
}

describe("Facebook: what was uploaded is kept between attempts", () => {
  it("a multi-photo post whose feed post fails twice attaches the photos uploaded the first time", async () => {
    const t = await pageTenant();
    const a = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const b = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const id = await publishingPost(t, { content: [{ text: "Two views #sandbox-flaky", media: [a, b] }] });
    const done = await deliveredUntilDone(id);
    expect(done).toMatchObject({ row: { status: "PUBLISHED" }, attempts: 3 });
    const handle = await handleOf(t.accounts[0]!.id);
    const posts = await sandbox(handle, "posts");
    expect(posts.data).toHaveLength(1);
    expect(posts.data[0].media).toHaveLength(2);
    expect(await sandbox(handle, "stats")).toMatchObject({ publications: 1, media_uploads: 2 });
  });

  it("a reel whose finish fails twice finishes the upload session started the first time", async () => {
    const t = await pageTenant();
    const clip = await insertMedia(t.workspace.id, { mime_type: "video/mp4", type: "video" });
    const id = await publishingPost(t, {
      content: [{ text: "Reel #sandbox-flaky", media: [clip] }],
      settings: { facebook: { post_type: "reel" } },
    });
    const done = await deliveredUntilDone(id);
    expect(done).toMatchObject({ row: { status: "PUBLISHED" }, attempts: 3 });
    const handle = await handleOf(t.accounts[0]!.id);
    expect((await sandbox(handle, "posts")).data).toHaveLength(1);
    expect(await sandbox(handle, "stats")).toMatchObject({ publications: 1, media_uploads: 1 });
  });
});

const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : String(input));
const formOf = (init?: RequestInit) => new URLSearchParams(String(init?.body ?? ""));

/** Lets the request that `matches` reach Facebook, then loses its answer as a dropped connection would. */
const losingAnswerOf = (matches: (url: URL, form: URLSearchParams) => boolean) =>
  emulatedDeps({
    wrap: (inner) => async (input, init) => {
      const url = new URL(urlOf(input));
      if ((init?.method ?? "GET") !== "POST" || !matches(url, formOf(init))) return inner(input, init);
      await inner(input, init);
      throw new TypeError("Network connection lost.");
    },
  });

describe("Facebook: a lost final answer is reconciled by what was recorded", () => {
  it("a multi-photo post with no text whose feed post answer is lost is found by its photos, not mistaken for another", async () => {
    const t = await pageTenant();
    const a = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const b = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const id = await publishingPost(t, { content: [{ text: "", media: [a, b] }] });
    const lost = losingAnswerOf((url) => url.pathname.endsWith("/feed"));
    await deliver([{ post_id: id }], { attempts: 1, deps: lost });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING" });
    const handle = await handleOf(t.accounts[0]!.id);
    const [album] = (await sandbox(handle, "posts")).data;
    expect(album.media).toHaveLength(2);

    // Before the retry, another post with no text (a captionless photo) is published on the Page.
    const c = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const other = await publishingPost(t, { content: [{ text: "", media: [c] }] });
    await deliver([{ post_id: other }]);
    expect((await rowsOf(other))[0]).toMatchObject({ status: "PUBLISHED" });

    await deliver([{ post_id: id }], { attempts: 2 });
    const [row] = await rowsOf(id);
    const posts = (await sandbox(handle, "posts")).data;
    expect(posts).toHaveLength(2);
    expect(posts.filter((p: { media: unknown[] }) => p.media.length === 2)).toHaveLength(1);
    expect(row).toMatchObject({ status: "PUBLISHED", platform_post_id: album.id });
    expect(await sandbox(handle, "stats")).toMatchObject({ publications: 2, media_uploads: 3 });
  });

  it("a single photo with no caption whose post answer is lost is found by its recorded photo, published once", async () => {
    const t = await pageTenant();
    const a = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const id = await publishingPost(t, { content: [{ text: "", media: [a] }] });
    const lost = losingAnswerOf((url) => url.pathname.endsWith("/feed"));
    await deliver([{ post_id: id }], { attempts: 1, deps: lost });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING" });
    const handle = await handleOf(t.accounts[0]!.id);
    const [photo] = (await sandbox(handle, "posts")).data;

    // Before the retry, another captionless photo is published on the Page.
    const b = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const other = await publishingPost(t, { content: [{ text: "", media: [b] }] });
    await deliver([{ post_id: other }]);
    expect((await rowsOf(other))[0]).toMatchObject({ status: "PUBLISHED" });

    await deliver([{ post_id: id }], { attempts: 2 });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: photo.id });
    expect((await rowsOf(other))[0]!.platform_post_id).not.toBe(photo.id);
    expect((await sandbox(handle, "posts")).data).toHaveLength(2);
  });

  it("a reel whose finish answer is lost is found by its session's video id, not by a post of the same text", async () => {
    const t = await pageTenant();
    const clip = await insertMedia(t.workspace.id, { mime_type: "video/mp4", type: "video" });
    const id = await publishingPost(t, {
      content: [{ text: "Kneading, in 30 seconds", media: [clip] }],
      settings: { facebook: { post_type: "reel" } },
    });
    const lost = losingAnswerOf(
      (url, form) => url.pathname.endsWith("/video_reels") && form.get("upload_phase") === "finish",
    );
    await deliver([{ post_id: id }], { attempts: 1, deps: lost });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING" });
    const handle = await handleOf(t.accounts[0]!.id);
    const [reel] = (await sandbox(handle, "posts")).data;

    // Before the retry, a text post with the same words is published on the Page.
    const other = await publishingPost(t, { content: [{ text: "Kneading, in 30 seconds" }] });
    await deliver([{ post_id: other }]);
    expect((await rowsOf(other))[0]).toMatchObject({ status: "PUBLISHED" });

    await deliver([{ post_id: id }], { attempts: 2 });
    const [row] = await rowsOf(id);
    expect((await sandbox(handle, "posts")).data).toHaveLength(2);
    expect(row).toMatchObject({ status: "PUBLISHED", platform_post_id: reel.id });
    expect(await sandbox(handle, "stats")).toMatchObject({ publications: 2, media_uploads: 1 });
  });
});

describe("Facebook emulator: the facts it states from Meta's pages", () => {
  const adapter = () => publishingAdapter(env, "facebook", "live");
  const pageAccount = (handle: string) => ({ handle, platformUserId: null, accessToken: null });
  const bearerOf = async (handle: string) => {
    const { mintToken } = await import("../../src/sandbox/mint");
    return { authorization: `Bearer ${await mintToken(env, "facebook", handle)}` };
  };

  it("computes appsecret_proof as Securing Requests defines it: the adapter's value and the emulator's agree", async () => {
    for (const [secret, token] of [
      ["secret-456", "EAAB-page-token"],
      ["a long app secret with spaces", "EAAGm0PX4ZCpsBA"],
    ] as const) {
      const emulated = await emulatorProof(secret, token);
      expect(emulated).toBe(await hmacHex(secret, token));
      expect(await adapterProof(secret, token)).toBe(emulated);
    }
  });

  it("draws post ids that grow with the emulator's clock, as Facebook's do", async () => {
    expect(BigInt(freshId(1_700_000_000_001))).toBeGreaterThan(BigInt(freshId(1_700_000_000_000)));
    const t = await pageTenant();
    const before = Date.now();
    const first = await publish(t, [{ text: "First of two" }]);
    const second = await publish(t, [{ text: "Second of two" }]);
    const after = Date.now();
    const part = (id: string) => BigInt(id.split("_")[1]!);
    const [a, b] = [part(first.row.platform_post_id!), part(second.row.platform_post_id!)];
    expect(b).toBeGreaterThan(a);
    // The post id begins with the time it was made, in ms.
    expect(Number(a / 10_000n)).toBeGreaterThanOrEqual(before);
    expect(Number(b / 10_000n)).toBeLessThanOrEqual(after);
  });

  it("answers a photo's link (Graph API › Photo), whose page shows the post that published it", async () => {
    const t = await pageTenant();
    const photo = await insertMedia(t.workspace.id, { mime_type: "image/png" });
    const { row, handle } = await publish(t, [{ text: "Linked as a photo", media: [photo] }]);
    // The sandbox shows every post at its own page (src/platforms/sandbox/emulated.ts); the adapter reads
    // the photo's link (test/platforms/facebook/facebook.unit.test.ts), which the emulator answers.
    const photoId = row.platform_post_id!.split("_")[1]!;
    const read = await call("GET", `/sandbox/facebook/v25.0/${photoId}?fields=link`, {
      headers: await bearerOf(handle),
    });
    const link = `https://api.example.test/sandbox/facebook/posts/${photoId}`;
    expect(read.body).toEqual({ id: photoId, link });
    const page = await call("GET", new URL(link).pathname, { headers: { accept: "application/json" } });
    expect(page.body.id).toBe(row.platform_post_id);
  });

  it("answers a reel's plays as blue_reels_play_count (Reels insights), which the adapter reads as its views", async () => {
    const t = await pageTenant();
    const clip = await insertMedia(t.workspace.id, { mime_type: "video/mp4", type: "video" });
    const { row, handle } = await publish(t, [{ text: "Plays of a reel", media: [clip] }], {
      post_type: "reel",
    });
    const reelId = row.platform_post_id!;
    const headers = await bearerOf(handle);
    const wire = await call("GET", `/sandbox/facebook/v25.0/${reelId}/video_insights?period=lifetime`, {
      headers,
    });
    const names = wire.body.data.map((m: { name: string }) => m.name);
    expect(names).toContain("blue_reels_play_count");
    expect(names).not.toContain("total_video_views");
    const plays = wire.body.data.find((m: { name: string }) => m.name === "blue_reels_play_count");
    const refused = await call(
      "GET",
      `/sandbox/facebook/v25.0/${reelId}/video_insights?metric=total_video_views`,
      {
        headers,
      },
    );
    expect(refused.body.error).toMatchObject({ code: 100 });
    const metrics = await adapter().insights(pageAccount(handle), reelId);
    expect(metrics?.impressions).toBe(plays.values[0].value);
  });

  it("a story's fields and insights are gone 24 h after it was published; the adapter then answers null", async () => {
    const t = await pageTenant();
    const photo = await insertMedia(t.workspace.id, { mime_type: "image/png" });
    const { row, handle } = await publish(t, [{ text: "", media: [photo] }], { post_type: "story" });
    expect(row.status).toBe("PUBLISHED");
    expect(await adapter().insights(pageAccount(handle), row.platform_post_id!)).not.toBeNull();

    // A story of the same Page published a day and a minute ago, as the ledger keeps it.
    const dayAgo = Date.now() - 86_460_000;
    const storyId = `${await sandboxPlatformId("facebook", handle)}_${freshId(dayAgo)}`;
    const store = env.SANDBOX_STORE.getByName("facebook");
    await store.insertPost(
      { handle, items: [{ text: "", media: [] }], platformRequest: "null", id: storyId, visible: false },
      dayAgo,
    );
    await store.createObject({ id: storyId, handle, kind: "story", data: "{}", readyAt: dayAgo }, dayAgo);
    const headers = await bearerOf(handle);
    for (const path of [`${storyId}/insights?metric=post_media_view`, `${storyId}?fields=shares`]) {
      const gone = await call("GET", `/sandbox/facebook/v25.0/${path}`, { headers });
      expect(gone.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    }
    expect(await adapter().insights(pageAccount(handle), storyId)).toBeNull();
  });
});
