import { afterEach, describe, expect, it, vi } from "vitest";
import type { Fetch } from "../../src/platforms/types";
import type { PublishDeps } from "../../src/publishing/deps";
import { boardId } from "../../src/sandbox/pinterest/publish";
import { mp4Bytes } from "../media/support";
import { uploadMedia } from "../platforms/live/harness";
import { storedProgress } from "../publishing/support";
import {
  type Connected,
  clockSleep,
  connected,
  emulatedDeps,
  published,
  redeliver,
  statsOf,
} from "./support";

afterEach(() => {
  vi.useRealTimers();
});

type Seen = { method: string; path: string };

/** The real adapter on the emulator through `wrap` around the sandbox's fetch; every request seen. */
function depsWith(
  wrap: (fetcher: Fetch) => Fetch = (f) => f,
  options: Parameters<typeof emulatedDeps>[0] = {},
): { deps: Partial<PublishDeps>; seen: Seen[] } {
  const seen: Seen[] = [];
  const recording = (inner: Fetch): Fetch => {
    const wrapped = wrap(inner);
    return (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      seen.push({ method: init?.method ?? "GET", path: new URL(url).pathname });
      return wrapped(input, init);
    };
  };
  return { seen, deps: emulatedDeps({ ...options, wrap: recording }) };
}

const isStorage = (input: RequestInfo | URL, init?: RequestInit) =>
  (init?.method ?? (input instanceof Request ? input.method : "GET")) === "POST" &&
  new URL(input instanceof Request ? input.url : String(input)).pathname === "/sandbox/pinterest/";

async function videoPin(account: Connected, text: string, fileName: string) {
  const clip = await uploadMedia(
    { accountId: account.accountId, tenant: { key: account.key, workspace: account.workspace } } as never,
    fileName,
    "video/mp4",
    mp4Bytes(8192),
  );
  return {
    content: [{ text, media: [clip] }],
    settings: { pinterest: { board_id: await boardId(account.handle, "ideas") } },
  };
}

