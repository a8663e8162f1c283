// What Instagram and Threads share when a publication outlasts an attempt (Meta's container lifecycle,
// src/sandbox/meta-graph.ts): on the emulator through the real queue consumer, a container past Meta's
// 24 hours (EXPIRED) is replaced and the post published once, and raced or redelivered messages make no
// second container; then each platform's own (one file, one runtime: every test here moves the clock).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { insertMedia } from "../support/db";
import { connected, emulatedDeps, postsOf, published, redeliver, statsOf, untilSettled } from "./support";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
});
afterEach(() => {
  vi.useRealTimers();
});

describe.each(["instagram", "threads"] as const)("%s: containers kept between attempts", (platform) => {
  it("an expired container is replaced: a new one is made and published, the old never", async () => {
    const account = await connected(platform);
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const first = await published(
      account,
      { content: [{ text: "Later #sandbox-slow", media: [photo] }] },
      1,
      emulatedDeps(),
    );
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING" });
    // The next attempt comes after Meta's 24 hours: the recorded container is EXPIRED.
    vi.setSystemTime(Date.now() + 25 * 3_600_000);
    const done = await untilSettled(first.id);
    expect(done.rows[0]).toMatchObject({ status: "PUBLISHED" });
    expect(await statsOf(platform, account.handle)).toMatchObject({ publications: 1, media_uploads: 2 });
  });

  it("raced and redelivered messages make no second container and publish once", async () => {
    const account = await connected(platform);
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const deps = emulatedDeps();
    const first = await published(
      account,
      { content: [{ text: "Raced #sandbox-slow", media: [photo] }] },
      1,
      deps,
    );
    await Promise.all([redeliver(first.id, 2, deps), redeliver(first.id, 2, deps)]);
    const done = await untilSettled(first.id, { deps, from: 3 });
    expect(done.rows[0]).toMatchObject({ status: "PUBLISHED" });
    await redeliver(first.id, done.attempts + 1, deps);
    expect(await postsOf(platform, account.handle)).toHaveLength(1);
    expect(await statsOf(platform, account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });
});

describe("Instagram: containers kept between attempts", () => {
  it("#sandbox-slow photo: one container, polled over several attempts, published once", async () => {
    const account = await connected("instagram");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const first = await published(
      account,
      { content: [{ text: "Heavy #sandbox-slow", media: [photo] }] },
      1,
      emulatedDeps(),
    );
    expect(first.delivery).toMatchObject({ retries: 1, delays: [60] });
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING", error: { code: "still_processing" } });
    const done = await untilSettled(first.id);
    expect(done.attempts).toBeGreaterThanOrEqual(3);
    const [post] = await postsOf("instagram", account.handle);
    expect(done.rows[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: post!.id });
    expect(await statsOf("instagram", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("#sandbox-slow carousel: children and parent made once, the same parent published once", async () => {
    const account = await connected("instagram");
    const a = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const b = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const first = await published(
      account,
      { content: [{ text: "Album #sandbox-slow", media: [a, b] }] },
      1,
      emulatedDeps(),
    );
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING" });
    const done = await untilSettled(first.id);
    expect(done.rows[0]).toMatchObject({ status: "PUBLISHED" });
    const posts = await postsOf("instagram", account.handle);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.media).toHaveLength(2);
    // Two children and one carousel container, whatever the number of attempts.
    expect(await statsOf("instagram", account.handle)).toMatchObject({ publications: 1, media_uploads: 3 });
  });

  it("a lost media_publish answer is reconciled by the recorded container before any text search", async () => {
    const account = await connected("instagram");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const urls: string[] = [];
    const deps = emulatedDeps({
      wrap: (inner) => async (input, init) => {
        urls.push(new Request(input, init).url);
        return inner(input, init);
      },
    });
    const first = await published(
      account,
      { content: [{ text: "Where did it go #sandbox-lost", media: [photo] }] },
      1,
      deps,
    );
    expect(first.delivery.retries).toBe(1);
    const created = (await postsOf("instagram", account.handle))[0]!.platform_request.media_publish
      .creation_id;
    urls.length = 0;
    const { rows } = await redeliver(first.id, 2, deps);
    const posts = await postsOf("instagram", account.handle);
    expect(posts).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: posts[0]!.id });
    // The container's status was the first thing asked; nothing was created or published again.
    expect(new URL(urls[0]!).pathname).toMatch(new RegExp(`/${created}$`));
    expect(urls.some((url) => url.includes("media_publish"))).toBe(false);
    expect(await statsOf("instagram", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });
});

describe("Threads: containers kept between attempts", () => {
  it("#sandbox-slow image and video: one container each, published once over several attempts", async () => {
    const account = await connected("threads");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const clip = await insertMedia(account.workspace.id, { mime_type: "video/mp4", type: "video" });
    for (const media of [photo, clip]) {
      const first = await published(
        account,
        { content: [{ text: `Heavy ${media} #sandbox-slow`, media: [media] }] },
        1,
        emulatedDeps(),
      );
      expect(first.delivery).toMatchObject({ retries: 1, delays: [60] });
      expect(first.rows[0]).toMatchObject({ status: "PUBLISHING", error: { code: "still_processing" } });
      const done = await untilSettled(first.id);
      expect(done.rows[0]).toMatchObject({ status: "PUBLISHED" });
    }
    expect(await postsOf("threads", account.handle)).toHaveLength(2);
    expect(await statsOf("threads", account.handle)).toMatchObject({ publications: 2, media_uploads: 2 });
  });

  it("a thread interrupted after its first item goes on from there without re-posting it", async () => {
    const account = await connected("threads");
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    const first = await published(
      account,
      { content: [{ text: "Part one" }, { text: "Part two #sandbox-slow", media: [photo] }] },
      1,
      emulatedDeps(),
    );
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING", error: { code: "still_processing" } });
    expect(await postsOf("threads", account.handle)).toHaveLength(1);
    const done = await untilSettled(first.id);
    const [root] = await postsOf("threads", account.handle);
    expect(root!.text).toEqual(["Part one"]);
    expect(root!.replies.map((reply) => reply.text)).toEqual(["Part two #sandbox-slow"]);
    expect(done.rows[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: root!.id });
    expect(await statsOf("threads", account.handle)).toMatchObject({ publications: 2, media_uploads: 1 });
  });

  it("a lost threads_publish answer is reconciled by the recorded container before any text search", async () => {
    const account = await connected("threads");
    const urls: string[] = [];
    const deps = emulatedDeps({
      wrap: (inner) => async (input, init) => {
        urls.push(new Request(input, init).url);
        return inner(input, init);
      },
    });
    const first = await published(account, { content: [{ text: "Where did it go #sandbox-lost" }] }, 1, deps);
    expect(first.delivery.retries).toBe(1);
    const [post] = await postsOf("threads", account.handle);
    const container = post!.platform_request.threads_publish.creation_id;
    urls.length = 0;
    const { rows } = await redeliver(first.id, 2, deps);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: post!.id });
    expect(new URL(urls[0]!).pathname).toMatch(new RegExp(`/${container}$`));
    expect(urls.some((url) => url.includes("threads_publish"))).toBe(false);
    expect(await statsOf("threads", account.handle)).toMatchObject({ publications: 1 });
  });
});
