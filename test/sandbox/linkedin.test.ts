// LinkedIn on the sandbox: the real LinkedIn adapter (src/platforms/linkedin/) against the emulator of
// LinkedIn's own API (src/sandbox/linkedin/), end to end through the worker, in the shared runtime (no
// clock moved, no global replaced: every test sets the app configuration it runs under, and the
// runtime's is put back after it).
// - On a Community Management app granted member analytics: connect with the chooser (the member or the
//   organization it administers), publish text, an image, several images, a video and a thread (the
//   post, then comments), the failure triggers as LinkedIn answers them, a duplicate, metrics and
//   comments through the analytics sync, a reply, a token refresh, and the user removing the app.
// - The two app configurations (LINKEDIN_PRODUCTS): each consent asks only for its products' scopes and
//   the emulator refuses any other as LinkedIn does (`unauthorized_scope_error`); delegation and connect
//   work in each; a member app's connect stores the profile at once (no pages), a Community Management
//   app's reads the basic profile and offers the pages.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SPECS } from "../../src/platforms/catalog";
import { configuredDefinition } from "../../src/platforms/define";
import { LINKEDIN_VERSION } from "../../src/platforms/linkedin/api";
import { sandboxClient } from "../../src/platforms/sandbox/credentials";
import { sandboxPlatformId } from "../../src/sandbox/emulators";
import { deliver as deliverSync } from "../analytics/queue";
import { APP_CALLBACK, Browser, createApp, createSession, locationOf, runFlow } from "../delegation/support";
import { deliver, handleOf, publishingPost, rowsOf, sandboxPosts } from "../publishing/support";
import { patternBytes } from "../support/bytes";
import { call, ORIGIN } from "../support/client";
import { createTenant } from "../support/seed";
import { waitFor } from "../support/wait";
import { accountRow, adapterFor, connected, conversation, published, unique } from "./support";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

// The emulator and the service read the worker's env, which this runtime shares with other files.
const vars = env as unknown as Record<string, string | undefined>;
const saved = { products: vars.LINKEDIN_PRODUCTS, analytics: vars.LINKEDIN_MEMBER_ANALYTICS };
afterEach(() => {
  vi.restoreAllMocks();
  vars.LINKEDIN_PRODUCTS = saved.products;
  vars.LINKEDIN_MEMBER_ANALYTICS = saved.analytics;
});

const SANDBOX = `${ORIGIN}/sandbox/linkedin`;
const SHARE = /^urn:li:share:\d{19}$/;

/** Connects a LinkedIn account through consent and the chooser; `pick` chooses by the labels. */
async function connect(t: Tenant, handle: string, pick: (labels: string[]) => number) {
  const res = await call<{ authorize_url: string }>("POST", "/api/v1/accounts/connect", {
    key: t.key,
    body: {
      workspace_id: t.workspace.id,
      platform: "linkedin",
      redirect_url: "https://app.example.test/done",
    },
  });
  expect(res.status).toBe(201);
  const flow = await runFlow(res.body.authorize_url, { handle, channel: pick });
  expect(flow.landed.searchParams.get("status")).toBe("connected");
  return { id: Number(flow.landed.searchParams.get("account_id")), flow };
}

const account = async (id: number) =>
  (await env.DB.prepare("SELECT * FROM accounts WHERE id = ?").bind(id).first<Record<string, any>>())!;

const stats = async (handle: string) => {
  const res = await call("GET", `/sandbox/linkedin/accounts/${encodeURIComponent(handle)}/stats`);
  expect(res.status).toBe(200);
  return res.body as { publications: number; media_uploads: number; token_refreshes: number };
};

/** The sandbox post's JSON (what LinkedIn received for it, its replies). */
async function sandboxPost(id: string) {
  const res = await call("GET", `/sandbox/linkedin/posts/${encodeURIComponent(id)}`, {
    headers: { accept: "application/json" },
  });
  expect(res.status).toBe(200);
  return res.body as {
    id: string;
    handle: string;
    text: string[];
    media: Array<{ url: string; type: string }>;
    replies: Array<{ id: string; text: string }>;
    platform_request: Record<string, any>;
  };
}

/** Uploads media through the API (bytes in R2, as a user's upload). */
async function upload(t: Tenant, name: string, mime: string, bytes: Uint8Array) {
  const form = new FormData();
  form.set("workspace_id", String(t.workspace.id));
  form.set("file", new File([bytes], name, { type: mime }));
  const res = await call("POST", "/api/v1/media/upload", { key: t.key, body: form });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

const png = (seed: number) =>
  new Uint8Array(600).map((_, i) =>
    i < 8 ? [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a][i]! : (i * seed) % 256,
  );

/** A post on one account, published by one delivery of the publish queue; its rows. */
async function publishOn(t: Tenant, accountId: number, fields: Record<string, unknown>) {
  const postId = await publishingPost(t, { accounts: [accountId], ...fields });
  const result = await deliver([{ post_id: postId }]);
  return { postId, result, rows: await rowsOf(postId) };
}

/** A versioned REST call to the emulator, as LinkedIn's API is called. */
async function rest(path: string, token: string | null, headers: Record<string, string> = {}) {
  return call("GET", `/sandbox/linkedin/rest${path}`, {
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      "linkedin-version": LINKEDIN_VERSION,
      "x-restli-protocol-version": "2.0.0",
      ...headers,
    },
  });
}

