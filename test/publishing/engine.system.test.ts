// The publish consumer against a scripted platform: what each outcome does to the row, the post and the
// message, the lease (redelivery, racing consumers, a worker that died mid-call, an attempt that lost
// its lease), reconciliation before any new publish, and the draft the platform is handed.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { encryptSecret } from "../../src/lib/crypto";
import { PlatformError } from "../../src/platforms/types";
import { ATTEMPT_TIMEOUT_MS } from "../../src/publishing/lease";
import { insertMedia } from "../support/db";
import { createTenant } from "../support/seed";
import { deliver, fakePlatform, postOf, publishingPost, rowsOf } from "./support";

afterEach(() => {
  vi.restoreAllMocks();
});

const transient = () => new PlatformError("upstream 503", { kind: "transient", code: "server_error" });

describe("outcomes", () => {
  it("records a publication: PUBLISHED with the platform's id and url, posted_on, no lease, acked", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const fake = fakePlatform([{ id: "777", url: "https://x.example/777" }]);
    const before = Date.now();
    const result = await deliver([{ post_id: id }], { deps: fake.deps });
    expect(result).toMatchObject({ acks: 1, retries: 0 });
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: "777",
      post_url: "https://x.example/777",
      error: null,
      attempts: 1,
      attempt_id: null,
      attempt_started_at: null,
    });
    expect(row!.posted_on).toHaveLength(1);
    expect(row!.posted_on[0]).toBeGreaterThanOrEqual(before);
    expect((await postOf(id))!.status).toBe("PUBLISHED");
    expect(fake.calls.map((c) => c.method)).toEqual(["publish"]);
  });

  it.each([
    [
      "permanent",
      new PlatformError("Too long for this platform.", { kind: "permanent", code: "content_rejected" }),
    ],
    // (A revoked grant expires the account instead: test/accounts, test/sandbox/twitter.test.ts.)
    ["auth", new PlatformError("The token was refused.", { kind: "auth", code: "token_refused" })],
  ])(
    "fails the row at once on a %s error, with its code and message, and does not retry",
    async (_, error) => {
      const t = await createTenant();
      const id = await publishingPost(t);
      const fake = fakePlatform([error]);
      const result = await deliver([{ post_id: id }], { deps: fake.deps });
      expect(result).toMatchObject({ acks: 1, retries: 0 });
      const [row] = await rowsOf(id);
      expect(row).toMatchObject({
        status: "FAILED",
        error: { code: error.code, message: error.message },
        attempt_id: null,
        platform_post_id: null,
      });
      expect((await postOf(id))!.status).toBe("FAILED");
    },
  );

  it("keeps a row PUBLISHING after a transient error, error recorded and lease released, and retries with backoff", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const fake = fakePlatform([transient()]);
    const first = await deliver([{ post_id: id }], { deps: fake.deps, attempts: 1 });
    expect(first).toMatchObject({ acks: 0, retries: 1, delays: [10] });
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({
      status: "PUBLISHING",
      error: { code: "server_error", message: "upstream 503" },
      attempt_id: null,
      attempts: 1,
    });
    expect((await postOf(id))!.status).toBe("PUBLISHING");
    const third = await deliver([{ post_id: id }], { deps: fake.deps, attempts: 3 });
    expect(third.delays).toEqual([40]);
  });

  it("retries a rate-limited row after the platform's Retry-After", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const limited = new PlatformError("slow down", {
      kind: "rate_limited",
      code: "rate_limited",
      retryAfterSeconds: 2,
    });
    const fake = fakePlatform([limited]);
    const result = await deliver([{ post_id: id }], { deps: fake.deps, attempts: 4 });
    expect(result).toMatchObject({ retries: 1, delays: [2] });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING", error: { code: "rate_limited" } });
  });

  it("rounds a Retry-After up to whole seconds, and holds one past Queues' longest delay to 12 hours", async () => {
    const t = await createTenant();
    const limited = (retryAfterSeconds: number) =>
      new PlatformError("slow down", { kind: "rate_limited", code: "rate_limited", retryAfterSeconds });
    const soon = await publishingPost(t);
    const fraction = await deliver([{ post_id: soon }], { deps: fakePlatform([limited(2.2)]).deps });
    expect(fraction.delays).toEqual([3]);
    const later = await publishingPost(t);
    const days = await deliver([{ post_id: later }], { deps: fakePlatform([limited(3 * 86_400)]).deps });
    expect(days.delays).toEqual([43_200]);
  });

  it("fails a row whose platform is not configured, and retries (as an unknown outcome) an unexpected fault", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const notConfigured = new PlatformError("X is not configured on this service.", {
      kind: "permanent",
      code: "platform_not_configured",
    });
    const result = await deliver([{ post_id: id }], {
      deps: {
        adapterFor: () => {
          throw notConfigured;
        },
      },
    });
    expect(result.acks).toBe(1);
    expect((await rowsOf(id))[0]).toMatchObject({
      status: "FAILED",
      error: { code: "platform_not_configured" },
    });

    const other = await publishingPost(t);
    vi.spyOn(console, "error").mockImplementation(() => {});
    const fake = fakePlatform([new TypeError("boom")]);
    const faulted = await deliver([{ post_id: other }], { deps: fake.deps });
    expect(faulted.retries).toBe(1);
    expect((await rowsOf(other))[0]).toMatchObject({
      status: "PUBLISHING",
      error: { code: "unexpected_error" },
    });
  });

  it("settles the post from its rows: one failed and one published row make it FAILED, the rows tell", async () => {
    const t = await createTenant();
    const id = await publishingPost(t, { accounts: t.accounts.map((a) => a.id) });
    const fake = fakePlatform();
    const deps = {
      adapterFor: (_: Env, platform: string) =>
        platform === "linkedin"
          ? ({
              publish: () =>
                Promise.reject(new PlatformError("No.", { kind: "permanent", code: "content_rejected" })),
            } as never)
          : fake.adapter,
    };
    await deliver([{ post_id: id }], { deps });
    const rows = await rowsOf(id);
    expect(rows.map((r) => [r.platform, r.status])).toEqual([
      ["twitter", "PUBLISHED"],
      ["linkedin", "FAILED"],
    ]);
    expect((await postOf(id))!.status).toBe("FAILED");
  });

  it("acknowledges malformed messages and messages for deleted posts without calling the platform", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    await env.DB.prepare("DELETE FROM posts WHERE id = ?").bind(id).run();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const fake = fakePlatform();
    const result = await deliver([{ post_id: id }, { nope: 1 }, { post_id: "3" }, { post_id: 1, due: "x" }], {
      deps: fake.deps,
    });
    expect(result.acks).toBe(4);
    expect(warn).toHaveBeenCalledTimes(3);
    expect(fake.calls).toEqual([]);
  });
});

