// Instagram on its emulator, end to end through the worker and the real adapter: a connect through the
// consent page (short-lived token, ig_exchange_token for a 60-day one), photo, reel and carousel posts as
// Instagram's containers and media_publish received them, Instagram's refusals in Meta's error format,
// the failure triggers, insights in Instagram's metric names, comments and a reply, the refresh of a
// long-lived token through the service's own refresh path, and a user removing the app.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { instagram } from "../../src/platforms/instagram/index";
import { PlatformError } from "../../src/platforms/types";
import { deliver as deliverSync } from "../analytics/queue";
import { deliver, rowsOf } from "../publishing/support";
import { call } from "../support/client";
import { insertMedia } from "../support/db";
import {
  accountRow,
  adapterFor,
  connected,
  conversation,
  emulatedDeps,
  expectAnswersRead,
  graph,
  postsOf,
  published,
  statsOf,
} from "./support";

const V = "/v25.0";

afterEach(() => {
  vi.useRealTimers();
});

describe("Instagram on its emulator", () => {
  it("connects with a long-lived token and the account's Instagram user id", async () => {
    const before = Date.now();
    const account = await connected("instagram");
    const row = await accountRow(account.accountId);
    expect(row.platform_user_id).toBe(account.platformId);
    expect(row.platform_user_id).toMatch(/^178414\d{11}$/);
    expect(row.username).toBe(account.handle);
    // The exchange's 60 days, not the code's hour; the long-lived token is its own refresh token.
    const expires = Number(row.token_expires_at);
    expect(expires - before).toBeGreaterThan(59 * 86_400_000);
    expect(row.refreshToken).toBe(row.accessToken);
    const me = await graph("instagram", "GET", `${V}/me?fields=user_id,username`, account.handle);
    expect(me.body).toMatchObject({ user_id: account.platformId, username: account.handle });
  });

  it("publishes a photo as a container then media_publish: exactly one publication, Instagram's field names", async () => {
    const account = await connected("instagram");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const { rows } = await published(account, { content: [{ text: "Sunset", media: [photo] }] });
    const [post] = await postsOf("instagram", account.handle);
    expect(rows[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: post!.id,
      post_url: `https://api.example.test/sandbox/instagram/posts/${post!.id}`,
    });
    expect(post!.id).toMatch(/^\d{17}$/);
    expect(post!.text).toEqual(["Sunset"]);
    expect(new URL(post!.media[0]!.url).pathname).toBe(`/media/${photo}`);
    const container = post!.platform_request.media;
    expect(container).toMatchObject({ caption: "Sunset", image_url: post!.media[0]!.url });
    expect(post!.platform_request.media_publish.creation_id).toMatch(/^\d{17}$/);
    expect(await statsOf("instagram", account.handle)).toEqual({
      publications: 1,
      media_uploads: 1,
      token_refreshes: 0,
    });
  });

  it("publishes a reel, and a carousel from its children, the second item as a comment", async () => {
    const account = await connected("instagram");
    const clip = await insertMedia(account.workspace.id, { mime_type: "video/mp4", type: "video" });
    const a = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const b = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    // Videos process for a few seconds: the polls move the clock instead of waiting.
    const deps = emulatedDeps();
    const reel = await published(account, { content: [{ text: "Reel", media: [clip] }] }, 1, deps);
    expect(reel.rows[0]!.status).toBe("PUBLISHED");
    const carousel = await published(
      account,
      { content: [{ text: "Album", media: [a, clip, b] }, { text: "First comment" }] },
      1,
      deps,
    );
    expect(carousel.rows[0]!.status).toBe("PUBLISHED");
    const [first, second] = await postsOf("instagram", account.handle);
    expect(first!.platform_request.media).toMatchObject({
      media_type: "REELS",
      caption: "Reel",
      share_to_feed: "true",
    });
    expect(first!.media[0]!.type).toBe("video/mp4");
    expect(second!.platform_request.media).toMatchObject({ media_type: "CAROUSEL", caption: "Album" });
    expect(second!.platform_request.children).toEqual([
      expect.objectContaining({ is_carousel_item: "true", image_url: expect.any(String) }),
      expect.objectContaining({
        is_carousel_item: "true",
        media_type: "VIDEO",
        video_url: expect.any(String),
      }),
      expect.objectContaining({ is_carousel_item: "true", image_url: expect.any(String) }),
    ]);
    expect(second!.media.map((m) => m.type)).toEqual(["image/jpeg", "video/mp4", "image/jpeg"]);
    expect(second!.replies.map((r) => r.text)).toEqual(["First comment"]);
    // Reel + 3 children + the carousel container.
    expect((await statsOf("instagram", account.handle)).media_uploads).toBe(5);
  });

  it("refuses what Instagram refuses, in Meta's error format", async () => {
    const account = await connected("instagram");
    const node = `${V}/${account.platformId}`;
    const textOnly = await graph("instagram", "POST", `${node}/media`, account.handle, {
      caption: "Just words",
    });
    expect(textOnly.status).toBe(400);
    expect(textOnly.body.error).toMatchObject({
      type: "OAuthException",
      code: 100,
      message: "(#100) The parameter image_url is required.",
      fbtrace_id: expect.any(String),
    });
    const long = await graph("instagram", "POST", `${node}/media`, account.handle, {
      image_url: "https://cdn.example.test/a.jpg",
      caption: "x".repeat(2201),
    });
    expect(long.body.error.code).toBe(100);
    const lonely = await graph("instagram", "POST", `${node}/media`, account.handle, {
      media_type: "CAROUSEL",
      children: "1",
    });
    expect(lonely.body.error.message).toContain("2 to 10 children");
    // Another account's node, an unknown media, and insights of someone else's media.
    const other = await graph("instagram", "GET", `${V}/17841400000000000/media`, account.handle);
    expect(other.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const noToken = await call("GET", `/sandbox/instagram${V}/me`);
    expect(noToken.status).toBe(400);
    expect(noToken.body.error).toMatchObject({ type: "OAuthException", code: 190 });
    expect(noToken.headers.get("www-authenticate")).toContain("invalid_token");
    // And the engine: the platform's check refuses a text-only post before any call.
    const refused = await published(account, { content: [{ text: "No media" }] });
    expect(refused.rows[0]).toMatchObject({
      status: "FAILED",
      error: { message: expect.stringContaining("publishes no text-only posts") },
    });
    expect(await postsOf("instagram", account.handle)).toEqual([]);
  });

  it("answers insights in Instagram's metric names to the owner only, and comments to anyone", async () => {
    const account = await connected("instagram");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const { rows } = await published(account, { content: [{ text: "Counted", media: [photo] }] });
    const mediaId = rows[0]!.platform_post_id!;
    const raw = await graph(
      "instagram",
      "GET",
      `${V}/${mediaId}/insights?metric=views,reach,likes,comments,shares,saved,total_interactions`,
      account.handle,
    );
    expect(raw.status).toBe(200);
    const value = (name: string) => raw.body.data.find((m: any) => m.name === name).values[0].value as number;
    expect(raw.body.data.map((m: any) => [m.name, m.period])).toEqual(
      ["views", "reach", "likes", "comments", "shares", "saved", "total_interactions"].map((n) => [
        n,
        "lifetime",
      ]),
    );
    expect(value("views")).toBeGreaterThan(0);
    expect(value("total_interactions")).toBe(
      value("likes") + value("comments") + value("shares") + value("saved"),
    );
    const deprecated = await graph(
      "instagram",
      "GET",
      `${V}/${mediaId}/insights?metric=impressions`,
      account.handle,
    );
    expect(deprecated.body.error.message).toContain("metric[0] must be one of");
    const stranger = await graph("instagram", "GET", `${V}/${mediaId}/insights?metric=views`, "someone_else");
    expect(stranger.body.error).toMatchObject({ code: 10 });

    const { adapter, auth } = await adapterFor("instagram", account);
    const metrics = await adapter.insights(auth, mediaId);
    expect(metrics).toMatchObject({
      impressions: value("views"),
      likes: value("likes"),
      comments: value("comments"),
      shares: value("shares"),
      saves: value("saved"),
    });
    const comments = await adapter.comments!(auth, mediaId);
    expect(comments.length).toBe(value("comments"));
    expect(comments[0]!.author_name).not.toBe(account.handle);
    const seen = await graph(
      "instagram",
      "GET",
      `${V}/${mediaId}/comments?fields=id,text,username`,
      "someone_else",
    );
    expect(seen.body.data).toHaveLength(comments.length);

    // A reply is a comment by the account; find recognises it by its text.
    const reply = await adapter.reply!(auth, mediaId, "Link in bio", "fp-1");
    const found = await adapter.find(auth, { fingerprint: "fp-1", text: "Link in bio", replyTo: mediaId });
    expect(found?.id).toBe(reply.id);
    const [post] = await postsOf("instagram", account.handle);
    expect(post!.replies.map((r) => r.text)).toEqual(["Link in bio"]);
  });

  it("a story's insights last 24 hours: past them the sync keeps the stored metrics, never 0s", async () => {
    const account = await connected("instagram");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const { rows } = await published(account, {
      content: [{ text: "", media: [photo] }],
      settings: { instagram: { post_type: "story" } },
    });
    const [row] = rows;
    expect(row!.status).toBe("PUBLISHED");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60 * 60_000 });
    expect((await deliverSync([row!.id])).retryMessages).toEqual([]);
    const early = await analyticsOf(row!.id);
    expect(early?.impressions).toBeGreaterThan(0);

    // A day and an hour after publication: Instagram answers an empty data set (Media Insights ›
    // Limitations: story metrics are only available for 24 hours).
    vi.setSystemTime(Date.now() + 24 * 3_600_000);
    const raw = await graph(
      "instagram",
      "GET",
      `${V}/${row!.platform_post_id}/insights?metric=views,reach,shares`,
      account.handle,
    );
    expect(raw.body).toEqual({ data: [] });
    expect((await deliverSync([row!.id])).retryMessages).toEqual([]);
    const late = await analyticsOf(row!.id);
    expect(late).toEqual(early);
  });

  it("draws ids that grow with time, as Meta's do: containers and media in the order they were made", async () => {
    const account = await connected("instagram");
    const node = `${V}/${account.platformId}`;
    const containers: string[] = [];
    const media: string[] = [];
    for (let n = 0; n < 6; n++) {
      const made = await graph("instagram", "POST", `${node}/media`, account.handle, {
        image_url: `https://cdn.example.test/${n}.jpg`,
        caption: `Photo ${n}`,
      });
      containers.push(made.body.id);
      const out = await graph("instagram", "POST", `${node}/media_publish`, account.handle, {
        creation_id: made.body.id,
      });
      media.push(out.body.id);
    }
    const growing = (ids: string[]) => ids.every((id, n) => n === 0 || BigInt(id) > BigInt(ids[n - 1]!));
    expect(containers.every((id) => /^\d{17}$/.test(id))).toBe(true);
    expect(growing(containers)).toBe(true);
    expect(growing(media)).toBe(true);
    // The account's media edge, newest first, is in decreasing id order.
    const listed = await graph("instagram", "GET", `${node}/media?fields=id`, account.handle);
    expect(listed.body.data.map((m: { id: string }) => m.id)).toEqual([...media].reverse());
  });

  it("#sandbox-fail: FAILED with Meta's refusal, nothing published", async () => {
    const account = await connected("instagram");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const { rows, delivery } = await published(account, {
      content: [{ text: "Bad #sandbox-fail", media: [photo] }],
    });
    expect(delivery).toMatchObject({ acks: 1, retries: 0 });
    expect(rows[0]).toMatchObject({
      status: "FAILED",
      error: { code: "restricted", message: expect.stringContaining("#sandbox-fail") },
    });
    expect(await postsOf("instagram", account.handle)).toEqual([]);
  });

  it("#sandbox-ratelimit: Instagram's 80002 with X-Business-Use-Case-Usage, retried after its minute", async () => {
    const account = await connected("instagram");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const first = await published(account, {
      content: [{ text: "Busy #sandbox-ratelimit", media: [photo] }],
    });
    expect(first.delivery).toMatchObject({ retries: 1, delays: [60] });
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING", error: { code: "rate_limited" } });
    await deliver([{ post_id: first.id }], { attempts: 2 });
    expect((await rowsOf(first.id))[0]!.status).toBe("PUBLISHED");
    expect(await postsOf("instagram", account.handle)).toHaveLength(1);
  });

  it("answers a throttled media_publish with Meta's headers", async () => {
    const account = await connected("instagram");
    const node = `${V}/${account.platformId}`;
    const created = await graph("instagram", "POST", `${node}/media`, account.handle, {
      image_url: "https://cdn.example.test/a.jpg",
      caption: "Direct #sandbox-ratelimit",
    });
    const answer = await graph("instagram", "POST", `${node}/media_publish`, account.handle, {
      creation_id: created.body.id,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 80002, is_transient: true });
    const usage = JSON.parse(answer.headers.get("x-business-use-case-usage")!);
    expect(usage[account.platformId][0]).toMatchObject({
      type: "instagram",
      estimated_time_to_regain_access: 1,
    });
  });

  it("#sandbox-flaky: a transient Meta error twice, then published once", async () => {
    const account = await connected("instagram");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const first = await published(account, { content: [{ text: "Wobbly #sandbox-flaky", media: [photo] }] });
    expect(first.delivery).toMatchObject({ retries: 1, delays: [10] });
    expect(first.rows[0]).toMatchObject({
      status: "PUBLISHING",
      error: { message: expect.stringContaining("attempt 1") },
    });
    await deliver([{ post_id: first.id }], { attempts: 2 });
    await deliver([{ post_id: first.id }], { attempts: 3 });
    expect((await rowsOf(first.id))[0]).toMatchObject({ status: "PUBLISHED", attempts: 3 });
    expect(await postsOf("instagram", account.handle)).toHaveLength(1);
  });

  it("#sandbox-lost: the lost answer is found by its caption, published exactly once", async () => {
    const account = await connected("instagram");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const first = await published(account, {
      content: [{ text: "Where did it go #sandbox-lost", media: [photo] }],
    });
    expect(first.delivery.retries).toBe(1);
    await deliver([{ post_id: first.id }], { attempts: 2 });
    const posts = await postsOf("instagram", account.handle);
    expect(posts).toHaveLength(1);
    expect((await rowsOf(first.id))[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: posts[0]!.id,
    });
  });

  it("#sandbox-slow: the container stays IN_PROGRESS and media_publish is refused until it is done", async () => {
    const account = await connected("instagram");
    const node = `${V}/${account.platformId}`;
    const created = await graph("instagram", "POST", `${node}/media`, account.handle, {
      image_url: "https://cdn.example.test/a.jpg",
      caption: "Heavy #sandbox-slow",
    });
    const status = await graph(
      "instagram",
      "GET",
      `${V}/${created.body.id}?fields=status_code`,
      account.handle,
    );
    expect(status.body).toEqual({ id: created.body.id, status_code: "IN_PROGRESS" });
    const early = await graph("instagram", "POST", `${node}/media_publish`, account.handle, {
      creation_id: created.body.id,
    });
    expect(early.body.error).toMatchObject({ code: 9007 });
  });

  it("refreshes the long-lived token through the service once it is a day old; not before", async () => {
    const account = await connected("instagram");
    const { adapter } = await adapterFor("instagram", account);
    const row = await accountRow(account.accountId);
    // Too young: Meta refuses a token less than 24 hours old.
    const young = await adapter.refreshToken(row.refreshToken!).catch((error) => error);
    expect(young).toBeInstanceOf(PlatformError);
    expect((young as PlatformError).kind).not.toBe("transient");
    expect((await statsOf("instagram", account.handle)).token_refreshes).toBe(0);

    // 59 days and 23 hours and some on: the service refreshes before it uses the token.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60 * 86_400_000 - 4 * 60_000 });
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const { rows } = await published(account, { content: [{ text: "Still here", media: [photo] }] });
    expect(rows[0]!.status).toBe("PUBLISHED");
    expect((await statsOf("instagram", account.handle)).token_refreshes).toBe(1);
    const after = await accountRow(account.accountId);
    expect(after.accessToken).not.toBe(row.accessToken);
    expect(Number(after.token_expires_at)).toBeGreaterThan(Date.now() + 59 * 86_400_000);
  });

  it("revoke: the user removes the app; the next publish is refused and the account needs reconnecting", async () => {
    const account = await connected("instagram");
    const revoked = await call("POST", `/sandbox/instagram/accounts/${account.handle}/revoke`);
    expect(revoked.status).toBe(200);
    const row = await accountRow(account.accountId);
    const me = await fetchMe(row.accessToken!);
    expect(me.error).toMatchObject({ code: 190, error_subcode: 458 });
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const { rows } = await published(account, { content: [{ text: "After revoke", media: [photo] }] });
    expect(rows[0]!.status).toBe("FAILED");
    const after = await accountRow(account.accountId);
    expect(after.expired_at).not.toBeNull();
    const shown = await call("GET", `/api/v1/accounts/${account.accountId}`, { key: account.key });
    expect(shown.body.health).toMatchObject({ status: "reauth_required" });
    expect(await postsOf("instagram", account.handle)).toEqual([]);
  });
});