describe("LinkedIn on its emulator", () => {
  // A Community Management app granted member post analytics: it may list and post as pages, and read
  // a member post's numbers.
  beforeEach(() => {
    vars.LINKEDIN_PRODUCTS = "community_management";
    vars.LINKEDIN_MEMBER_ANALYTICS = "true";
  });

  it("connects the organization the member administers through the chooser, and publishes as it", async () => {
    const t = await createTenant();
    const { id, flow } = await connect(t, "lena", (labels) => labels.indexOf("lena Inc."));
    expect(flow.steps.channelHtml).toContain("lena Inc.");
    const row = await account(id);
    expect(row.username).toBe("lena-org");
    expect(row.platform_user_id).toMatch(/^urn:li:organization:\d{8}$/);
    expect(row.refresh_token_enc).not.toBeNull();

    const { rows } = await publishOn(t, id, { content: [{ text: "News from (lena) Inc. #launch" }] });
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    const urn = rows[0]!.platform_post_id!;
    expect(urn).toMatch(SHARE);
    expect(rows[0]!.post_url).toBe(`${SANDBOX}/posts/${encodeURIComponent(urn)}`);
    const page = await call("GET", new URL(rows[0]!.post_url!).pathname);
    expect(page.status).toBe(200);
    // LinkedIn's own post URL (the adapter's, in production) leads to the same page.
    const feed = await call("GET", `/sandbox/linkedin/feed/update/${urn}/`);
    expect(feed.status).toBe(302);

    const published = await sandboxPosts("linkedin", id);
    expect(published.map((p) => p.id)).toEqual([urn]);
    const post = await sandboxPost(urn);
    expect(post.text).toEqual(["News from (lena) Inc. #launch"]);
    expect(post.platform_request).toEqual({
      author: row.platform_user_id,
      commentary: "News from \\(lena\\) Inc. #launch",
      visibility: "PUBLIC",
      distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: "PUBLISHED",
      isReshareDisabledByAuthor: false,
    });
    expect(await stats("lena-org")).toMatchObject({ publications: 1, media_uploads: 0 });
    expect(await stats("lena")).toMatchObject({ publications: 0 });
  });

  it("connects the member themself (the profile choice) as urn:li:person", async () => {
    const t = await createTenant();
    const { id } = await connect(t, "mo", (labels) => labels.indexOf("mo"));
    const row = await account(id);
    expect(row.username).toBe("mo");
    expect(row.platform_user_id).toMatch(/^urn:li:person:[A-Za-z0-9_-]{10}$/);
    const { rows } = await publishOn(t, id, { content: [{ text: "Me, myself" }] });
    expect(rows[0]!.status).toBe("PUBLISHED");
    expect((await sandboxPost(rows[0]!.platform_post_id!)).platform_request.author).toBe(
      row.platform_user_id,
    );
  });

  it("publishes an image through the Images API and several as a multiImage post", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const handle = await handleOf(linkedin);
    const one = await upload(t, "a.png", "image/png", png(3));
    const two = await upload(t, "b.png", "image/png", png(7));

    const single = await publishOn(t, linkedin, { content: [{ text: "One picture", media: [one] }] });
    expect(single.rows[0]!.status, JSON.stringify(single.rows[0]!.error)).toBe("PUBLISHED");
    const first = await sandboxPost(single.rows[0]!.platform_post_id!);
    expect(first.platform_request.content.media.id).toMatch(/^urn:li:image:C4\w+$/);
    expect(first.media).toHaveLength(1);
    expect(first.media[0]!.type).toBe("image/png");
    const served = await call("GET", new URL(first.media[0]!.url).pathname);
    expect(served.status).toBe(200);

    const multi = await publishOn(t, linkedin, { content: [{ text: "Two pictures", media: [one, two] }] });
    expect(multi.rows[0]!.status, JSON.stringify(multi.rows[0]!.error)).toBe("PUBLISHED");
    const second = await sandboxPost(multi.rows[0]!.platform_post_id!);
    expect(second.platform_request.content.multiImage.images).toHaveLength(2);
    expect(second.platform_request.content.media).toBeUndefined();
    expect(await stats(handle)).toMatchObject({ publications: 2, media_uploads: 3 });
  });

  it("publishes a video: initializeUpload, the parts' ETags to finalizeUpload, then AVAILABLE", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    // Two of LinkedIn's 4 MiB parts, each PUT with its range and named by its ETag at finalizeUpload.
    const bytes = patternBytes(4 * 1024 * 1024 + 80 * 1024, { step: 31 });
    bytes.set([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32]);
    const clip = await upload(t, "clip.mp4", "video/mp4", bytes);
    const { rows } = await publishOn(t, linkedin, { content: [{ text: "Moving pictures", media: [clip] }] });
    expect(rows[0], JSON.stringify(rows[0]!.error)).toMatchObject({ status: "PUBLISHED" });
    const post = await sandboxPost(rows[0]!.platform_post_id!);
    expect(post.platform_request.content.media.id).toMatch(/^urn:li:video:C4\w+$/);
    expect(post.media[0]!.type).toBe("video/mp4");
    const video = await rest(
      `/videos/${encodeURIComponent(post.platform_request.content.media.id)}`,
      await tokenFor(await handleOf(linkedin)),
    );
    expect(video.body).toMatchObject({ status: "AVAILABLE", owner: post.platform_request.author });
    expect(await stats(await handleOf(linkedin))).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("publishes a thread as the post and a comment by the same author under it", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const { rows } = await publishOn(t, linkedin, {
      content: [{ text: "The post" }, { text: "More below" }],
    });
    expect(rows[0]!.status).toBe("PUBLISHED");
    const post = await sandboxPost(rows[0]!.platform_post_id!);
    expect(post.replies.map((r) => r.text)).toEqual(["More below"]);
    const comments = await rest(
      `/socialActions/${encodeURIComponent(post.id)}/comments`,
      await tokenFor(await handleOf(linkedin)),
    );
    expect(comments.status).toBe(200);
    const mine = comments.body.elements.find((c: any) => c.message.text === "More below");
    expect(mine).toMatchObject({
      actor: post.platform_request.author,
      object: post.id,
      commentUrn: expect.stringMatching(/^urn:li:comment:\(urn:li:share:\d+,\d+\)$/),
    });
  });

  it("refuses what LinkedIn refuses: an organization post visible to connections only", async () => {
    const t = await createTenant();
    const { id } = await connect(t, "vera", (labels) => labels.indexOf("vera Inc."));
    const { rows } = await publishOn(t, id, {
      content: [{ text: "Only friends" }],
      settings: { linkedin: { visibility: "CONNECTIONS" } },
    });
    expect(rows[0]).toMatchObject({
      status: "FAILED",
      platform_post_id: null,
      error: { message: expect.stringContaining("cannot be visible to connections only") },
    });
    expect(rows[0]!.error!.message).toContain("HTTP 422");
    expect(await sandboxPosts("linkedin", id)).toEqual([]);
  });

  it("#sandbox-fail: FAILED at once with LinkedIn's 422, nothing published", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const { result, rows } = await publishOn(t, linkedin, { content: [{ text: "Bad #sandbox-fail" }] });
    expect(result).toMatchObject({ acks: 1, retries: 0 });
    expect(rows[0]).toMatchObject({
      status: "FAILED",
      error: { message: expect.stringMatching(/HTTP 422.*#sandbox-fail/) },
    });
    expect(await sandboxPosts("linkedin", linkedin)).toEqual([]);
  });

  it("#sandbox-ratelimit: LinkedIn's 429 without Retry-After waits for midnight UTC, then publishes", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const postId = await publishingPost(t, {
      accounts: [linkedin],
      content: [{ text: "Busy #sandbox-ratelimit" }],
    });
    const first = await deliver([{ post_id: postId }]);
    expect(first.retries).toBe(1);
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    const untilMidnight = Math.ceil((midnight.getTime() - Date.now()) / 1000);
    expect(first.delays[0]).toBeGreaterThan(Math.min(untilMidnight, 43_200) - 30);
    expect((await rowsOf(postId))[0]).toMatchObject({ status: "PUBLISHING" });
    expect(await sandboxPosts("linkedin", linkedin)).toEqual([]);
    await deliver([{ post_id: postId }], { attempts: 2 });
    expect((await rowsOf(postId))[0]!.status).toBe("PUBLISHED");
    expect(await sandboxPosts("linkedin", linkedin)).toHaveLength(1);
  });

  it("#sandbox-flaky: LinkedIn's 503 twice (retried), then published once", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const postId = await publishingPost(t, {
      accounts: [linkedin],
      content: [{ text: "Wobbly #sandbox-flaky" }],
    });
    for (const attempts of [1, 2]) {
      expect((await deliver([{ post_id: postId }], { attempts })).retries).toBe(1);
      expect((await rowsOf(postId))[0]).toMatchObject({
        status: "PUBLISHING",
        error: { message: expect.stringContaining("HTTP 503") },
      });
    }
    await deliver([{ post_id: postId }], { attempts: 3 });
    expect((await rowsOf(postId))[0]!.status).toBe("PUBLISHED");
    expect(await sandboxPosts("linkedin", linkedin)).toHaveLength(1);
  });

  it("a reply whose answer is lost is found among the post's comments, written once", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const { rows } = await publishOn(t, linkedin, { content: [{ text: "Reply to me" }] });
    const urn = rows[0]!.platform_post_id!;
    const { publishingAdapter } = await import("../../src/platforms/index");
    const adapter = publishingAdapter(env, "linkedin", "live");
    const me = { handle: await handleOf(linkedin), platformUserId: null, accessToken: null };
    const text = "Plug #sandbox-lost";
    await expect(adapter.reply!(me, urn, text, "fp-lost")).rejects.toMatchObject({ kind: "unknown_outcome" });
    const found = await adapter.find(me, { fingerprint: "fp-lost", text, replyTo: urn });
    expect(found?.id).toMatch(/^urn:li:comment:\(urn:li:share:\d+,\d+\)$/);
    expect(found?.url).toBe(`${SANDBOX}/posts/${encodeURIComponent(found!.id)}`);
    expect((await sandboxPost(urn)).replies.map((r) => r.text)).toEqual([text]);
  });

  it("#sandbox-lost on an organization: find reads its posts and records the one publication", async () => {
    const t = await createTenant();
    const { id } = await connect(t, "otto", (labels) => labels.indexOf("otto Inc."));
    const postId = await publishingPost(t, {
      accounts: [id],
      content: [{ text: "Where did it go #sandbox-lost" }],
    });
    const first = await deliver([{ post_id: postId }]);
    expect(first.retries).toBe(1);
    await deliver([{ post_id: postId }], { attempts: 2 });
    const published = await sandboxPosts("linkedin", id);
    expect(published).toHaveLength(1);
    expect((await rowsOf(postId))[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: published[0]!.id,
    });
    expect(await stats("otto-org")).toMatchObject({ publications: 1 });
  });

  it("#sandbox-lost on a member: no app may read a member's posts; the retry's duplicate refusal names the post, published once", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const postId = await publishingPost(t, {
      accounts: [linkedin],
      content: [{ text: "Lost member #sandbox-lost" }],
    });
    expect((await deliver([{ post_id: postId }])).retries).toBe(1);
    await deliver([{ post_id: postId }], { attempts: 2 });
    const published = await sandboxPosts("linkedin", linkedin);
    expect(published).toHaveLength(1);
    expect((await rowsOf(postId))[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: published[0]!.id,
      error: null,
    });
  });

  it("post and comment ids grow with the clock (an activity id's top bits are its time): in order as numbers", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const idOf = (urn: string) => BigInt(/(\d+)\)?$/.exec(urn)![1]!);
    const before = Date.now();
    const first = await publishOn(t, linkedin, { content: [{ text: "First in line" }] });
    const second = await publishOn(t, linkedin, {
      content: [{ text: "Second in line" }, { text: "and after" }],
    });
    const [a, b] = [first.rows[0]!.platform_post_id!, second.rows[0]!.platform_post_id!];
    expect(a).toMatch(SHARE);
    expect(idOf(b)).toBeGreaterThan(idOf(a));
    // The id's time (its bits above the lowest 22) is when the post was created, in ms.
    expect(Number(idOf(a) >> 22n)).toBeGreaterThanOrEqual(before);
    expect(Number(idOf(b) >> 22n)).toBeLessThanOrEqual(Date.now());
    const [comment] = (await sandboxPost(b)).replies;
    expect(idOf(comment!.id)).toBeGreaterThan(idOf(b));
  });

  it("the same text posted again by another row is FAILED duplicate_post, not the first row's post", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const first = await publishOn(t, linkedin, { content: [{ text: "Said twice" }] });
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHED" });
    const again = await publishOn(t, linkedin, { content: [{ text: "Said twice" }] });
    expect(again.rows[0]).toMatchObject({
      status: "FAILED",
      platform_post_id: null,
      error: { code: "duplicate_post", message: expect.stringContaining("the same text posted again") },
    });
    expect(await sandboxPosts("linkedin", linkedin)).toHaveLength(1);
  });

  it("a thread whose first post is refused as a duplicate stays refused (its comments may be missing)", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const first = await publishOn(t, linkedin, { content: [{ text: "Said once" }] });
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHED" });
    const again = await publishingPost(t, {
      accounts: [linkedin],
      content: [{ text: "Said once" }, { text: "and a comment" }],
    });
    await deliver([{ post_id: again }]);
    expect((await rowsOf(again))[0]).toMatchObject({ status: "FAILED", error: { code: "duplicate_post" } });
    expect(await sandboxPosts("linkedin", linkedin)).toHaveLength(1);
  });

  it("syncs a member post's metrics (memberCreatorPostAnalytics) and its comments; replies as the member", async () => {
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const { postId, rows } = await publishOn(t, linkedin, { content: [{ text: "Numbers please" }] });
    const row = rows[0]!;
    expect((await deliverSync([row.id])).explicitAcks).toHaveLength(1);
    const synced = await env.DB.prepare("SELECT analytics FROM post_platforms WHERE id = ?")
      .bind(row.id)
      .first<{ analytics: string }>();
    const analytics = JSON.parse(synced!.analytics);
    const token = await tokenFor(await handleOf(linkedin));
    const urn = row.platform_post_id!;
    const metric = async (queryType: string) => {
      const res = await rest(
        `/memberCreatorPostAnalytics?q=entity&entity=(share:${encodeURIComponent(urn)})&queryType=${queryType}&aggregation=TOTAL`,
        token,
      );
      expect(res.status).toBe(200);
      return res.body.elements[0].count as number;
    };
    expect(analytics.impressions).toBeGreaterThan(0);
    expect(analytics.impressions).toBeLessThanOrEqual(await metric("IMPRESSION"));
    expect(analytics.likes).toBeLessThanOrEqual(await metric("REACTION"));
    expect(analytics.saves).toBe(0);
    const saves = await rest(
      `/memberCreatorPostAnalytics?q=entity&entity=(share:${encodeURIComponent(urn)})&queryType=POST_SAVE&aggregation=TOTAL`,
      token,
    );
    expect(saves.status).toBe(400);

    const stored = await env.DB.prepare("SELECT * FROM comments WHERE post_id = ?").bind(postId).all();
    expect(stored.results.length).toBeGreaterThanOrEqual(1);
    expect(stored.results).toHaveLength(analytics.comments);
    expect(stored.results[0]).toMatchObject({
      platform: "linkedin",
      platform_comment_id: expect.stringMatching(/^urn:li:comment:\(urn:li:share:\d+,\d+\)$/),
    });

    // Another member may read the comments (public) but not the numbers.
    const stranger = await tokenFor("stranger");
    expect((await rest(`/socialActions/${encodeURIComponent(urn)}/comments`, stranger)).status).toBe(200);
    const refused = await rest(
      `/memberCreatorPostAnalytics?q=entity&entity=(share:${encodeURIComponent(urn)})&queryType=IMPRESSION&aggregation=TOTAL`,
      stranger,
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 403, code: "ACCESS_DENIED" });

    const { publishingAdapter } = await import("../../src/platforms/index");
    const handle = await handleOf(linkedin);
    const reply = await publishingAdapter(env, "linkedin", "live").reply!(
      { handle, platformUserId: null, accessToken: null },
      urn,
      "Thanks all",
      "fp-reply",
    );
    expect(reply.id).toMatch(/^urn:li:comment:\(urn:li:share:\d+,\d+\)$/);
    expect((await sandboxPost(urn)).replies.map((r) => r.text)).toEqual(["Thanks all"]);
  });

  it("without member analytics granted (LINKEDIN_MEMBER_ANALYTICS unset): memberCreatorPostAnalytics is LinkedIn's 403 and the sync stores no numbers", async () => {
    delete vars.LINKEDIN_MEMBER_ANALYTICS;
    const t = await createTenant();
    const linkedin = t.accounts[1]!.id;
    const { rows } = await publishOn(t, linkedin, { content: [{ text: "No numbers here" }] });
    const urn = rows[0]!.platform_post_id!;
    const refused = await rest(
      `/memberCreatorPostAnalytics?q=entity&entity=(share:${encodeURIComponent(urn)})&queryType=IMPRESSION&aggregation=TOTAL`,
      await tokenFor(await handleOf(linkedin)),
    );
    expect(refused.status).toBe(403);
    await deliverSync([rows[0]!.id]);
    const synced = await env.DB.prepare("SELECT analytics FROM post_platforms WHERE id = ?")
      .bind(rows[0]!.id)
      .first<{ analytics: string | null }>();
    expect(
      synced!.analytics === null ? null : (JSON.parse(synced!.analytics)?.impressions ?? null),
    ).toBeNull();
  });

  it("syncs an organization post's metrics from socialMetadata and organizationalEntityShareStatistics", async () => {
    const t = await createTenant();
    const { id } = await connect(t, "sia", (labels) => labels.indexOf("sia Inc."));
    const { rows } = await publishOn(t, id, { content: [{ text: "Org numbers" }] });
    expect((await deliverSync([rows[0]!.id])).explicitAcks).toHaveLength(1);
    const synced = await env.DB.prepare("SELECT analytics FROM post_platforms WHERE id = ?")
      .bind(rows[0]!.id)
      .first<{ analytics: string }>();
    const analytics = JSON.parse(synced!.analytics);
    expect(analytics.impressions).toBeGreaterThan(0);
    expect(analytics.comments).toBeGreaterThanOrEqual(1);
    const token = await tokenFor("sia");
    const urn = rows[0]!.platform_post_id!;
    const social = await rest(`/socialMetadata/${encodeURIComponent(urn)}`, token);
    expect(social.status).toBe(200);
    const reactions = Object.values(social.body.reactionSummaries as Record<string, { count: number }>);
    expect(reactions.reduce((sum, r) => sum + r.count, 0)).toBeGreaterThanOrEqual(analytics.likes);
    expect(social.body.commentSummary.count).toBeGreaterThanOrEqual(analytics.comments);
  });

  it("answers LinkedIn's own errors: no version, a sunset version, no token", async () => {
    const token = await tokenFor("vic");
    const missing = await call("GET", "/sandbox/linkedin/rest/organizationAcls?q=roleAssignee", {
      headers: { authorization: `Bearer ${token}`, "x-restli-protocol-version": "2.0.0" },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ status: 400, code: "VERSION_MISSING" });
    const sunset = await rest("/organizationAcls?q=roleAssignee", token, { "linkedin-version": "202201" });
    expect(sunset.status).toBe(426);
    expect(sunset.body).toMatchObject({ status: 426, code: "NONEXISTENT_VERSION" });
    const anonymous = await rest("/organizationAcls?q=roleAssignee", null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({
      status: 401,
      serviceErrorCode: 65600,
      code: "INVALID_ACCESS_TOKEN",
    });
    const acls = await rest("/organizationAcls?q=roleAssignee&state=APPROVED", token);
    expect(acls.status).toBe(200);
    expect(acls.body.elements).toEqual([
      expect.objectContaining({
        role: "ADMINISTRATOR",
        state: "APPROVED",
        organization: expect.stringMatching(/^urn:li:organization:\d+$/),
      }),
    ]);
  });

  it("refreshes an expiring token through the service's refresh path (LinkedIn keeps the refresh token)", async () => {
    const t = await createTenant();
    const { id } = await connect(t, "rex", (labels) => labels.indexOf("rex"));
    const before = await account(id);
    await env.DB.prepare("UPDATE accounts SET token_expires_at = ? WHERE id = ?")
      .bind(Date.now() + 60_000, id)
      .run();
    const { rows } = await publishOn(t, id, { content: [{ text: "Fresh token" }] });
    expect(rows[0]!.status).toBe("PUBLISHED");
    const after = await account(id);
    expect(after.access_token_enc).not.toBe(before.access_token_enc);
    expect(after.token_expires_at).toBeGreaterThan(Date.now() + 86_400_000);
    expect(await stats("rex")).toMatchObject({ token_refreshes: 1, publications: 1 });
  });

  it("the user removes the app: the next call is LinkedIn's 401 REVOKED_ACCESS_TOKEN, the account needs reconnecting", async () => {
    const t = await createTenant();
    const { id } = await connect(t, "ruth", (labels) => labels.indexOf("ruth"));
    const revoked = await call("POST", "/sandbox/linkedin/accounts/ruth/revoke");
    expect(revoked.status).toBe(200);
    const { rows } = await publishOn(t, id, { content: [{ text: "Anyone there?" }] });
    expect(rows[0]).toMatchObject({ status: "FAILED", error: { code: "account_expired" } });
    expect((await account(id)).expired_at).toBeGreaterThan(0);
    expect(await sandboxPosts("linkedin", id)).toEqual([]);
  });

  it("disconnecting revokes the token at LinkedIn's revocation endpoint", async () => {
    const t = await createTenant();
    const { id } = await connect(t, "dana", (labels) => labels.indexOf("dana"));
    const { decryptSecret } = await import("../../src/lib/crypto");
    const token = await decryptSecret(env.ENCRYPTION_KEY, (await account(id)).access_token_enc);
    expect((await rest("/organizationAcls?q=roleAssignee", token)).status).toBe(200);
    expect((await call("DELETE", `/api/v1/accounts/${id}`, { key: t.key })).status).toBe(200);
    // The revocation runs after the answer (best effort): wait for it.
    const after = await waitFor(
      async () => {
        const res = await rest("/organizationAcls?q=roleAssignee", token);
        return res.status === 401 ? res : undefined;
      },
      { timeout: 5_000, what: "the token revoked" },
    );
    expect(after.body).toMatchObject({ code: "REVOKED_ACCESS_TOKEN", serviceErrorCode: 65602 });
  });
});

