// What Instagram and Threads share when a publication outlasts an attempt (Meta's container lifecycle,
// src/sandbox/meta-graph.ts): on the emulator through the real queue consumer, a container past Meta's
// 24 hours (EXPIRED) is replaced and the post published once, and raced or redelivered messages make no
// second container. Each platform's own resume tests are in <platform>-resume.system.test.ts.
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
