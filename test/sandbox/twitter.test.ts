// The X emulator end to end: the real X adapter (src/platforms/twitter/) against the sandbox's emulator of
// the X API v2 (src/sandbox/twitter/), through the worker — connect through X's consent, publish text, an
// image and a video (chunked upload, processing polled) and a thread as a reply chain, X's refusals in its
// own format, the failure triggers, insights and comments through the analytics sync, the auto-plug
// reply, a token refresh, the user revoking the app and the service revoking its token on disconnect.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decryptSecret } from "../../src/lib/crypto";
import { sandboxClient } from "../../src/platforms/sandbox/credentials";
import { deliver as deliverSync } from "../analytics/queue";
import { connectInto, runFlow } from "../delegation/support";
import { deliver, publishingPost, rowsOf } from "../publishing/support";
import { expectSameBytes, patternBytes } from "../support/bytes";
import { admin, call, ORIGIN } from "../support/client";
import { insertMedia } from "../support/db";
import { createTenant } from "../support/seed";
import { waitFor } from "../support/wait";
import { adapterFor, connected, conversation, follow, published } from "./support";

const client = sandboxClient("twitter");
const basicAuth = `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`;

type Tenant = Awaited<ReturnType<typeof createTenant>>;
type XPost = {
  id: string;
  handle: string;
  text: string[];
  media: Array<{ item: number; url: string; type: string }>;
  replies: Array<{ id: string; text: string }>;
  platform_request: Record<string, any>;
};

const X = "/sandbox/twitter";
const freshHandle = () => `x_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;

const stored = async (id: number) =>
  (await env.DB.prepare("SELECT * FROM accounts WHERE id = ?").bind(id).first<Record<string, any>>())!;
const tokenOf = async (id: number) => decryptSecret(env.ENCRYPTION_KEY, (await stored(id)).access_token_enc);

const stats = async (handle: string) => (await call("GET", `${X}/accounts/${handle}/stats`)).body;
const postsOf = async (handle: string) =>
  (await call("GET", `${X}/accounts/${handle}/posts`)).body.data as XPost[];
const xPost = async (id: string) =>
  (await call("GET", `${X}/posts/${id}`, { headers: { accept: "application/json" } })).body as XPost;

/** A call to the emulator with a bearer token, as X's clients make them. */
async function xCall(method: string, path: string, token: string | null, body?: unknown) {
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetchWorker(`${ORIGIN}${X}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const fetchWorker = async (url: string, init: RequestInit) => {
  const { exports } = await import("cloudflare:workers");
  return exports.default.fetch(url, init);
};

/** A library media file whose bytes are in R2, as an upload through the API leaves it. */
async function mediaFile(t: Tenant, mime: string, bytes: Uint8Array) {
  const type = mime.startsWith("video/") ? "video" : "image";
  const id = await insertMedia(t.workspace.id, { mime_type: mime, type, size: bytes.byteLength });
  const row = await env.DB.prepare("SELECT r2_key FROM media WHERE id = ?")
    .bind(id)
    .first<{ r2_key: string }>();
  await env.MEDIA.put(row!.r2_key, bytes, { httpMetadata: { contentType: mime } });
  return id;
}

const bytesOf = (length: number, seed: number) => patternBytes(length, { step: seed, offset: 7 });

async function publishOn(t: Tenant, accountId: number, fields: Record<string, unknown>) {
  const id = await publishingPost(t, { accounts: [accountId], ...fields });
  const result = await deliver([{ post_id: id }]);
  return { id, result, row: (await rowsOf(id))[0]! };
}