/** A token of the sandbox member `handle` (as the adapter mints for operator-created accounts). */
async function tokenFor(handle: string) {
  const { mintToken } = await import("../../src/sandbox/mint");
  return mintToken(env, "linkedin", handle);
}

/** The platform's consent URL a service authorize URL redirects to, and its scope. */
async function consentOf(authorizeUrl: string) {
  const browser = new Browser();
  const url = new URL(locationOf(await browser.get(authorizeUrl)));
  return { url, scope: url.searchParams.get("scope"), browser };
}

/** LinkedIn's authorize URL on the emulator, asking for `scope`. */
const authorizeWith = (scope: string) => {
  const url = new URL(`${ORIGIN}/sandbox/linkedin/oauth/v2/authorization`);
  url.searchParams.set("client_id", sandboxClient("linkedin").clientId);
  url.searchParams.set("redirect_uri", `${ORIGIN}/api/oauth/delegate/callback`);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", scope);
  url.searchParams.set("state", "st-1");
  return url.toString();
};

describe("LinkedIn app configurations (LINKEDIN_PRODUCTS)", () => {
  it("member (the default): connect and delegation ask for Sign In and Share's scopes; the profile is the account", async () => {
    delete vars.LINKEDIN_PRODUCTS;
    expect(configuredDefinition(SPECS.linkedin, env).connect.scopes).toEqual([
      "openid",
      "profile",
      "w_member_social",
    ]);
    const handle = `m${unique()}`;
    // One channel (the profile): stored at once, no chooser.
    const account = await connected("linkedin", handle);
    const row = await accountRow(account.accountId);
    expect(row.platform_user_id).toBe(`urn:li:person:${await sandboxPlatformId("linkedin", handle)}`);

    const app = await createApp();
    const delegation = await consentOf(await createSession(app, { platform: "linkedin" }));
    expect(delegation.scope).toBe("openid profile");
    const flow = await runFlow(await createSession(app, { platform: "linkedin" }), { handle });
    expect(`${flow.landed.origin}${flow.landed.pathname}`).toBe(APP_CALLBACK);
    expect(flow.landed.searchParams.get("platform_id")).toBe(await sandboxPlatformId("linkedin", handle));
  });

  it("member: the connect's consent URL carries no organization scope", async () => {
    vars.LINKEDIN_PRODUCTS = "member";
    const { key, workspace } = await connected("linkedin");
    const started = await call("POST", "/api/v1/accounts/connect", {
      key,
      body: { workspace_id: workspace.id, platform: "linkedin", redirect_url: "https://app.example.test/c" },
    });
    expect(started.status).toBe(201);
    expect((await consentOf(started.body.authorize_url)).scope).toBe("openid profile w_member_social");
  });

  it("community_management: its scopes only; delegation reads the basic profile; connect offers the pages", async () => {
    vars.LINKEDIN_PRODUCTS = "community_management";
    const app = await createApp();
    const handle = `c${unique()}`;
    const delegation = await consentOf(await createSession(app, { platform: "linkedin" }));
    expect(delegation.scope).toBe("r_basicprofile");
    const flow = await runFlow(await createSession(app, { platform: "linkedin" }), { handle });
    expect(flow.landed.searchParams.get("platform_id")).toBe(await sandboxPlatformId("linkedin", handle));

    // The chooser's first choice, the member's profile.
    const { key, workspace } = await connected("linkedin", `x${unique()}`);
    const start = async () => {
      const started = await call("POST", "/api/v1/accounts/connect", {
        key,
        body: {
          workspace_id: workspace.id,
          platform: "linkedin",
          redirect_url: "https://app.example.test/c",
        },
      });
      expect(started.status).toBe(201);
      return started.body.authorize_url as string;
    };
    const consent = await consentOf(await start());
    expect(consent.scope?.split(" ")).toEqual([
      "r_basicprofile",
      "w_member_social",
      "w_organization_social",
      "r_organization_social",
      "rw_organization_admin",
    ]);
    // Both channels on the chooser: the member and the page it administers.
    const chosen = await runFlow(await start(), {
      handle: `p${unique()}`,
      channel: (labels) => labels.length - 1,
    });
    expect(chosen.steps.channelHtml).toBeDefined();
    const row = await accountRow(Number(chosen.landed.searchParams.get("account_id")));
    expect(row.platform_user_id).toMatch(/^urn:li:organization:\d+$/);
  });

  it("the emulator refuses a scope outside the app's products with unauthorized_scope_error", async () => {
    vars.LINKEDIN_PRODUCTS = "member";
    const refused = await new Browser().get(authorizeWith("openid profile w_organization_social"));
    expect(refused.status).toBe(302);
    const back = new URL(locationOf(refused));
    expect(Object.fromEntries(back.searchParams)).toEqual({
      error: "unauthorized_scope_error",
      error_description: 'Scope "w_organization_social" is not authorized for your application',
      state: "st-1",
    });
    expect((await new Browser().get(authorizeWith("openid profile w_member_social"))).status).toBe(200);

    vars.LINKEDIN_PRODUCTS = "community_management";
    const openid = new URL(locationOf(await new Browser().get(authorizeWith("openid profile"))));
    expect(openid.searchParams.get("error")).toBe("unauthorized_scope_error");
    expect((await new Browser().get(authorizeWith("r_basicprofile w_organization_social"))).status).toBe(200);
    // Member post analytics only where the app was granted them (LINKEDIN_MEMBER_ANALYTICS).
    const analytics = new URL(
      locationOf(await new Browser().get(authorizeWith("r_basicprofile r_member_postAnalytics"))),
    );
    expect(analytics.searchParams.get("error")).toBe("unauthorized_scope_error");
    vars.LINKEDIN_MEMBER_ANALYTICS = "true";
    expect((await new Browser().get(authorizeWith("r_basicprofile r_member_postAnalytics"))).status).toBe(
      200,
    );
  });
});