describe("Pinterest video Pins resume across attempts", () => {
  it("#sandbox-slow: registered once, polled by the next attempt, published once", async () => {
    const account = await connected("pinterest");
    const { deps, seen } = depsWith();
    const fields = await videoPin(account, "Slow reel", "reel #sandbox-slow.mp4");
    const first = await published(account, fields, 1, deps);
    // 90 s of polls (on the fake clock), then the attempt ends: the work goes on next attempt.
    expect(first.delivery).toMatchObject({ acks: 0, retries: 1, delays: [30] });
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING", error: { code: "still_processing" } });
    expect(await storedProgress(first.rows[0]!.id)).toMatchObject({
      video: { media_id: expect.stringMatching(/^\d+$/), uploaded: true },
    });

    let attempt = 2;
    let rows = first.rows;
    while (rows[0]!.status === "PUBLISHING" && attempt < 6)
      ({ rows } = await redeliver(first.id, attempt++, deps));
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(attempt).toBe(3);
    expect(await statsOf("pinterest", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
    expect(seen.filter((s) => s.method === "POST" && s.path.endsWith("/v5/media"))).toHaveLength(1);
    expect(seen.filter((s) => isStorage(`https://x.test${s.path}`, { method: s.method }))).toHaveLength(1);
    // find reconciled by the recorded media (not processed yet: no Pin can exist), not by the text.
    expect(seen.filter((s) => s.method === "GET" && s.path.endsWith("/v5/pins"))).toHaveLength(0);
  });

  it("a redelivered message while the media processes publishes nothing twice", async () => {
    const account = await connected("pinterest");
    const { deps } = depsWith();
    const fields = await videoPin(account, "Raced reel", "raced #sandbox-slow.mp4");
    const first = await published(account, fields, 1, deps);
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING" });
    // The queue hands the message out twice at once: one attempt holds the lease.
    await Promise.all([redeliver(first.id, 2, deps), redeliver(first.id, 2, deps)]);
    let { rows } = await redeliver(first.id, 3, deps);
    if (rows[0]!.status === "PUBLISHING") ({ rows } = await redeliver(first.id, 4, deps));
    expect(rows[0]).toMatchObject({ status: "PUBLISHED" });
    ({ rows } = await redeliver(first.id, 5, deps));
    expect(rows[0]).toMatchObject({ status: "PUBLISHED" });
    expect(await statsOf("pinterest", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("#sandbox-lost on the Pin: the next attempt finds it (its media processed), uploads and publishes nothing again", async () => {
    const account = await connected("pinterest");
    const { deps } = depsWith();
    const fields = await videoPin(account, "Lost reel #sandbox-lost", "lost.mp4");
    const first = await published(account, fields, 1, deps);
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING" });
    const { rows } = await redeliver(first.id, 2, deps);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: expect.stringMatching(/^\d+$/) });
    expect(await statsOf("pinterest", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("a media Pinterest failed to process is replaced by a new registration, then published once", async () => {
    const account = await connected("pinterest");
    let failed = 0;
    const { deps } = depsWith((fetcher) => async (input, init) => {
      const response = await fetcher(input, init);
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
      if (failed === 0 && /\/v5\/media\/\d+$/.test(path) && response.ok) {
        failed++;
        const body = (await response.json()) as Record<string, unknown>;
        return Response.json({ ...body, status: "failed" });
      }
      return response;
    });
    const fields = await videoPin(account, "Broken reel", "broken.mp4");
    const first = await published(account, fields, 1, deps);
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING", error: { code: "media_failed" } });
    const { rows } = await redeliver(first.id, 2, deps);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED" });
    expect(await statsOf("pinterest", account.handle)).toMatchObject({ publications: 1, media_uploads: 2 });
  });

  it("the storage upload has the upload timeout; an ordinary call delayed the same way times out", async () => {
    const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const slowStorage = depsWith(
      (fetcher) => async (input, init) => {
        if (isStorage(input, init)) await delay(300);
        return fetcher(input, init);
      },
      { sleep: clockSleep, timeouts: { call: 50, upload: 5000 } },
    );
    const one = await connected("pinterest");
    const ok = await published(one, await videoPin(one, "Big reel", "big.mp4"), 1, slowStorage.deps);
    expect(ok.rows[0]).toMatchObject({ status: "PUBLISHED" });

    // The context's upload timeout is the one that applies (not a figure of the adapter's own): shorter
    // than the storage's answer, the upload times out, and nothing was published.
    const shortUpload = depsWith(
      (fetcher) => async (input, init) => {
        if (isStorage(input, init)) await delay(300);
        return fetcher(input, init);
      },
      { sleep: clockSleep, timeouts: { call: 50, upload: 100 } },
    );
    const three = await connected("pinterest");
    const cut = await published(three, await videoPin(three, "Cut reel", "cut.mp4"), 1, shortUpload.deps);
    expect(cut.rows[0]).toMatchObject({ status: "PUBLISHING" });
    expect(JSON.stringify(cut.rows[0]!.error)).toMatch(/timed out|timeout/i);
    expect(await statsOf("pinterest", three.handle)).toMatchObject({ publications: 0 });

    const slowStatus = depsWith(
      (fetcher) => async (input, init) => {
        const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
        if (/\/v5\/media\/\d+$/.test(path)) await delay(300);
        return fetcher(input, init);
      },
      { sleep: clockSleep, timeouts: { call: 50, upload: 5000 } },
    );
    const two = await connected("pinterest");
    const late = await published(two, await videoPin(two, "Late reel", "late.mp4"), 1, slowStatus.deps);
    expect(late.rows[0]).toMatchObject({ status: "PUBLISHING" });
    expect(JSON.stringify(late.rows[0]!.error)).toMatch(/timed out|timeout/i);
  });
});