describe("the X emulator, through the real X adapter", () => {
  it("connects: code exchange with PKCE and Basic auth, then GET /2/users/me", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const row = await stored(accountId);
    expect(row.username).toBe(handle);
    expect(row.platform_user_id).toMatch(/^\d{18}$/);
    expect(row.avatar).toBe("https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png");
    const me = await xCall("GET", "/2/users/me?user.fields=verified", await tokenOf(accountId));
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      data: { id: row.platform_user_id, name: handle, username: handle, verified: false },
    });
    expect(Number(me.headers.get("x-rate-limit-limit"))).toBe(75);
    expect(Number(me.headers.get("x-rate-limit-reset"))).toBeGreaterThan(Date.now() / 1000);
  });

  it("publishes text with X's own field names (settings.twitter.text is what X receives), once", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const { row } = await publishOn(t, accountId, {
      content: [{ text: "The long version for every other platform" }],
      settings: { twitter: { text: "Short, for X", reply_settings: "following" } },
    });
    expect(row).toMatchObject({ status: "PUBLISHED", error: null });
    expect(row.platform_post_id).toMatch(/^\d{19}$/);
    expect(row.post_url).toBe(`${ORIGIN}${X}/posts/${row.platform_post_id}`);
    const [post] = await postsOf(handle);
    expect(post!.id).toBe(row.platform_post_id);
    expect(post!.platform_request).toEqual({ text: "Short, for X", reply_settings: "following" });
    expect(await stats(handle)).toMatchObject({ publications: 1, media_uploads: 0 });
    // The post's URL (x.com/<handle>/status/<id>) is the sandbox's page of the post.
    const page = await call("GET", new URL(row.post_url!).pathname, {
      headers: { accept: "application/json" },
    });
    expect(page.body).toMatchObject({ id: row.platform_post_id, text: ["Short, for X"] });
  });

  it("publishes a thread as a reply chain with an image and a video (chunked upload, processing polled)", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const png = bytesOf(3000, 13);
    const mp4 = bytesOf(5000, 29);
    const photo = await mediaFile(t, "image/png", png);
    const clip = await mediaFile(t, "video/mp4", mp4);
    const { row } = await publishOn(t, accountId, {
      content: [
        { text: "First, with a photo", media: [photo] },
        { text: "Second" },
        { text: "Third", media: [clip] },
      ],
    });
    expect(row).toMatchObject({ status: "PUBLISHED", error: null });
    // One post per tweet: the first is listed, the others reply to the one before.
    const listed = await postsOf(handle);
    expect(listed.map((p) => p.id)).toEqual([row.platform_post_id]);
    const root = listed[0]!;
    expect(root.text).toEqual(["First, with a photo"]);
    expect(root.platform_request).toEqual({
      text: "First, with a photo",
      media: { media_ids: [expect.stringMatching(/^\d{19}$/)] },
    });
    expect(root.replies).toHaveLength(1);
    const second = await xPost(root.replies[0]!.id);
    expect(second.platform_request).toEqual({ text: "Second", reply: { in_reply_to_tweet_id: root.id } });
    const third = await xPost(second.replies[0]!.id);
    expect(third.platform_request).toMatchObject({
      text: "Third",
      reply: { in_reply_to_tweet_id: second.id },
    });
    expect(third.platform_request.media.media_ids).toHaveLength(1);
    expect(await stats(handle)).toMatchObject({ publications: 3, media_uploads: 2 });
    // The bytes X received are what the pages show.
    const shownPhoto = await fetchWorker(root.media[0]!.url, {});
    expect(root.media[0]!.type).toBe("image/png");
    await expectSameBytes(new Uint8Array(await shownPhoto.arrayBuffer()), png);
    const shownClip = await fetchWorker(third.media[0]!.url, {});
    expect(shownClip.headers.get("content-type")).toBe("video/mp4");
    await expectSameBytes(new Uint8Array(await shownClip.arrayBuffer()), mp4);
  });

  it("answers X's refusals in X's format: 401, unknown field, over 280 weighted, others' media, duplicate", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const token = await tokenOf(accountId);

    const anonymous = await xCall("POST", "/2/tweets", null, { text: "hi" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({
      title: "Unauthorized",
      type: "about:blank",
      status: 401,
      detail: "Unauthorized",
    });

    const unknown = await xCall("POST", "/2/tweets", token, { text: "hi", colour: "red" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      title: "Invalid Request",
      type: "https://api.twitter.com/2/problems/invalid-request",
      errors: [{ message: expect.stringContaining("colour") }],
    });

    // 141 CJK characters weigh 282; 280 Latin ones fit.
    const long = await xCall("POST", "/2/tweets", token, { text: "字".repeat(141) });
    expect(long.status).toBe(403);
    expect(long.body).toMatchObject({ title: "Forbidden", detail: "Tweet needs to be a bit shorter." });
    const full = await xCall("POST", "/2/tweets", token, { text: "a".repeat(280) });
    expect(full.status).toBe(201);
    expect(full.body.data).toEqual({
      id: expect.stringMatching(/^\d{19}$/),
      text: "a".repeat(280),
      edit_history_tweet_ids: [full.body.data.id],
    });

    const other = await connectInto(t, freshHandle());
    const init = await xCall("POST", "/2/media/upload/initialize", await tokenOf(other), {
      media_type: "image/png",
      total_bytes: 10,
      media_category: "tweet_image",
    });
    expect(init.status).toBe(200);
    const stolen = await xCall("POST", "/2/tweets", token, { media: { media_ids: [init.body.data.id] } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errors[0].message).toBe("Your media IDs are invalid.");

    // The same text again, through the engine: X's 403, a permanent failure with its code.
    const first = await publishOn(t, accountId, { content: [{ text: "Said once" }] });
    expect(first.row.status).toBe("PUBLISHED");
    const again = await publishOn(t, accountId, { content: [{ text: "Said once" }] });
    expect(again.result).toMatchObject({ retries: 0 });
    expect(again.row).toMatchObject({
      status: "FAILED",
      error: {
        code: "duplicate_content",
        message: expect.stringContaining("You are not allowed to create a Tweet with duplicate content."),
      },
    });
    expect(await stats(handle)).toMatchObject({ publications: 2 });
  });

  it("counts and shortens a link without a scheme as X does (23, a t.co link)", async () => {
    const t = await createTenant();
    const token = await tokenOf(await connectInto(t, freshHandle()));
    // 260 + 1 + 23 = 284 for X, though 267 code points.
    const over = await xCall("POST", "/2/tweets", token, { text: `${"a".repeat(260)} x.co/a` });
    expect(over.status).toBe(403);
    // 250 + 1 + 23 = 274 for X, though 303 code points.
    const text = `${"b".repeat(250)} example.com/${"p".repeat(40)}`;
    const fits = await xCall("POST", "/2/tweets", token, { text });
    expect(fits.status).toBe(201);
    expect(fits.body.data.text).toMatch(/^b{250} https:\/\/t\.co\/\w{10}$/);
  });

  it("hands out Snowflake ids from its clock: posts and media ids grow with time", async () => {
    const t = await createTenant();
    const token = await tokenOf(await connectInto(t, freshHandle()));
    const before = Date.now();
    const first = await xCall("POST", "/2/tweets", token, { text: `First ${crypto.randomUUID()}` });
    const second = await xCall("POST", "/2/tweets", token, { text: `Second ${crypto.randomUUID()}` });
    const media = await xCall("POST", "/2/media/upload/initialize", token, {
      media_type: "image/png",
      total_bytes: 10,
    });
    const after = Date.now();
    const ids = [first.body.data.id, second.body.data.id, media.body.data.id].map(BigInt);
    expect(ids[1]! > ids[0]!).toBe(true);
    expect(ids[2]! > ids[1]!).toBe(true);
    // X's Snowflake: milliseconds since X's epoch (1288834974657) above 22 bits of worker and sequence.
    for (const id of ids) {
      const at = Number(id >> 22n) + 1288834974657;
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
    }
  });

  it("names a post's media by the keys its uploads answered (attachments.media_keys, includes.media)", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const token = await tokenOf(await connectInto(t, handle));
    const init = await xCall("POST", "/2/media/upload/initialize", token, {
      media_type: "video/mp4",
      total_bytes: 4,
      media_category: "amplify_video",
    });
    const { id, media_key: key } = init.body.data;
    expect(key).toBe(`13_${id}`);
    const form = new FormData();
    form.set("segment_index", "0");
    form.set("media", new Blob([new Uint8Array([1, 2, 3, 4])]), "a.mp4");
    await fetchWorker(`${ORIGIN}${X}/2/media/upload/${id}/append`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    await xCall("POST", `/2/media/upload/${id}/finalize`, token);
    await waitFor(
      async () =>
        (await xCall("GET", `/2/media/upload?command=STATUS&media_id=${id}`, token)).body.data.processing_info
          ?.state === "succeeded",
    );
    const post = await xCall("POST", "/2/tweets", token, { media: { media_ids: [id] } });
    expect(post.status).toBe(201);
    const lookup = await xCall(
      "GET",
      `/2/tweets/${post.body.data.id}?expansions=attachments.media_keys`,
      token,
    );
    expect(lookup.body).toMatchObject({
      data: { id: post.body.data.id, attachments: { media_keys: [key] } },
      includes: { media: [{ media_key: key, type: "video" }] },
    });
    const me = (await xCall("GET", "/2/users/me", token)).body.data.id;
    const timeline = await xCall(
      "GET",
      `/2/users/${me}/tweets?expansions=attachments.media_keys&tweet.fields=attachments`,
      token,
    );
    expect(timeline.body.data[0].attachments).toEqual({ media_keys: [key] });
    expect(timeline.body.includes.media).toEqual([{ media_key: key, type: "video" }]);
    const unknown = await xCall("GET", `/2/tweets/${post.body.data.id}?expansions=colour`, token);
    expect(unknown.status).toBe(400);
  });

  it("the check counts as X does: 141 CJK characters (282 for X) are refused before anything is sent", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const { result, row } = await publishOn(t, accountId, {
      content: [{ text: "Fine for every other platform" }],
      settings: { twitter: { text: "字".repeat(141) } },
    });
    expect(result).toMatchObject({ acks: 1, retries: 0 });
    expect(row).toMatchObject({
      status: "FAILED",
      error: {
        message: expect.stringContaining(
          "settings.twitter.text field must not be greater than 280 characters as X counts them",
        ),
      },
    });
    expect(await stats(handle)).toMatchObject({ publications: 0, media_uploads: 0 });
  });

  it("reads posts back as X shows them: timeline, recent search by author, lookup with private metrics", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const token = await tokenOf(accountId);
    const userId = (await stored(accountId)).platform_user_id as string;
    const created = await xCall("POST", "/2/tweets", token, {
      text: "Fish & chips <3 https://example.com/menu",
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data.text).toMatch(/^Fish &amp; chips &lt;3 https:\/\/t\.co\/[A-Za-z0-9]{10}$/);

    const timeline = await xCall(
      "GET",
      `/2/users/${userId}/tweets?max_results=5&tweet.fields=created_at,author_id`,
      token,
    );
    expect(timeline.status).toBe(200);
    expect(timeline.body).toMatchObject({
      data: [{ id, text: created.body.data.text, author_id: userId, created_at: expect.any(String) }],
      meta: { result_count: 1, newest_id: id, oldest_id: id },
    });
    const tooFew = await xCall("GET", `/2/users/${userId}/tweets?max_results=3`, token);
    expect(tooFew.status).toBe(400);
    expect(tooFew.body.errors[0].message).toContain("max_results");

    const search = await xCall(
      "GET",
      `/2/tweets/search/recent?query=from:${handle}&expansions=author_id`,
      token,
    );
    expect(search.body).toMatchObject({
      data: [{ id }],
      includes: { users: [{ id: userId, username: handle }] },
    });

    const stranger = await tokenOf(await connectInto(t, freshHandle()));
    const peek = await xCall(
      "GET",
      `/2/tweets/${id}?tweet.fields=public_metrics,non_public_metrics`,
      stranger,
    );
    expect(peek.body.data.public_metrics.impression_count).toBeGreaterThan(0);
    expect(peek.body.data.non_public_metrics).toBeUndefined();
    expect(peek.body.errors).toMatchObject([
      { title: "Field Authorization Error", field: "non_public_metrics" },
    ]);
    const own = await xCall("GET", `/2/tweets/${id}?tweet.fields=non_public_metrics`, token);
    expect(own.body.data.non_public_metrics.impression_count).toBeGreaterThan(0);
    expect(own.body.errors).toBeUndefined();
    const missing = await xCall("GET", "/2/tweets/1234567890123456789", token);
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual({
      errors: [expect.objectContaining({ title: "Not Found Error", resource_id: "1234567890123456789" })],
    });
  });

  it("#sandbox-fail: X's 403, FAILED at once, nothing published", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const { result, row } = await publishOn(t, accountId, { content: [{ text: "No #sandbox-fail" }] });
    expect(result).toMatchObject({ acks: 1, retries: 0 });
    expect(row).toMatchObject({ status: "FAILED", platform_post_id: null });
    expect(row.error!.message).toContain("HTTP 403");
    expect(row.error!.message).toContain("#sandbox-fail");
    expect(await stats(handle)).toMatchObject({ publications: 0 });
  });

  it("#sandbox-ratelimit: X's 429 and x-rate-limit-reset drive the retry; then published once", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const direct = await xCall("POST", "/2/tweets", await tokenOf(accountId), {
      text: "Direct #sandbox-ratelimit",
    });
    expect(direct.status).toBe(429);
    expect(direct.body).toEqual({
      title: "Too Many Requests",
      detail: "Too Many Requests",
      type: "about:blank",
      status: 429,
    });
    expect(direct.headers.get("x-rate-limit-remaining")).toBe("0");
    const reset = Number(direct.headers.get("x-rate-limit-reset"));
    expect(reset - Date.now() / 1000).toBeGreaterThan(0);
    expect(reset - Date.now() / 1000).toBeLessThanOrEqual(3);

    const id = await publishingPost(t, {
      accounts: [accountId],
      content: [{ text: "Busy #sandbox-ratelimit" }],
    });
    const first = await deliver([{ post_id: id }]);
    expect(first.retries).toBe(1);
    expect(first.delays[0]).toBeGreaterThanOrEqual(1);
    expect(first.delays[0]).toBeLessThanOrEqual(3);
    await deliver([{ post_id: id }], { attempts: 2 });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", error: null, attempts: 2 });
    // The direct call's 429 published nothing; the engine's second attempt published once.
    expect(await stats(handle)).toMatchObject({ publications: 1 });
  });

  it("#sandbox-lost: the answer is lost after X created the post; find reconciles it, published once", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const id = await publishingPost(t, {
      accounts: [accountId],
      content: [{ text: "Where did it go #sandbox-lost" }],
    });
    const first = await deliver([{ post_id: id }]);
    expect(first.retries).toBe(1);
    expect((await rowsOf(id))[0]!.status).toBe("PUBLISHING");
    await deliver([{ post_id: id }], { attempts: 2 });
    const listed = await postsOf(handle);
    expect(listed).toHaveLength(1);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: listed[0]!.id });
    expect(await stats(handle)).toMatchObject({ publications: 1 });
  });

  it("syncs insights from public_metrics and comments from the conversation search; the auto-plug replies", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const { id, row } = await publishOn(t, accountId, {
      content: [{ text: "Measure me" }],
      auto_plug: { text: "Read the guide", metric: "impressions", threshold: 1 },
    });
    expect(row.status).toBe("PUBLISHED");
    const token = await tokenOf(accountId);
    const metricsPath = `/2/tweets/${row.platform_post_id}?tweet.fields=public_metrics`;
    const before = (await xCall("GET", metricsPath, token)).body.data.public_metrics;
    expect(Object.keys(before).sort()).toEqual([
      "bookmark_count",
      "impression_count",
      "like_count",
      "quote_count",
      "reply_count",
      "retweet_count",
    ]);
    const synced = await deliverSync([row.id]);
    expect(synced.retryMessages).toEqual([]);
    const after = (await xCall("GET", metricsPath, token)).body.data.public_metrics;

    const shown = await call("GET", `/api/v1/posts/${id}?include_comments=true`, { key: t.key });
    const analytics = shown.body.platforms[0].analytics;
    for (const [ours, xs] of [
      ["impressions", "impression_count"],
      ["likes", "like_count"],
      ["comments", "reply_count"],
      ["shares", "retweet_count"],
      ["quotes", "quote_count"],
      ["saves", "bookmark_count"],
    ] as const) {
      expect(analytics[ours]).toBeGreaterThanOrEqual(before[xs]);
      expect(analytics[ours]).toBeLessThanOrEqual(after[xs]);
    }
    expect(analytics.impressions).toBeGreaterThan(0);
    const comments = shown.body.comments as Array<Record<string, any>>;
    expect(comments.length).toBeGreaterThanOrEqual(1);
    expect(comments.length).toBe(analytics.comments);
    expect(comments[0]).toMatchObject({
      platform: "twitter",
      content: expect.any(String),
      contact: { username: expect.any(String), profile_url: expect.stringMatching(/^https:\/\/x\.com\//) },
    });
    // The plug: a reply under the post, the account's own, not counted among comments.
    const [post] = await postsOf(handle);
    expect(post!.replies.map((r) => r.text)).toEqual(["Read the guide"]);
    const plug = await xPost(post!.replies[0]!.id);
    expect(plug.platform_request).toEqual({
      text: "Read the guide",
      reply: { in_reply_to_tweet_id: post!.id },
    });
    expect(comments.some((c) => c.content === "Read the guide")).toBe(false);
  });

  it("refreshes an expiring token through the service's refresh path (X rotates refresh tokens)", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const before = await stored(accountId);
    await env.DB.prepare("UPDATE accounts SET token_expires_at = ? WHERE id = ?")
      .bind(Date.now() + 1000, accountId)
      .run();
    const { row } = await publishOn(t, accountId, { content: [{ text: "Fresh token" }] });
    expect(row.status).toBe("PUBLISHED");
    expect(await stats(handle)).toMatchObject({ publications: 1, token_refreshes: 1 });
    const after = await stored(accountId);
    expect(after.refresh_token_enc).not.toBe(before.refresh_token_enc);
    expect(after.token_expires_at).toBeGreaterThan(Date.now() + 60 * 60_000);
  });

  it("the user revokes the app: X's 401, the refresh refused too, the account expired and the row failed", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const token = await tokenOf(accountId);
    expect((await call("POST", `${X}/accounts/${handle}/revoke`)).status).toBe(200);
    const refused = await xCall("GET", "/2/users/me", token);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ title: "Unauthorized", status: 401 });

    const { row } = await publishOn(t, accountId, { content: [{ text: "After revocation" }] });
    expect(row).toMatchObject({ status: "FAILED", platform_post_id: null });
    expect(row.error!.message).toContain("reconnect");
    expect((await stored(accountId)).expired_at).toBeGreaterThan(0);
    expect(await stats(handle)).toMatchObject({ publications: 0 });
  });

  it("the guide's walkthrough on a demo account (operator-created, tokenless): revoke, reauth_required once, a reconnect brings it back", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const created = await admin("POST", "/accounts", {
      workspace_id: t.workspace.id,
      platform: "twitter",
      username: handle,
      name: handle,
    });
    expect(created.status).toBe(201);
    const accountId = created.body.id as number;
    expect((await stored(accountId)).access_token_enc).toBeNull();
    expect((await publishOn(t, accountId, { content: [{ text: "Before" }] })).row.status).toBe("PUBLISHED");

    expect((await call("POST", `${X}/accounts/${handle}/revoke`)).status).toBe(200);
    const { row } = await publishOn(t, accountId, { content: [{ text: "After revocation" }] });
    expect(row).toMatchObject({ status: "FAILED", error: { code: "account_expired" } });
    const expiredAt = (await stored(accountId)).expired_at;
    expect(expiredAt).toBeGreaterThan(0);
    const health = await call("GET", `/api/v1/accounts/${accountId}`, { key: t.key });
    expect(health.body).toMatchObject({ has_expired: true, health: { status: "reauth_required" } });
    // The next call is refused at once; the account expired once (one account.expired, one time).
    const again = await publishOn(t, accountId, { content: [{ text: "Still revoked" }] });
    expect(again.row).toMatchObject({ status: "FAILED", error: { code: "account_expired" } });
    expect((await stored(accountId)).expired_at).toBe(expiredAt);
    const events = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM webhook_events WHERE type = 'account.expired' AND id LIKE ?",
    )
      .bind(`evt_account.expired_${accountId}_%`)
      .first<{ n: number }>();
    expect(events?.n ?? 0).toBeLessThanOrEqual(1);
    expect(await stats(handle)).toMatchObject({ publications: 1 });

    const reconnect = await call<{ authorize_url: string }>(
      "POST",
      `/api/v1/accounts/${accountId}/reconnect`,
      {
        key: t.key,
        body: { redirect_url: "https://app.example.test/done" },
      },
    );
    expect(reconnect.status).toBe(201);
    const { landed } = await runFlow(reconnect.body.authorize_url, { handle });
    expect(landed.searchParams.get("status")).toBe("connected");
    expect(Number(landed.searchParams.get("account_id"))).toBe(accountId);
    expect((await stored(accountId)).expired_at).toBeNull();
    const back = await publishOn(t, accountId, { content: [{ text: "Reconnected" }] });
    expect(back.row.status).toBe("PUBLISHED");
    expect(await stats(handle)).toMatchObject({ publications: 2 });
  });

  it("a disconnect revokes the token at X (POST /2/oauth2/revoke): it stops working", async () => {
    const t = await createTenant();
    const handle = freshHandle();
    const accountId = await connectInto(t, handle);
    const token = await tokenOf(accountId);
    const before = await stored(accountId);
    expect((await xCall("GET", "/2/users/me", token)).status).toBe(200);
    const gone = await call("DELETE", `/api/v1/accounts/${accountId}`, { key: t.key });
    expect(gone.status).toBeLessThan(300);
    // The revocation runs after the answer (waitUntil).
    await waitFor(async () => (await xCall("GET", "/2/users/me", token)).status === 401, {
      what: "the token revoked at X",
    });
    // Its refresh token is gone with the grant: X's token endpoint refuses it.
    const refresh = await decryptSecret(env.ENCRYPTION_KEY, before.refresh_token_enc);
    const refreshed = await fetchWorker(`${ORIGIN}${X}/2/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basicAuth },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refresh }),
    });
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ error: "invalid_grant" });
  });
});

describe("a follower's comments on X (the sandbox's follower tool)", () => {
  it("are replies in the post's conversation: parent, x.com address, author; the account's own answer is is_own", async () => {
    const account = await connected("twitter");
    const { rows } = await published(account, { content: [{ text: "Talk to me" }] });
    const postId = rows[0]!.platform_post_id!;
    const { first, second, own } = await conversation("twitter", account, postId);
    expect(first.body.id).toMatch(/^\d{19}$/);
    expect(
      (await follow("twitter", "someone_else", { post_id: postId, text: "x", author: "fan" })).status,
    ).toBe(404);
    expect(
      (await follow("twitter", account.handle, { post_id: postId, text: "", author: "fan" })).status,
    ).toBe(400);

    const { adapter, auth } = await adapterFor("twitter", account);
    const comments = await adapter.comments!(auth, postId);
    expect(comments.find((c) => c.id === first.body.id)).toMatchObject({
      content: "Love it",
      author_name: "Fan One",
      parent_id: null,
      is_own: false,
      url: `https://x.com/fan_one/status/${first.body.id}`,
      contact: { name: "Fan One", username: "fan_one", profile_url: "https://x.com/fan_one" },
    });
    expect(comments.find((c) => c.id === second.body.id)).toMatchObject({
      parent_id: first.body.id,
      is_own: false,
    });
    expect(comments.find((c) => c.id === own.body.id)).toMatchObject({
      content: "Thank you",
      parent_id: first.body.id,
      is_own: true,
    });
    // The metrics count them as the listing shows them.
    const metrics = (await adapter.insights(auth, postId))!;
    expect(metrics.comments).toBe(comments.length);
  });
});