describe("a follower's comments on LinkedIn (the sandbox's follower tool)", () => {
  it("are the post's comments, a reply the comment's own collection (parentComment); the member's own is is_own", async () => {
    delete vars.LINKEDIN_PRODUCTS;
    const account = await connected("linkedin");
    const { rows } = await published(account, { content: [{ text: "Talk to me" }] });
    const postUrn = rows[0]!.platform_post_id!;
    const { first, second, own } = await conversation("linkedin", account, postUrn);
    expect(first.body.id).toBe(`urn:li:comment:(${postUrn},${first.body.id.split(",")[1]!.slice(0, -1)})`);

    const { adapter, auth } = await adapterFor("linkedin", account);
    const comments = await adapter.comments!(auth, postUrn);
    expect(comments.find((c) => c.id === first.body.id)).toMatchObject({
      content: "Love it",
      parent_id: null,
      is_own: false,
      contact: { username: expect.stringMatching(/^urn:li:person:/) },
    });
    expect(comments.find((c) => c.id === second.body.id)).toMatchObject({
      content: "Me too",
      parent_id: first.body.id,
      is_own: false,
    });
    expect(comments.find((c) => c.id === own.body.id)).toMatchObject({
      parent_id: first.body.id,
      is_own: true,
    });
    // The stored row names the account by its URN: the same answer.
    const row = await accountRow(account.accountId);
    const asStored = await adapter.comments!({ ...auth, platformUserId: row.platform_user_id }, postUrn);
    expect(asStored.find((c) => c.id === own.body.id)?.is_own).toBe(true);
  });
});

