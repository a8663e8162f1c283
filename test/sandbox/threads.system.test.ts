// Threads on its emulator, end to end through the worker and the real adapter: a connect through the
// consent page (short-lived token, th_exchange_token for a 60-day one), text, image, carousel and a
// thread published as a reply chain, as Threads' containers and threads_publish received them, its
// refusals in Meta's error format, the failure triggers, insights in Threads' metric names, replies as
// comments and the auto-plug reply, the refresh of a long-lived token and a user removing the app.
import { afterEach, describe, expect, it, vi } from "vitest";
import { threads } from "../../src/platforms/threads/index";
import { PlatformError } from "../../src/platforms/types";
import { deliver, rowsOf } from "../publishing/support";
import { call } from "../support/client";
import { insertMedia } from "../support/db";
import {
  accountRow,
  adapterFor,
  connected,
  conversation,
  expectAnswersRead,
  graph,
  postsOf,
  published,
  statsOf,
} from "./support";

const V = "/v1.0";

afterEach(() => {
  vi.useRealTimers();
});

describe("Threads on its emulator", () => {
  it("connects with a long-lived token and the user's Threads id", async () => {
    const before = Date.now();
    const account = await connected("threads");
    const row = await accountRow(account.accountId);
    expect(row.platform_user_id).toBe(account.platformId);
    expect(row.platform_user_id).toMatch(/^\d{17}$/);
    expect(Number(row.token_expires_at) - before).toBeGreaterThan(59 * 86_400_000);
    expect(row.refreshToken).toBe(row.accessToken);
    const me = await graph("threads", "GET", `${V}/me?fields=id,username`, account.handle);
    expect(me.body).toEqual({ id: account.platformId, username: account.handle });
  });

  it("publishes a text post: one TEXT container, one threads_publish, one publication", async () => {
    const account = await connected("threads");
    const { rows } = await published(account, {
      content: [{ text: "Hello Threads" }],
      settings: { threads: { reply_control: "accounts_you_follow", topic_tag: "Sandbox" } },
    });
    const [post] = await postsOf("threads", account.handle);
    expect(rows[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: post!.id,
      post_url: `https://api.example.test/sandbox/threads/posts/${post!.id}`,
    });
    expect(post!.platform_request.threads).toEqual({
      media_type: "TEXT",
      text: "Hello Threads",
      reply_control: "accounts_you_follow",
      topic_tag: "Sandbox",
    });
    expect(post!.platform_request.threads_publish.creation_id).toMatch(/^\d{18}$/);
    expect(await statsOf("threads", account.handle)).toEqual({
      publications: 1,
      media_uploads: 0,
      token_refreshes: 0,
    });
  });

  it("draws ids that grow with time, as Meta's do: containers and posts in the order they were made", async () => {
    const account = await connected("threads");
    const node = `${V}/${account.platformId}`;
    const containers: string[] = [];
    const posts: string[] = [];
    for (let n = 0; n < 6; n++) {
      const made = await graph("threads", "POST", `${node}/threads`, account.handle, {
        media_type: "TEXT",
        text: `Post ${n}`,
      });
      containers.push(made.body.id);
      const out = await graph("threads", "POST", `${node}/threads_publish`, account.handle, {
        creation_id: made.body.id,
      });
      posts.push(out.body.id);
    }
    const growing = (ids: string[]) => ids.every((id, n) => n === 0 || BigInt(id) > BigInt(ids[n - 1]!));
    expect(containers.every((id) => /^\d{18}$/.test(id))).toBe(true);
    expect(growing(containers)).toBe(true);
    expect(growing(posts)).toBe(true);
  });

  it("publishes an image, a carousel, and a thread as a chain of replies", async () => {
    const account = await connected("threads");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/png" });
    const clip = await insertMedia(account.workspace.id, { mime_type: "video/mp4", type: "video" });
    const image = await published(account, { content: [{ text: "A view", media: [photo] }] });
    expect(image.rows[0]!.status).toBe("PUBLISHED");
    const album = await published(account, { content: [{ text: "Album", media: [photo, clip] }] });
    expect(album.rows[0]!.status).toBe("PUBLISHED");
    const thread = await published(account, {
      content: [{ text: "One" }, { text: "Two" }, { text: "Three", media: [photo] }],
    });
    expect(thread.rows[0]!.status).toBe("PUBLISHED");
    const [first, second, root] = await postsOf("threads", account.handle);
    expect(first!.platform_request.threads).toMatchObject({
      media_type: "IMAGE",
      text: "A view",
      image_url: first!.media[0]!.url,
    });
    expect(second!.platform_request.threads).toMatchObject({ media_type: "CAROUSEL", text: "Album" });
    expect(second!.platform_request.children).toEqual([
      expect.objectContaining({ media_type: "IMAGE", is_carousel_item: "true" }),
      expect.objectContaining({ media_type: "VIDEO", is_carousel_item: "true" }),
    ]);
    expect(second!.media.map((m) => m.type)).toEqual(["image/jpeg", "video/mp4"]);
    // The thread: the root lists its reply, which has its own.
    expect(root!.id).toBe(thread.rows[0]!.platform_post_id);
    expect(root!.replies.map((r) => r.text)).toEqual(["Two"]);
    const two = await call("GET", `/sandbox/threads/posts/${root!.replies[0]!.id}`, {
      headers: { accept: "application/json" },
    });
    expect(two.body.platform_request.threads).toMatchObject({
      media_type: "TEXT",
      text: "Two",
      reply_to_id: root!.id,
    });
    expect(two.body.replies.map((r: { text: string }) => r.text)).toEqual(["Three"]);
    expect(await statsOf("threads", account.handle)).toMatchObject({ publications: 5 });
  });

  it("refuses what Threads refuses, in Meta's error format", async () => {
    const account = await connected("threads");
    const node = `${V}/${account.platformId}`;
    const noType = await graph("threads", "POST", `${node}/threads`, account.handle, { text: "Hi" });
    expect(noType.status).toBe(400);
    expect(noType.body.error).toMatchObject({
      type: "THApiException",
      code: 100,
      message: "(#100) The parameter media_type is required.",
      fbtrace_id: expect.any(String),
    });
    const long = await graph("threads", "POST", `${node}/threads`, account.handle, {
      media_type: "TEXT",
      text: "x".repeat(501),
    });
    expect(long.body.error.message).toContain("500 characters");
    const empty = await graph("threads", "POST", `${node}/threads`, account.handle, { media_type: "TEXT" });
    expect(empty.body.error.message).toContain("text is required");
    const orphan = await graph("threads", "POST", `${node}/threads`, account.handle, {
      media_type: "TEXT",
      text: "Reply",
      reply_to_id: "17999999999999999",
    });
    expect(orphan.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const notMine = await graph("threads", "POST", `${V}/12345678901234567/threads`, account.handle, {
      media_type: "TEXT",
      text: "Hi",
    });
    expect(notMine.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const expiredShape = await call("GET", `/sandbox/threads${V}/me`, {
      headers: { authorization: "Bearer nope" },
    });
    expect(expiredShape.body.error).toMatchObject({ type: "OAuthException", code: 190 });
  });

  it("answers insights in Threads' metric names to the owner only, and replies to anyone", async () => {
    const account = await connected("threads");
    const { rows } = await published(account, { content: [{ text: "Counted" }] });
    const id = rows[0]!.platform_post_id!;
    const raw = await graph(
      "threads",
      "GET",
      `${V}/${id}/insights?metric=views,likes,replies,reposts,quotes,shares`,
      account.handle,
    );
    expect(raw.status).toBe(200);
    const value = (name: string) => raw.body.data.find((m: any) => m.name === name).values[0].value as number;
    expect(raw.body.data.map((m: any) => m.name)).toEqual([
      "views",
      "likes",
      "replies",
      "reposts",
      "quotes",
      "shares",
    ]);
    expect(value("views")).toBeGreaterThan(0);
    const wrong = await graph("threads", "GET", `${V}/${id}/insights?metric=impressions`, account.handle);
    expect(wrong.body.error.message).toContain("metric[0] must be one of");
    const stranger = await graph("threads", "GET", `${V}/${id}/insights?metric=views`, "someone_else");
    expect(stranger.body.error).toMatchObject({ code: 10 });

    const { adapter, auth } = await adapterFor("threads", account);
    expect(await adapter.insights(auth, id)).toMatchObject({
      impressions: value("views"),
      likes: value("likes"),
      comments: value("replies"),
      shares: value("reposts") + value("shares"),
      quotes: value("quotes"),
    });
    const comments = await adapter.comments!(auth, id);
    expect(comments.length).toBe(value("replies"));
    const public_ = await graph(
      "threads",
      "GET",
      `${V}/${id}/replies?fields=id,text,username`,
      "someone_else",
    );
    expect(public_.body.data).toHaveLength(comments.length);

    // The auto-plug: a reply of the account's, found again by its text among the post's replies.
    const reply = await adapter.reply!(auth, id, "More at example.test", "fp-1");
    const found = await adapter.find(auth, {
      fingerprint: "fp-1",
      text: "More at example.test",
      replyTo: id,
    });
    expect(found?.id).toBe(reply.id);
    // Its own replies are not comments.
    expect((await adapter.comments!(auth, id)).map((c) => c.content)).not.toContain("More at example.test");
  });

  it("#sandbox-fail: FAILED with Threads' refusal, nothing published", async () => {
    const account = await connected("threads");
    const { rows, delivery } = await published(account, { content: [{ text: "Bad #sandbox-fail" }] });
    expect(delivery).toMatchObject({ acks: 1, retries: 0 });
    expect(rows[0]).toMatchObject({
      status: "FAILED",
      error: { message: expect.stringContaining("#sandbox-fail") },
    });
    expect(await postsOf("threads", account.handle)).toEqual([]);
  });

  it("#sandbox-ratelimit: Meta's code 4 with X-App-Usage, retried after the default wait", async () => {
    const account = await connected("threads");
    const first = await published(account, { content: [{ text: "Busy #sandbox-ratelimit" }] });
    expect(first.delivery).toMatchObject({ retries: 1, delays: [300] });
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING", error: { code: "rate_limited" } });
    await deliver([{ post_id: first.id }], { attempts: 2 });
    expect((await rowsOf(first.id))[0]!.status).toBe("PUBLISHED");
    expect(await postsOf("threads", account.handle)).toHaveLength(1);

    const node = `${V}/${account.platformId}`;
    const created = await graph("threads", "POST", `${node}/threads`, account.handle, {
      media_type: "TEXT",
      text: "Direct #sandbox-ratelimit",
    });
    const answer = await graph("threads", "POST", `${node}/threads_publish`, account.handle, {
      creation_id: created.body.id,
    });
    expect(answer.body.error).toMatchObject({ code: 4, is_transient: true });
    expect(JSON.parse(answer.headers.get("x-app-usage")!)).toMatchObject({ call_count: 100 });
  });

  it("#sandbox-flaky: a transient Meta error twice, then published once", async () => {
    const account = await connected("threads");
    const first = await published(account, { content: [{ text: "Wobbly #sandbox-flaky" }] });
    expect(first.delivery).toMatchObject({ retries: 1, delays: [10] });
    expect(first.rows[0]).toMatchObject({
      status: "PUBLISHING",
      error: { message: expect.stringContaining("attempt 1") },
    });
    await deliver([{ post_id: first.id }], { attempts: 2 });
    await deliver([{ post_id: first.id }], { attempts: 3 });
    expect((await rowsOf(first.id))[0]).toMatchObject({ status: "PUBLISHED", attempts: 3 });
    expect(await postsOf("threads", account.handle)).toHaveLength(1);
  });

  it("#sandbox-lost: the lost answer is found by its text, published exactly once", async () => {
    const account = await connected("threads");
    const first = await published(account, { content: [{ text: "Where did it go #sandbox-lost" }] });
    expect(first.delivery.retries).toBe(1);
    await deliver([{ post_id: first.id }], { attempts: 2 });
    const posts = await postsOf("threads", account.handle);
    expect(posts).toHaveLength(1);
    expect((await rowsOf(first.id))[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: posts[0]!.id,
    });
  });

  it("#sandbox-slow: an image container stays IN_PROGRESS, threads_publish refused meanwhile", async () => {
    const account = await connected("threads");
    const node = `${V}/${account.platformId}`;
    const created = await graph("threads", "POST", `${node}/threads`, account.handle, {
      media_type: "IMAGE",
      image_url: "https://cdn.example.test/a.jpg",
      text: "Heavy #sandbox-slow",
    });
    const status = await graph(
      "threads",
      "GET",
      `${V}/${created.body.id}?fields=status,error_message`,
      account.handle,
    );
    expect(status.body).toEqual({ id: created.body.id, status: "IN_PROGRESS" });
    const early = await graph("threads", "POST", `${node}/threads_publish`, account.handle, {
      creation_id: created.body.id,
    });
    expect(early.status).toBe(400);
    expect(await postsOf("threads", account.handle)).toEqual([]);
  });

  it("refreshes the long-lived token through the service once it is a day old; not before", async () => {
    const account = await connected("threads");
    const { adapter } = await adapterFor("threads", account);
    const row = await accountRow(account.accountId);
    const young = await adapter.refreshToken(row.refreshToken!).catch((error) => error);
    expect(young).toBeInstanceOf(PlatformError);
    expect((young as PlatformError).code).toBe("invalid_grant");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60 * 86_400_000 - 4 * 60_000 });
    const { rows } = await published(account, { content: [{ text: "Still here" }] });
    expect(rows[0]!.status).toBe("PUBLISHED");
    expect((await statsOf("threads", account.handle)).token_refreshes).toBe(1);
    const after = await accountRow(account.accountId);
    expect(after.accessToken).not.toBe(row.accessToken);
  });

  it("revoke: the next publish is refused the Meta way and the account needs reconnecting", async () => {
    const account = await connected("threads");
    const row = await accountRow(account.accountId);
    expect((await call("POST", `/sandbox/threads/accounts/${account.handle}/revoke`)).status).toBe(200);
    const me = await call("GET", `/sandbox/threads${V}/me`, {
      headers: { authorization: `Bearer ${row.accessToken}` },
    });
    expect(me.body.error).toMatchObject({ type: "OAuthException", code: 190, error_subcode: 458 });
    const { rows } = await published(account, { content: [{ text: "After revoke" }] });
    expect(rows[0]!.status).toBe("FAILED");
    expect((await accountRow(account.accountId)).expired_at).not.toBeNull();
    const shown = await call("GET", `/api/v1/accounts/${account.accountId}`, { key: account.key });
    expect(shown.body.health).toMatchObject({ status: "reauth_required" });
    expect(await postsOf("threads", account.handle)).toEqual([]);
  });
});