describe("X's hide replies and delete on the emulator", () => {
  /** A call to the emulator with the account's token and a JSON body, as the adapter makes it. */
  const x = async (
    account: Awaited<ReturnType<typeof connected>>,
    method: string,
    path: string,
    body?: unknown,
  ) => {
    const token = await tokenOf(account.accountId);
    return call(method, `${X}${path}`, {
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { body }),
    });
  };

  it("hides only others' replies in the caller's conversation and deletes only the caller's own", async () => {
    const account = await connected("twitter");
    const stranger = await connected("twitter");
    const { rows } = await published(account, { content: [{ text: "Moderate me" }] });
    const { first, own } = await conversation("twitter", account, rows[0]!.platform_post_id!);
    const hide = await x(account, "PUT", `/2/tweets/${first.body.id}/hidden`, { hidden: true });
    expect([hide.status, hide.body]).toEqual([200, { data: { hidden: true } }]);
    // The same state again succeeds (X: "will result in a successful call").
    expect((await x(account, "PUT", `/2/tweets/${first.body.id}/hidden`, { hidden: true })).status).toBe(200);
    expect((await x(account, "PUT", `/2/tweets/${own.body.id}/hidden`, { hidden: true })).status).toBe(403);
    expect((await x(stranger, "PUT", `/2/tweets/${first.body.id}/hidden`, { hidden: false })).status).toBe(
      403,
    );
    expect((await x(account, "PUT", `/2/tweets/${first.body.id}/hidden`, { hidden: 1 })).status).toBe(400);
    expect(
      (await x(account, "PUT", `/2/tweets/${first.body.id}/hidden`, { hidden: true, x: 1 })).status,
    ).toBe(400);
    expect((await x(account, "DELETE", `/2/tweets/${first.body.id}`)).status).toBe(403);
    const deleted = await x(account, "DELETE", `/2/tweets/${own.body.id}`);
    expect([deleted.status, deleted.body]).toEqual([200, { data: { deleted: true } }]);
    expect((await x(account, "DELETE", `/2/tweets/${own.body.id}`)).status).toBe(404);
    const { adapter, auth } = await adapterFor("twitter", account);
    const ids = (await adapter.comments!(auth, rows[0]!.platform_post_id!)).map((c) => c.id);
    expect(ids).toContain(first.body.id);
    expect(ids).not.toContain(own.body.id);
  });
});
