// Facebook Pages end to end on the sandbox's emulator of the Graph API: the real adapter
// (src/platforms/facebook/) connects, publishes, reconciles, reads insights and comments and replies,
// every call answered by src/sandbox/facebook/ on Facebook's own paths and in its own shapes.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decryptSecret } from "../../src/lib/crypto";
import { publishingAdapter } from "../../src/platforms/index";
import { sandboxPlatformId } from "../../src/platforms/sandbox/shapes";
import { runFlow } from "../delegation/support";
import { deliver, handleOf, publishingPost, rowsOf } from "../publishing/support";
import { call } from "../support/client";
import { insertMedia } from "../support/db";
import { createAccount, createTenant } from "../support/seed";

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
    const adapter = publishingAdapter(env, "facebook");
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
});
