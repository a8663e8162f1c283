// The emulator core every platform's emulator is built on: its ledger (posts with what the platform
// received, uploads and containers, counters, revocations, attempt counts), and the routes the sandbox
// serves on every platform: post pages and JSON, an account's posts and stats, the user removing the app,
// stored media, and tokens that stop working when revoked.

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { publishingAdapter } from "../../src/platforms/index";
import { OWNER_PARAM, ownerTag } from "../../src/platforms/sandbox/owner";
import { sandboxInProcess } from "../../src/sandbox/index";
import {
  countTry,
  createObject,
  insertComment,
  insertPost,
  keepMedia,
  revoke,
  SANDBOX_LIMITS,
} from "../../src/sandbox/ledger";
import { sandboxPlatformId } from "../../src/sandbox/shapes";
import { spend } from "../../src/sandbox/spent";
import { accessTokenOf, codeFor, consentAction, exchange, formPost, tokenRequest } from "../platforms/oauth";
import { accountOf, draftOf, freshHandle, send } from "../platforms/support";
import { ORIGIN } from "../support/client";

const store = () => env.SANDBOX_STORE.getByName("twitter");
const json = async (path: string, init: RequestInit = {}) => {
  const res = await send(path, { ...init, headers: { accept: "application/json", ...init.headers } });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
};

