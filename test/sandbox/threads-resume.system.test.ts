import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { insertMedia } from "../support/db";
import { connected, emulatedDeps, postsOf, published, redeliver, statsOf, untilSettled } from "./support";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
});
afterEach(() => {
  vi.useRealTimers();
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