describe("the draft", () => {
  it("hands the platform the thread in order with signed media, the row's settings, the fingerprint and the account", async () => {
    const t = await createTenant();
    const photo = await insertMedia(t.workspace.id, { name: "cat.jpg", mime_type: "image/jpeg", size: 2048 });
    const clip = await insertMedia(t.workspace.id, {
      name: "clip.mp4",
      mime_type: "video/mp4",
      type: "video",
      size: 99,
    });
    const id = await publishingPost(t, {
      content: [{ text: "One", media: [clip, photo] }, { text: "Two" }, { text: "Three", media: [photo] }],
      settings: { twitter: { reply_settings: "following" } },
    });
    const sealed = await encryptSecret(env.ENCRYPTION_KEY, "platform-token");
    await env.DB.prepare("UPDATE accounts SET access_token_enc = ?, platform_user_id = 'u-1' WHERE id = ?")
      .bind(sealed, t.accounts[0]!.id)
      .run();
    const fake = fakePlatform();
    await deliver([{ post_id: id }], { deps: fake.deps });
    const [row] = await rowsOf(id);
    const [call] = fake.calls;
    const handle = (await env.DB.prepare("SELECT username FROM accounts WHERE id = ?")
      .bind(t.accounts[0]!.id)
      .first<{ username: string }>())!.username;
    expect(call!.account).toEqual({ handle, platformUserId: "u-1", accessToken: "platform-token" });
    expect(call!.draft!.fingerprint).toBe(`sp-${row!.id}-1`);
    expect(call!.draft!.settings).toMatchObject({ reply_settings: "following", poll: { enabled: false } });
    const link = (mediaId: number) =>
      expect.stringMatching(
        new RegExp(`^https://api\\.example\\.test/media/${mediaId}\\?expires=\\d+&sig=[0-9a-f]{64}$`),
      );
    expect(call!.draft!.items).toEqual([
      {
        text: "One",
        media: [
          {
            url: link(clip),
            mime: "video/mp4",
            kind: "video",
            size: 99,
            name: "clip.mp4",
            open: expect.any(Function),
          },
          {
            url: link(photo),
            mime: "image/jpeg",
            kind: "image",
            size: 2048,
            name: "cat.jpg",
            open: expect.any(Function),
          },
        ],
      },
      { text: "Two", media: [] },
      {
        text: "Three",
        media: [
          {
            url: link(photo),
            mime: "image/jpeg",
            kind: "image",
            size: 2048,
            name: "cat.jpg",
            open: expect.any(Function),
          },
        ],
      },
    ]);
  });

  it("gives an account without a stored token a null access token", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const fake = fakePlatform();
    await deliver([{ post_id: id }], { deps: fake.deps });
    expect(fake.calls[0]!.account).toMatchObject({ platformUserId: null, accessToken: null });
  });
});