async function analyticsOf(rowId: number) {
  const row = await env.DB.prepare("SELECT analytics FROM post_platforms WHERE id = ?")
    .bind(rowId)
    .first<{ analytics: string | null }>();
  return JSON.parse(row?.analytics ?? "null") as Record<string, number> | null;
}

async function fetchMe(token: string) {
  const res = await call("GET", `/sandbox/instagram${V}/me?fields=user_id`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return res.body as { error?: Record<string, unknown> };
}

describe("a follower's comments on Instagram (the sandbox's follower tool)", () => {
  it("are the media's comments, a reply in its comment's replies edge (parent_id), with from, hidden and is_own", async () => {
    const account = await connected("instagram");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const { rows } = await published(account, { content: [{ text: "Talk to me", media: [photo] }] });
    const id = rows[0]!.platform_post_id!;
    // The account answers fan_two's reply: a reply to a reply answers the top-level comment, as
    // Instagram keeps two levels.
    const { first, second, own } = await conversation("instagram", account, id, "second");
    expect(own.body.parent_id).toBe(first.body.id);

    const { adapter, auth } = await adapterFor("instagram", account);
    const comments = await adapter.comments!(auth, id);
    expect(comments.find((c) => c.id === first.body.id)).toMatchObject({
      content: "Love it",
      author_name: "fan_one",
      parent_id: null,
      is_own: false,
      hidden: false,
      url: null,
      contact: { username: "fan_one", profile_url: "https://www.instagram.com/fan_one/" },
    });
    expectAnswersRead(comments, { first, second, own });
    // The media's edge lists top-level comments only.
    const edge = await graph("instagram", "GET", `${V}/${id}/comments?fields=id,parent_id`, account.handle);
    const ids = edge.body.data.map((c: { id: string }) => c.id);
    expect(ids).toContain(first.body.id);
    expect(ids).not.toContain(second.body.id);
  });

  it("the account answers, hides, shows again and deletes a comment through the adapter; the rules refuse what Instagram does", async () => {
    const account = await connected("instagram");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const { rows } = await published(account, { content: [{ text: "Moderate me", media: [photo] }] });
    const id = rows[0]!.platform_post_id!;
    const { first, second } = await conversation("instagram", account, id);
    const { adapter, auth } = await adapterFor("instagram", account);
    const ref = { id: first.body.id, postId: id, parentId: null, isOwn: false, hidden: false };

    const reply = await adapter.replyToComment!(auth, ref, "Glad you like it");
    expect(reply).toMatchObject({ id: expect.any(String), url: expect.stringContaining("/posts/") });
    const read = async () => adapter.comments!(auth, id);
    expect((await read()).find((c) => c.id === reply.id)).toMatchObject({
      content: "Glad you like it",
      parent_id: first.body.id,
      is_own: true,
    });

    await adapter.hideComment!(auth, ref, true);
    expect((await read()).find((c) => c.id === first.body.id)?.hidden).toBe(true);
    // A hidden comment takes no reply: the rule says so, and the emulator refuses it too.
    expect(instagram.commentRules!("reply", { ...ref, hidden: true })).toMatch(/hidden/);
    await expect(adapter.replyToComment!(auth, ref, "again")).rejects.toMatchObject({ kind: "permanent" });
    await adapter.hideComment!(auth, ref, false);
    expect((await read()).find((c) => c.id === first.body.id)?.hidden).toBe(false);

    // Only top-level comments take a reply; the account's own comments cannot be hidden.
    const nested = { ...ref, id: second.body.id, parentId: first.body.id };
    expect(instagram.commentRules!("reply", nested)).toMatch(/top-level/);
    expect(instagram.commentRules!("hide", { ...ref, isOwn: true })).toMatch(/own comments/);
    expect(instagram.commentRules!("delete", nested)).toBeNull();

    await adapter.deleteComment!(auth, nested);
    expect((await read()).map((c) => c.id)).not.toContain(second.body.id);
    // Deleting again resolves; another account cannot reach the comment (Meta's unknown object).
    await adapter.deleteComment!(auth, nested);
    const other = await connected("instagram");
    const foreign = await graph("instagram", "DELETE", `${V}/${first.body.id}`, other.handle);
    expect(foreign.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });
});