describe("the ledger", () => {
  it("counts attempts exactly under parallel calls", async () => {
    const handle = freshHandle("tries");
    const counts = await Promise.all(Array.from({ length: 20 }, () => store().countTry(handle, "k")));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await store().countTry(handle, "other")).toBe(1);
  });

  it("keeps a post with what the platform received, counts it, and lists only public ones", async () => {
    const handle = freshHandle("ledger");
    const request = JSON.stringify({ text: "hello", reply_settings: "following" });
    const shown = await store().insertPost({
      handle,
      items: [{ text: "hello", media: [] }],
      platformRequest: request,
    });
    await store().insertPost({
      handle,
      items: [{ text: "private", media: [] }],
      platformRequest: "null",
      visible: false,
    });
    const reply = await store().insertPost({
      handle,
      items: [{ text: "a reply", media: [] }],
      platformRequest: "null",
      parentId: shown.id,
    });
    expect(shown.id).toMatch(/^\d{19}$/);
    expect((await store().listPosts(handle)).map((post) => post.text)).toEqual([["hello"]]);
    expect((await store().listPosts(handle, { all: true })).map((post) => post.text)).toEqual([
      ["hello"],
      ["private"],
    ]);
    expect((await store().listPosts(handle, { parentId: shown.id })).map((post) => post.id)).toEqual([
      reply.id,
    ]);
    expect(await store().stats(handle)).toEqual({ publications: 3, media_uploads: 0, token_refreshes: 0 });

    const page = await json(`/sandbox/twitter/posts/${shown.id}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      id: shown.id,
      handle,
      text: ["hello"],
      platform_request: { text: "hello", reply_settings: "following" },
      replies: [{ id: reply.id, text: "a reply" }],
    });
  });

  it("merges an object's data and moves its ready time", async () => {
    const handle = freshHandle("objects");
    const created = await store().createObject({
      handle,
      kind: "container",
      data: JSON.stringify({ status: "IN_PROGRESS", url: "u" }),
      readyAt: 5,
    });
    const updated = await store().updateObject(created.id, JSON.stringify({ status: "FINISHED" }), 9);
    expect(JSON.parse(updated!.data)).toEqual({ status: "FINISHED", url: "u" });
    expect(updated!.readyAt).toBe(9);
    expect((await store().listObjects(handle, "container")).map((object) => object.id)).toEqual([created.id]);
    expect(await store().updateObject("404", "{}")).toBeNull();
  });
});

describe("the routes every platform shares", () => {
  it("answers an account's stats, zero for an account it never saw, 404 for an impossible handle", async () => {
    const handle = freshHandle("stats");
    expect((await json(`/sandbox/linkedin/accounts/${handle}/stats`)).body).toEqual({
      publications: 0,
      media_uploads: 0,
      token_refreshes: 0,
    });
    expect((await json(`/sandbox/linkedin/accounts/${"h".repeat(101)}/stats`)).status).toBe(404);
    expect((await json(`/sandbox/myspace/accounts/${handle}/stats`)).status).toBe(404);
  });

  it("shows a post's own-origin images as images, nothing from elsewhere", async () => {
    const handle = freshHandle("page");
    const mine = "https://api.example.test/sandbox/twitter/media/abc";
    const { id } = await store().insertPost({
      handle,
      items: [
        {
          text: "with media",
          media: [
            { url: mine, type: "image/png" },
            { url: "https://elsewhere.example/x.png", type: "image/png" },
          ],
        },
      ],
      platformRequest: "{}",
    });
    const res = await send(`/sandbox/twitter/posts/${id}`);
    const html = await res.text();
    expect(res.headers.get("content-security-policy")).toContain("img-src 'self'");
    expect(html).toContain(`<img src="${mine}"`);
    expect(html).not.toContain('<img src="https://elsewhere.example');
    expect(html).toContain('href="https://elsewhere.example/x.png"');
  });

  it("serves stored media with its type, and 404 for what it does not have", async () => {
    await env.MEDIA.put("sandbox/twitter/core-test-media", new Uint8Array([137, 80, 78, 71]), {
      httpMetadata: { contentType: "image/png" },
    });
    const res = await send("/sandbox/twitter/media/core-test-media");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
    expect((await send("/sandbox/twitter/media/nothing-here")).status).toBe(404);
    expect((await send("/sandbox/twitter/media/..%2Fescape")).status).toBe(404);
  });

  it("a follower comments on any platform, even one whose API lists none: stored, counted, refused when malformed", async () => {
    for (const platform of ["tiktok", "pinterest"] as const) {
      const handle = freshHandle("fan");
      const platformStore = env.SANDBOX_STORE.getByName(platform);
      const { id } = await platformStore.insertPost({
        handle,
        items: [{ text: "x", media: [] }],
        platformRequest: "{}",
      });
      const before = (await platformStore.metrics(platform, id))!.comments;
      const tool = (body: unknown, who = handle) =>
        send(`/sandbox/${platform}/accounts/${who}/comments`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const made = await tool({ post_id: id, text: "Nice", author: "fan_one" });
      expect(made.status).toBe(201);
      expect(await made.json()).toMatchObject({
        id: expect.stringMatching(/^\d{19}$/),
        post_id: id,
        parent_id: null,
      });
      expect((await platformStore.metrics(platform, id))!.comments).toBe(before + 1);
      expect((await tool({ post_id: id, text: "Nice", author: "fan_one" }, "someone_else")).status).toBe(404);
      expect((await tool({ post_id: id, text: "Nice", author: "no spaces allowed" })).status).toBe(400);
      expect((await tool({ post_id: id, author: "fan_one" })).status).toBe(400);
    }
  });
});

/** YouTube's identity call, as its adapter makes it, on its emulator. */
const CHANNELS = "/sandbox/youtube/youtube/v3/channels?part=id,snippet&mine=true";

describe("the store's bounds (anyone may mint tokens and upload while SANDBOX is on)", () => {
  it("a flood of revocations, codes, attempts, posts, comments, uploads and media keeps every table and the bytes bounded", async () => {
    // A store of its own, with small limits: the same functions the platforms' stores run.
    const stub = env.SANDBOX_STORE.getByName(`bounds-${crypto.randomUUID()}`);
    const limits = {
      ...SANDBOX_LIMITS,
      rows: 40,
      objectsPerHandle: 5,
      mediaBytesPerHandle: 1000,
      mediaBytes: 2500,
    };
    const sizes = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const now = Date.now();
      const evicted: string[] = [];
      for (let i = 0; i < 200; i++) {
        const handle = `flood${i % 10}`;
        revoke(sql, `h${i}`, now, limits);
        spend(sql, `code-${i}`, now + 600_000, now, limits.rows);
        countTry(sql, handle, `k${i}`, limits);
        insertPost(sql, { handle, items: [{ text: "x", media: [] }], platformRequest: "{}" }, now, limits);
        insertComment(
          sql,
          { postId: `p${i % 3}`, parentId: null, author: { name: "Fan", username: "fan" }, text: "x" },
          now,
          limits,
        );
        createObject(sql, { handle, kind: "upload", data: "{}", readyAt: now }, now, limits);
        evicted.push(...keepMedia(sql, handle, `sandbox/x/${i}`, 300, limits));
      }
      const count = (table: string, where = "1 = 1") =>
        sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).one().n;
      const bytes = (where = "1 = 1") =>
        sql.exec<{ n: number }>(`SELECT COALESCE(SUM(bytes), 0) AS n FROM media WHERE ${where}`).one().n;
      return {
        tables: Object.fromEntries(
          ["revocations", "spent", "tries", "publications", "objects", "counters", "media", "comments"].map(
            (t) => [t, count(t)],
          ),
        ),
        objectsOfOne: count("objects", "handle = 'flood3'"),
        bytes: bytes(),
        bytesOfOne: bytes("handle = 'flood9'"),
        evicted: evicted.length,
        newestKept: count("media", "key = 'sandbox/x/199'"),
        newestRevocation: count("revocations", "handle = 'h199'"),
      };
    });
    for (const [table, rows] of Object.entries(sizes.tables)) expect(rows, table).toBeLessThanOrEqual(40);
    expect(sizes.objectsOfOne).toBeLessThanOrEqual(5);
    expect(sizes.bytes).toBeLessThanOrEqual(2500);
    expect(sizes.bytesOfOne).toBeLessThanOrEqual(1000);
    // Every forgotten file is answered for deletion, and the newest rows stay.
    expect(sizes.evicted).toBe(200 - sizes.tables.media!);
    expect(sizes.newestKept).toBe(1);
    expect(sizes.newestRevocation).toBe(1);
  });
});

describe("revoking the app", () => {
  it("stops every token issued before it, refresh tokens included, and counts refreshes", async () => {
    const handle = freshHandle("revoked");
    const issued = await exchange("youtube", await codeFor("youtube", handle));
    expect(issued.status).toBe(200);
    const first = (await issued.json()) as { refresh_token: string };
    const refreshed = await tokenRequest("youtube", {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    const access = accessTokenOf("youtube", await refreshed.json());
    expect((await json(`/sandbox/youtube/accounts/${handle}/stats`)).body.token_refreshes).toBe(1);

    const revoked = await send(`/sandbox/youtube/accounts/${handle}/revoke`, { method: "POST" });
    expect(revoked.status).toBe(200);

    const again = await tokenRequest("youtube", {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
    const me = await send(CHANNELS, { headers: { authorization: `Bearer ${access}` } });
    expect(me.status).toBe(401);
    expect(await me.json()).toMatchObject({ error: { code: 401, status: "UNAUTHENTICATED" } });
    expect((await json(`/sandbox/youtube/accounts/${handle}/stats`)).body.token_refreshes).toBe(1);

    // Connecting again after removing the app works: new tokens are issued after the revocation.
    const reconnected = await exchange("youtube", await codeFor("youtube", handle));
    const token = accessTokenOf("youtube", await reconnected.json());
    const ok = await send(CHANNELS, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
  });
});

describe("a post's page", () => {
  it("is escaped: text, handle, media links (http(s) only), replies", async () => {
    const handle = `<b>${freshHandle()}</b>`;
    const { id } = await store().insertPost({
      handle,
      items: [
        {
          text: "First <script>alert(1)</script>",
          media: [{ url: "https://cdn.test/a.png?x=1&y=2", type: "image/png" }],
        },
        { text: "Second\nline", media: [{ url: "javascript:alert(2)", type: "image/png" }] },
      ],
      platformRequest: "{}",
    });
    await store().insertPost({
      handle,
      items: [{ text: "Plug: <img src=x onerror=alert(3)>", media: [] }],
      platformRequest: "{}",
      parentId: id,
    });
    const res = await send(`/sandbox/twitter/posts/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain("First &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Second<br>line");
    expect(html).toContain(`@&lt;b&gt;${handle.slice(3, -4)}&lt;/b&gt;`);
    expect(html).toContain('href="https://cdn.test/a.png?x=1&amp;y=2"');
    expect(html).toContain("javascript:alert(2)");
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain("Plug: &lt;img src=x onerror=alert(3)&gt;");
    expect(html).not.toMatch(/<script|<img|<b>/);
  });

  it("404 for an id it does not know, as JSON and as a page", async () => {
    for (const id of ["999999999999999999", "not-a-number", "%3Cscript%3E"]) {
      const answer = await json(`/sandbox/pinterest/posts/${id}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: { code: "not_found", message: "No post with this id." } });
      const page = await send(`/sandbox/pinterest/posts/${id}`);
      expect(page.status).toBe(404);
      expect(page.headers.get("content-type")).toContain("text/html");
    }
  });
});

describe("a user's own space (test mode on a deployment)", () => {
  it("consents into the space its tag names for the flow's state, and refuses a tag of another flow", async () => {
    const action = await consentAction("twitter"); // state "st"
    const tagged = async (tag: string) =>
      formPost(`${action}&${OWNER_PARAM}=${encodeURIComponent(tag)}`, { handle: "ada", decision: "allow" });
    const copied = await tagged(await ownerTag(env, "u4242", "another-flow"));
    expect(copied.status).toBe(400);
    const forged = await tagged("u4242.".padEnd(70, "0"));
    expect(forged.status).toBe(400);
    const decided = await tagged(await ownerTag(env, "u4242", "st"));
    expect(decided.status).toBe(302);
    const code = new URL(decided.headers.get("location")!).searchParams.get("code")!;
    const token = accessTokenOf("twitter", await (await exchange("twitter", code)).json());
    const me = await json("/sandbox/twitter/me", { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    // ada in u4242's space is another platform account than the shared space's ada.
    const shared = await sandboxPlatformId("twitter", "ada");
    expect(JSON.stringify(me.body)).toContain(await sandboxPlatformId("twitter", "ada", "u4242"));
    expect(JSON.stringify(me.body)).not.toContain(shared);
  });
});

describe("sandbox off", () => {
  const off = { ...env, SANDBOX: "false" } as Env;

  it("404 for every sandbox route but the consent pages test mode sends browsers to", async () => {
    const handle = freshHandle();
    const { id } = await store().insertPost({
      handle,
      items: [{ text: "exists", media: [] }],
      platformRequest: "{}",
    });
    // The post pages and account tools need the owning test key (test/test-mode/*.production.test.ts).
    const keyed = [
      new Request(`${ORIGIN}/sandbox/twitter/posts/${id}`, { headers: { accept: "application/json" } }),
      new Request(`${ORIGIN}/sandbox/twitter/accounts/${handle}/posts`),
      new Request(`${ORIGIN}/sandbox/twitter/accounts/${handle}/stats`),
      new Request(`${ORIGIN}/sandbox/twitter/accounts/${handle}/revoke`, { method: "POST" }),
    ];
    for (const request of keyed) expect((await sandboxInProcess.fetch(request, off)).status).toBe(401);
    const requests = [
      new Request(`${ORIGIN}/sandbox/twitter/accounts/${handle}/session`, { method: "POST" }),
      // Only the tools' own methods are let through to ask for a key.
      new Request(`${ORIGIN}/sandbox/twitter/posts/${id}`, { method: "DELETE" }),
      new Request(`${ORIGIN}/sandbox/twitter/accounts/${handle}/stats`, { method: "POST" }),
      new Request(`${ORIGIN}/sandbox/pinterest/v5/user_account`),
      // A forged in-process mark is no mark.
      new Request(`${ORIGIN}/sandbox/pinterest/v5/user_account`, {
        headers: { "x-sandbox-loopback": "f".repeat(64) },
      }),
    ];
    for (const request of requests) expect((await sandboxInProcess.fetch(request, off)).status).toBe(404);
    // The consent page stays (test mode's flows need it): a bad authorize request is its 400 page.
    const consent = new Request(`${ORIGIN}/sandbox/facebook/oauth/authorize?client_id=x`);
    expect((await sandboxInProcess.fetch(consent, off)).status).toBe(400);
    // Nothing was revoked by the refused call.
    expect(await store().revokedAt(handle)).toBeNull();
  });

  it("publishingAdapter: the real adapter when credentials exist, else not configured", async () => {
    const configured = { ...off, TWITTER_CLIENT_ID: "id", TWITTER_CLIENT_SECRET: "secret" } as Env;
    const real = publishingAdapter(configured, "twitter", "live");
    // The real X adapter on the real hosts: an account without a token cannot publish (nothing mints one).
    await expect(real.publish(accountOf("a"), draftOf(["x"]))).rejects.toMatchObject({ kind: "auth" });
    expect(() => publishingAdapter(off, "linkedin", "live")).toThrow(
      expect.objectContaining({ kind: "permanent", code: "platform_not_configured" }),
    );
  });
});
