// The sandbox platform's publishing, end to end in-process through its adapter (publishingAdapter), as
// the publishing engine uses it: publish, find, the post's page and JSON, the account's list, replies,
// the failure triggers, and the refusals a real platform would answer.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PLATFORMS, type Platform } from "../../src/db/enums";
import { publishingAdapter } from "../../src/platforms/index";
import { mintToken } from "../../src/platforms/sandbox/access";
import { EMULATED } from "../../src/platforms/sandbox/emulated";
import { PlatformError } from "../../src/platforms/types";
import { sandboxInProcess } from "../../src/sandbox/index";
import { ORIGIN } from "../support/client";
import {
  accountList,
  accountOf,
  adapterFor,
  draftOf,
  freshFingerprint,
  freshHandle,
  postJson,
  send,
} from "./support";

/** The PlatformError a call fails with (the test fails if it succeeds). */
async function failureOf(call: Promise<unknown>): Promise<PlatformError> {
  const error = await call.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

const image = (url: string, mime = "image/png") => ({
  url,
  mime,
  kind: "image" as const,
  size: 10,
  name: "a.png",
  open: () => Promise.reject(new Error("the sandbox pulls media by URL")),
});

describe("sandbox publishing", () => {
  // The legacy publisher's platforms: an emulated one answers in its own ids and URLs (test/sandbox/).
  it.each(PLATFORMS.filter((platform) => !EMULATED.has(platform)))(
    "%s: publishes for an account without a token, answering a digit id and its URL",
    async (platform) => {
      const adapter = adapterFor(platform);
      const handle = freshHandle(platform);
      const post = await adapter.publish(accountOf(handle), draftOf(["Hello from the sandbox"]));
      expect(post.id).toMatch(/^\d{18}$/);
      expect(post.url).toBe(`${ORIGIN}/sandbox/${platform}/posts/${post.id}`);
      const other = await adapter.publish(accountOf(handle), draftOf(["Hello again"]));
      expect(other.id).not.toBe(post.id);
      expect((await accountList(platform, handle)).map((p) => p.id)).toEqual([post.id, other.id]);
    },
  );

  // On Threads: X uploads each media file to its emulator (test/sandbox/twitter.system.test.ts).
  it("keeps a thread's items in order with their media as given, shown as JSON", async () => {
    const adapter = adapterFor("threads");
    const handle = freshHandle();
    const draft = draftOf([
      { text: "1/ Launch day <script>alert(1)</script>", media: [image("https://cdn.test/a.png")] },
      { text: "2/ Line one\nline two & more", media: [] },
      {
        text: "3/ Bye \"quoted\" 'single'",
        media: [image("https://cdn.test/b.mp4", "video/mp4"), image("javascript:alert(2)")],
      },
    ]);
    const before = Date.now();
    const post = await adapter.publish(accountOf(handle), draft);
    const { status, body } = await postJson("threads", post.id);
    expect(status).toBe(200);
    expect(body).toEqual({
      id: post.id,
      handle,
      text: draft.items.map((item) => item.text),
      media: [
        { item: 0, url: "https://cdn.test/a.png", type: "image/png" },
        { item: 2, url: "https://cdn.test/b.mp4", type: "video/mp4" },
        { item: 2, url: "javascript:alert(2)", type: "image/png" },
      ],
      replies: [],
      published_at: expect.any(String),
      // The legacy publisher keeps no request body (an emulator's post shows what its platform received).
      platform_request: null,
    });
    expect(Date.parse(body.published_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(body.published_at)).toBeLessThanOrEqual(Date.now());
  });

  it("shows the post as an escaped page: thread, media links (http(s) only), replies", async () => {
    const adapter = adapterFor("linkedin");
    const account = accountOf(`<b>${freshHandle()}</b>`);
    const post = await adapter.publish(
      account,
      draftOf([
        { text: "First <script>alert(1)</script>", media: [image("https://cdn.test/a.png?x=1&y=2")] },
        { text: "Second\nline", media: [image("javascript:alert(2)")] },
      ]),
    );
    await adapter.reply(account, post.id, "Plug: <img src=x onerror=alert(3)>", freshFingerprint());
    const res = await send(new URL(post.url).pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain("First &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Second<br>line");
    expect(html).toContain(`@&lt;b&gt;${account.handle.slice(3, -4)}&lt;/b&gt;`);
    expect(html).toContain('href="https://cdn.test/a.png?x=1&amp;y=2"');
    expect(html).toContain("javascript:alert(2)");
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain("Plug: &lt;img src=x onerror=alert(3)&gt;");
    expect(html).not.toMatch(/<script|<img|<b>/);
  });

  it("finds a post by its fingerprint on the account, and only there", async () => {
    const adapter = adapterFor("threads");
    const account = accountOf(freshHandle());
    const draft = draftOf(["Findable"]);
    const post = await adapter.publish(account, draft);
    expect(await adapter.find(account, { fingerprint: draft.fingerprint, text: "" })).toEqual(post);
    expect(await adapter.find(account, { fingerprint: freshFingerprint(), text: "" })).toBeNull();
    expect(
      await adapter.find(accountOf(freshHandle()), { fingerprint: draft.fingerprint, text: "" }),
    ).toBeNull();
    // The same fingerprint on another platform is another platform's business.
    expect(
      await adapterFor("twitter").find(account, { fingerprint: draft.fingerprint, text: "" }),
    ).toBeNull();
  });

  it("lists every post of the account, oldest first, without replies; an unknown handle has none", async () => {
    const adapter = adapterFor("facebook");
    const handle = `Grace Hopper ${freshHandle()}`;
    const ids: string[] = [];
    for (const text of ["one", "two", "three"])
      ids.push((await adapter.publish(accountOf(handle), draftOf([text]))).id);
    await adapter.reply(accountOf(handle), ids[0]!, "a reply", freshFingerprint());
    const listed = await accountList("facebook", handle);
    expect(listed.map((post) => post.id)).toEqual(ids);
    expect(listed.map((post) => post.text)).toEqual([["one"], ["two"], ["three"]]);
    expect(listed[0].replies).toHaveLength(1);
    expect(await accountList("facebook", freshHandle())).toEqual([]);
    expect(await accountList("twitter", handle)).toEqual([]);
  });

  it("publishes a reply with its own fingerprint, shown in the post's replies and findable", async () => {
    const adapter = adapterFor("threads");
    const account = accountOf(freshHandle());
    const post = await adapter.publish(account, draftOf(["Original"]));
    const fingerprint = freshFingerprint();
    const reply = await adapter.reply(account, post.id, "Check out our shop", fingerprint);
    expect(reply.id).toMatch(/^\d{18}$/);
    expect(reply.id).not.toBe(post.id);
    expect(reply.url).toBe(`${ORIGIN}/sandbox/threads/posts/${reply.id}`);
    const { body } = await postJson("threads", post.id);
    expect(body.replies).toEqual([
      { id: reply.id, text: "Check out our shop", published_at: expect.any(String) },
    ]);
    expect(await adapter.find(account, { fingerprint: fingerprint, text: "" })).toEqual(reply);
    expect((await postJson("threads", reply.id)).body.text).toEqual(["Check out our shop"]);
    const missing = await failureOf(adapter.reply(account, "999999999999999999", "x", freshFingerprint()));
    expect(missing).toMatchObject({ kind: "permanent", code: "not_found" });
  });

  it("404 for an id it does not know, as JSON and as a page", async () => {
    for (const id of ["999999999999999999", "not-a-number"]) {
      const json = await postJson("pinterest", id);
      expect(json.status).toBe(404);
      expect(json.body).toEqual({ error: { code: "not_found", message: "No post with this id." } });
      expect((await send(`/sandbox/pinterest/posts/${id}`)).status).toBe(404);
    }
    const adapter = adapterFor("pinterest");
    const account = accountOf(freshHandle());
    for (const call of [adapter.insights(account, "999999999999999999"), adapter.comments(account, "123")]) {
      expect(await failureOf(call)).toMatchObject({ kind: "permanent", code: "not_found" });
    }
  });

  it("refuses a token of another platform, a forged token, and insights of another account's post", async () => {
    const adapter = adapterFor("instagram");
    const handle = freshHandle();
    const post = await adapter.publish(accountOf(handle), draftOf(["mine"]));
    const threadsToken = await mintToken(env, "threads", handle);
    for (const accessToken of [threadsToken, "forged.token"]) {
      const account = { handle, platformUserId: null, accessToken };
      expect(await failureOf(adapter.publish(account, draftOf(["x"])))).toMatchObject({
        kind: "auth",
        code: "invalid_token",
      });
      expect(await failureOf(adapter.insights(account, post.id))).toMatchObject({ kind: "auth" });
    }
    expect(await failureOf(adapter.insights(accountOf(freshHandle()), post.id))).toMatchObject({
      kind: "permanent",
      code: "forbidden",
    });
    expect((await accountList("instagram", handle)).length).toBe(1);
  });

  it("refuses a malformed post with a 400 the adapter reads as permanent", async () => {
    const adapter = adapterFor("youtube");
    const failure = await failureOf(adapter.publish(accountOf(freshHandle()), draftOf(["  "])));
    expect(failure).toMatchObject({ kind: "permanent", code: "invalid_request" });
    expect(failure.message).toContain("An item needs text or media.");
    const empty = await failureOf(adapter.publish(accountOf(freshHandle()), draftOf([])));
    expect(empty).toMatchObject({ kind: "permanent", code: "invalid_request" });
  });
});

describe("sandbox failure triggers (counted per fingerprint)", () => {
  const setup = (platform: Platform = "twitter") => {
    const handle = freshHandle("trigger");
    return { adapter: adapterFor(platform), account: accountOf(handle), handle, platform };
  };

  it("#sandbox-fail: rejected for good, a permanent content error", async () => {
    const { adapter, account, handle } = setup();
    const draft = draftOf(["Do not post this #sandbox-fail", "second"]);
    for (let attempt = 0; attempt < 3; attempt++) {
      const failure = await failureOf(adapter.publish(account, draft));
      expect(failure).toMatchObject({ kind: "permanent", code: "content_rejected" });
      expect(failure.message).toContain("#sandbox-fail");
    }
    expect(await accountList("twitter", handle)).toEqual([]);
    expect(await adapter.find(account, { fingerprint: draft.fingerprint, text: "" })).toBeNull();
  });

  it("#sandbox-flaky: two transient failures, then the third attempt publishes once", async () => {
    const { adapter, account, handle } = setup("linkedin");
    const draft = draftOf(["Unstable #sandbox-flaky"]);
    for (const attempt of [1, 2]) {
      const failure = await failureOf(adapter.publish(account, draft));
      expect(failure).toMatchObject({ kind: "transient", code: "server_error" });
      expect(failure.message).toContain(`attempt ${attempt} of 3`);
    }
    const post = await adapter.publish(account, draft);
    expect((await accountList("linkedin", handle)).map((p) => p.id)).toEqual([post.id]);
    // A new fingerprint (the next occurrence) starts counting again.
    expect(await failureOf(adapter.publish(account, draftOf(["Unstable #sandbox-flaky"])))).toMatchObject({
      kind: "transient",
    });
  });

  it("#sandbox-flaky under concurrency: exactly two of three simultaneous attempts fail", async () => {
    const { adapter, account, handle } = setup("tiktok");
    const draft = draftOf(["Race #sandbox-flaky"]);
    const results = await Promise.allSettled([1, 2, 3].map(() => adapter.publish(account, draft)));
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(2);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await accountList("tiktok", handle)).toHaveLength(1);
  });

  it("#sandbox-lost: the first attempt is accepted but its answer is lost; find reconciles it", async () => {
    const { adapter, account, handle } = setup("threads");
    const draft = draftOf(["Into the void #sandbox-lost"]);
    const failure = await failureOf(adapter.publish(account, draft));
    expect(failure).toMatchObject({ kind: "unknown_outcome", code: "network_error" });
    const listed = await accountList("threads", handle);
    expect(listed).toHaveLength(1);
    expect(listed[0].text).toEqual(["Into the void #sandbox-lost"]);
    const found = await adapter.find(account, { fingerprint: draft.fingerprint, text: "" });
    expect(found).toEqual({ id: listed[0].id, url: `${ORIGIN}/sandbox/threads/posts/${listed[0].id}` });
    // A blind retry would publish a second copy, as on a real platform: that is what find prevents.
    await adapter.publish(account, draft);
    expect(await accountList("threads", handle)).toHaveLength(2);
    expect(await adapter.find(account, { fingerprint: draft.fingerprint, text: "" })).toEqual(found);
  });

  it("#sandbox-lost reaches a client over HTTP as a broken answer, not as a status", async () => {
    const handle = freshHandle("lost");
    const res = await send("/sandbox/twitter/posts", {
      method: "POST",
      headers: {
        authorization: `Bearer ${await mintToken(env, "twitter", handle)}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ items: [{ text: "#sandbox-lost", media: [] }], fingerprint: "fp-http" }),
    })
      .then((response) => response.text())
      .catch((error: unknown) => error);
    expect(res).toBeInstanceOf(Error);
    expect(await accountList("twitter", handle)).toHaveLength(1);
  });

  it("#sandbox-ratelimit: 429 with Retry-After 2 first, then published", async () => {
    const { adapter, account, handle } = setup("pinterest");
    const draft = draftOf(["Busy #sandbox-ratelimit"]);
    expect(await failureOf(adapter.publish(account, draft))).toMatchObject({
      kind: "rate_limited",
      code: "rate_limited",
      retryAfterSeconds: 2,
    });
    const post = await adapter.publish(account, draft);
    expect((await accountList("pinterest", handle)).map((p) => p.id)).toEqual([post.id]);
  });

  // On Threads: on X each item of a thread is its own post, whose own tag its emulator reads.
  it("reads the tag in the first item only, as a whole tag", async () => {
    const { adapter, account, handle } = setup("threads");
    await adapter.publish(account, draftOf(["fine", "later item #sandbox-fail"]));
    await adapter.publish(account, draftOf(["#sandbox-failure is not a trigger, nor x#sandbox-fail"]));
    expect(await accountList("threads", handle)).toHaveLength(2);
    expect(await failureOf(adapter.publish(account, draftOf(["#SANDBOX-FAIL"])))).toMatchObject({
      kind: "permanent",
    });
  });

  it("applies to replies too, by the reply's text", async () => {
    const { adapter, account } = setup();
    const post = await adapter.publish(account, draftOf(["Original"]));
    const fingerprint = freshFingerprint();
    expect(
      await failureOf(adapter.reply(account, post.id, "Plug #sandbox-ratelimit", fingerprint)),
    ).toMatchObject({
      kind: "rate_limited",
    });
    const reply = await adapter.reply(account, post.id, "Plug #sandbox-ratelimit", fingerprint);
    expect((await postJson("twitter", post.id)).body.replies.map((r: { id: string }) => r.id)).toEqual([
      reply.id,
    ]);
  });
});

describe("sandbox off", () => {
  const off = { ...env, SANDBOX: "false" } as Env;

  it("404 for every sandbox route", async () => {
    const handle = freshHandle();
    const token = await mintToken(env, "twitter", handle);
    const post = await adapterFor("twitter").publish(accountOf(handle), draftOf(["exists"]));
    const requests = [
      new Request(`${ORIGIN}/sandbox/twitter/posts`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ items: [{ text: "x", media: [] }], fingerprint: "fp" }),
      }),
      new Request(`${ORIGIN}/sandbox/twitter/posts/${post.id}`, { headers: { accept: "application/json" } }),
      new Request(`${ORIGIN}/sandbox/twitter/posts/${post.id}/insights`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      new Request(`${ORIGIN}/sandbox/twitter/accounts/${handle}/posts`),
    ];
    for (const request of requests) expect((await sandboxInProcess.fetch(request, off)).status).toBe(404);
  });

  it("publishingAdapter: the real adapter when credentials exist, else not configured", async () => {
    const configured = { ...off, TWITTER_CLIENT_ID: "id", TWITTER_CLIENT_SECRET: "secret" } as Env;
    const real = publishingAdapter(configured, "twitter");
    // The real X adapter: an account without a token cannot publish there (no sandbox to mint one).
    await expect(real.publish(accountOf("a"), draftOf(["x"]))).rejects.toMatchObject({ kind: "auth" });
    let thrown: unknown;
    try {
      publishingAdapter(off, "linkedin");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PlatformError);
    expect(thrown).toMatchObject({ kind: "permanent", code: "platform_not_configured" });
  });
});