describe("managing comments on LinkedIn (Comments API: nested comments, delete as the actor)", () => {
  it("answers a comment as the account (under the top-level comment when it answers an answer); the answer reads back as its own", async () => {
    delete vars.LINKEDIN_PRODUCTS;
    const account = await connected("linkedin");
    const { rows } = await published(account, { content: [{ text: "Ask me" }] });
    const postUrn = rows[0]!.platform_post_id!;
    const { first, second } = await conversation("linkedin", account, postUrn);
    const { adapter, auth } = await adapterFor("linkedin", account);
    const ref = (id: string, parentId: string | null) => ({
      id,
      postId: postUrn,
      parentId,
      isOwn: false,
      hidden: false,
    });

    const answer = await adapter.replyToComment!(auth, ref(first.body.id, null), "Glad you do");
    expect(answer.id).toMatch(new RegExp(`^urn:li:comment:\\(${postUrn.replace(/[:.]/g, "\\$&")},\\d+\\)$`));
    expect(answer.url).toContain(encodeURIComponent(answer.id));
    // LinkedIn nests one level: an answer to fan_two's answer is posted under Fan One's comment.
    const deeper = await adapter.replyToComment!(auth, ref(second.body.id, first.body.id), "You too");

    const comments = await adapter.comments!(auth, postUrn);
    expect(comments.find((c) => c.id === answer.id)).toMatchObject({
      content: "Glad you do",
      parent_id: first.body.id,
      is_own: true,
    });
    expect(comments.find((c) => c.id === deeper.id)).toMatchObject({
      parent_id: first.body.id,
      is_own: true,
    });
  });

  it("deletes the account's own comment (gone from the list; deleting it again resolves); a follower's is refused", async () => {
    delete vars.LINKEDIN_PRODUCTS;
    const account = await connected("linkedin");
    const { rows } = await published(account, { content: [{ text: "Delete me later" }] });
    const postUrn = rows[0]!.platform_post_id!;
    const { first } = await conversation("linkedin", account, postUrn);
    const { adapter, auth } = await adapterFor("linkedin", account);
    const parent = { id: first.body.id, postId: postUrn, parentId: null, isOwn: false, hidden: false };
    const answer = await adapter.replyToComment!(auth, parent, "Oops");
    const own = { id: answer.id, postId: postUrn, parentId: first.body.id, isOwn: true, hidden: false };

    await adapter.deleteComment!(auth, own);
    const after = await adapter.comments!(auth, postUrn);
    expect(after.map((c) => c.id)).not.toContain(answer.id);
    expect(after.map((c) => c.id)).toContain(first.body.id);
    await expect(adapter.deleteComment!(auth, own)).resolves.toBeUndefined();

    // The rules refuse it before any call; LinkedIn itself answers 403 to an actor not the author.
    expect(SPECS.linkedin.commentRules?.("delete", parent)).toMatch(/own comments/);
    await expect(adapter.deleteComment!(auth, parent)).rejects.toMatchObject({
      kind: "permanent",
      code: "access_denied",
    });
  });

  it("refuses a comment as an organization when the app lacks w_organization_social (403)", async () => {
    vars.LINKEDIN_PRODUCTS = "community_management";
    const t = await createTenant();
    const { id } = await connect(t, `o${unique()}`, (labels) => labels.findIndex((l) => l.endsWith("Inc.")));
    const { rows } = await publishOn(t, id, { content: [{ text: "From the page" }] });
    const postUrn = rows[0]!.platform_post_id!;
    const row = await accountRow(id);
    const auth = { handle: row.username, platformUserId: row.platform_user_id, accessToken: row.accessToken };
    const { adapter } = await adapterFor("linkedin", {
      accountId: id,
      handle: row.username,
      platformId: row.platform_user_id,
    } as never);
    const top = {
      id: `urn:li:comment:(${postUrn},1)`,
      postId: postUrn,
      parentId: null,
      isOwn: false,
      hidden: false,
    };

    vars.LINKEDIN_PRODUCTS = "member";
    await expect(adapter.replyToComment!(auth, top, "Thanks")).rejects.toMatchObject({
      kind: "permanent",
      code: "access_denied",
      message: expect.stringContaining("w_organization_social"),
    });
  });
});