describe("a follower's replies on Threads (the sandbox's follower tool)", () => {
  it("are in the post's conversation: replied_to, permalink, hide_status; the account's answer to one is is_own", async () => {
    const account = await connected("threads");
    const { rows } = await published(account, { content: [{ text: "Talk to me" }] });
    const id = rows[0]!.platform_post_id!;
    const { first, second, own } = await conversation("threads", account, id);

    const { adapter, auth } = await adapterFor("threads", account);
    const comments = await adapter.comments!(auth, id);
    expect(comments.find((c) => c.id === first.body.id)).toMatchObject({
      content: "Love it",
      parent_id: null,
      is_own: false,
      hidden: false,
      url: expect.stringContaining(first.body.id),
      contact: { username: "fan_one", profile_url: "https://www.threads.com/@fan_one" },
    });
    expectAnswersRead(comments, { first, second, own });
    // The post's own replies (GET /{id}/replies) are the top level: the answers are the conversation's.
    const top = await graph("threads", "GET", `${V}/${id}/replies?fields=id`, account.handle);
    const ids = top.body.data.map((reply: { id: string }) => reply.id);
    expect(ids).toContain(first.body.id);
    expect(ids).not.toContain(second.body.id);
  });

  it("the account answers a reply, hides and shows it again, deletes its own answer; the rules refuse what Threads does", async () => {
    const account = await connected("threads");
    const { rows } = await published(account, { content: [{ text: "Moderate me" }] });
    const id = rows[0]!.platform_post_id!;
    const { first, second } = await conversation("threads", account, id);
    const { adapter, auth } = await adapterFor("threads", account);
    const ref = { id: first.body.id, postId: id, parentId: null, isOwn: false, hidden: false };

    const answer = await adapter.replyToComment!(auth, ref, "Thanks for saying");
    expect(answer).toMatchObject({ id: expect.any(String), url: expect.any(String) });
    const read = async () => adapter.comments!(auth, id);
    expect((await read()).find((c) => c.id === answer.id)).toMatchObject({
      content: "Thanks for saying",
      parent_id: first.body.id,
      is_own: true,
    });
    // The answer is in the conversation, not among the post's top-level replies.
    const top = await graph("threads", "GET", `${V}/${id}/replies?fields=id`, account.handle);
    expect(top.body.data.map((reply: { id: string }) => reply.id)).not.toContain(answer.id);

    // Hiding a top-level reply hides the replies under it too; showing it shows them again.
    await adapter.hideComment!(auth, ref, true);
    const hidden = await read();
    expect(hidden.find((c) => c.id === first.body.id)?.hidden).toBe(true);
    expect(hidden.find((c) => c.id === second.body.id)?.hidden).toBe(true);
    await adapter.hideComment!(auth, ref, false);
    const shown = await read();
    expect(shown.find((c) => c.id === first.body.id)?.hidden).toBe(false);
    expect(shown.find((c) => c.id === second.body.id)?.hidden).toBe(false);

    // Nested replies cannot be hidden alone, and only the account's own can be deleted: the rules say
    // so, and the emulator refuses both too.
    const nested = { ...ref, id: second.body.id, parentId: first.body.id };
    expect(threads.commentRules!("hide", nested)).toMatch(/top-level/);
    await expect(adapter.hideComment!(auth, nested, true)).rejects.toMatchObject({ kind: "permanent" });
    expect(threads.commentRules!("delete", ref)).toMatch(/own/);
    await expect(adapter.deleteComment!(auth, ref)).rejects.toMatchObject({ code: "permission_denied" });

    const own = { id: answer.id, postId: id, parentId: first.body.id, isOwn: true, hidden: false };
    expect(threads.commentRules!("delete", own)).toBeNull();
    await adapter.deleteComment!(auth, own);
    expect((await read()).map((c) => c.id)).not.toContain(answer.id);
    // Deleting again resolves: the reply is already gone.
    await adapter.deleteComment!(auth, own);
  });
});