describe("the lease", () => {
  it("publishes nothing twice when the message is redelivered, in turn or in the same batch", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const fake = fakePlatform();
    await deliver([{ post_id: id }, { post_id: id }], { deps: fake.deps });
    const again = await deliver([{ post_id: id }], { deps: fake.deps });
    expect(again.acks).toBe(1);
    expect(fake.publishes()).toHaveLength(1);
    expect((await rowsOf(id))[0]!.posted_on).toHaveLength(1);
  });

  it("lets only one of two consumers racing on a post publish each row", async () => {
    const t = await createTenant();
    const id = await publishingPost(t, { accounts: t.accounts.map((a) => a.id) });
    let n = 0;
    const fake = fakePlatform([
      async () => {
        // A slow platform, so that both consumers are at work at once (not a wait for anything).
        await new Promise((resolve) => setTimeout(resolve, 50));
        n++;
        return { id: String(n), url: `https://x.example/${n}` };
      },
    ]);
    const [a, b] = await Promise.all([
      deliver([{ post_id: id }], { deps: fake.deps }),
      deliver([{ post_id: id }], { deps: fake.deps }),
    ]);
    expect(a.acks + b.acks).toBe(2);
    expect(fake.publishes()).toHaveLength(2);
    expect(new Set(fake.publishes().map((c) => c.fingerprint)).size).toBe(2);
    expect((await rowsOf(id)).map((r) => r.status)).toEqual(["PUBLISHED", "PUBLISHED"]);
  });

  it("leaves a row whose live lease another consumer holds", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    await env.DB.prepare(
      "UPDATE post_platforms SET attempt_id = 'other', attempt_started_at = ?, attempts = 1 WHERE post_id = ?",
    )
      .bind(Date.now() - 60_000, id)
      .run();
    const fake = fakePlatform();
    const result = await deliver([{ post_id: id }], { deps: fake.deps });
    expect(result).toMatchObject({ acks: 1, retries: 0 });
    expect(fake.calls).toEqual([]);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING", attempt_id: "other" });
  });

  it("takes over a lease older than the attempt timeout and reconciles before publishing", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const [row] = await rowsOf(id);
    await env.DB.prepare(
      "UPDATE post_platforms SET attempt_id = 'dead', attempt_started_at = ?, attempts = 1 WHERE id = ?",
    )
      .bind(Date.now() - ATTEMPT_TIMEOUT_MS - 1000, row!.id)
      .run();
    const fake = fakePlatform();
    // The dead worker's call had reached the platform.
    fake.published.set(`sp-${row!.id}-1`, { id: "42", url: "https://x.example/42" });
    await deliver([{ post_id: id }], { deps: fake.deps });
    expect(fake.calls.map((c) => c.method)).toEqual(["find"]);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: "42", attempts: 2 });
  });

  it("reconciles after an unknown outcome: the next attempt finds the post and publishes nothing", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const fake = fakePlatform([
      async (draft) => {
        fake.published.set(draft.fingerprint, { id: "9", url: "https://x.example/9" });
        throw new PlatformError("timed out", { kind: "unknown_outcome", code: "timeout" });
      },
      { id: "10", url: "https://x.example/10" },
    ]);
    const first = await deliver([{ post_id: id }], { deps: fake.deps });
    expect(first.retries).toBe(1);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING", error: { code: "timeout" } });
    await deliver([{ post_id: id }], { deps: fake.deps, attempts: 2 });
    expect(fake.calls.map((c) => c.method)).toEqual(["publish", "find"]);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: "9", error: null });
  });

  it("publishes when reconciling finds nothing", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const fake = fakePlatform([transient(), { id: "5", url: "https://x.example/5" }]);
    await deliver([{ post_id: id }], { deps: fake.deps });
    await deliver([{ post_id: id }], { deps: fake.deps, attempts: 2 });
    expect(fake.calls.map((c) => c.method)).toEqual(["publish", "find", "publish"]);
    expect(fake.calls.map((c) => c.fingerprint)).toEqual(Array(3).fill(fake.calls[0]!.fingerprint));
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: "5" });
  });

  it("writes nothing for an attempt that lost its lease while the platform was answering", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const fake = fakePlatform([
      async () => {
        // Taken over meanwhile (this attempt outlived the timeout).
        await env.DB.prepare("UPDATE post_platforms SET attempt_id = 'taker' WHERE post_id = ?")
          .bind(id)
          .run();
        return { id: "1", url: "https://x.example/1" };
      },
    ]);
    await deliver([{ post_id: id }], { deps: fake.deps });
    expect((await rowsOf(id))[0]).toMatchObject({
      status: "PUBLISHING",
      attempt_id: "taker",
      platform_post_id: null,
    });
    expect((await postOf(id))!.status).toBe("PUBLISHING");
  });
});
