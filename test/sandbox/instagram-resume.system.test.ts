import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { insertMedia } from "../support/db";
import { connected, emulatedDeps, postsOf, published, redeliver, statsOf, untilSettled } from "./support";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
});
afterEach(() => {
  vi.useRealTimers();
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
