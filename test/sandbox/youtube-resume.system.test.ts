import { afterEach, describe, expect, it, vi } from "vitest";
import type { Fetch } from "../../src/platforms/types";
import { CHUNK_BYTES } from "../../src/platforms/youtube/media";
import type { PublishDeps } from "../../src/publishing/deps";
import { SESSION_LIFETIME_SECONDS } from "../../src/sandbox/youtube/media";
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

type Seen = { method: string; path: string; range: string | null };

/** The real adapter on the emulator through `wrap` around the sandbox's fetch; every request seen. */
function depsWith(
  wrap: (fetcher: Fetch, seen: Seen[]) => Fetch = (f) => f,
  options: Parameters<typeof emulatedDeps>[0] = {},
): { deps: Partial<PublishDeps>; seen: Seen[] } {
  const seen: Seen[] = [];
  const recording = (inner: Fetch): Fetch => {
    const wrapped = wrap(inner, seen);
    return (input, init) => {
      seen.push(seenOf(input, init));
      return wrapped(input, init);
    };
  };
  return { seen, deps: emulatedDeps({ ...options, wrap: recording }) };
}

const seenOf = (input: RequestInfo | URL, init?: RequestInit): Seen => ({
  method: init?.method ?? "GET",
  path: new URL(input instanceof Request ? input.url : String(input)).pathname,
  range: new Headers(init?.headers).get("content-range"),
});
/** A PUT of bytes to the session (not a status query). */
const isChunk = (s: Seen) => s.method === "PUT" && /^bytes \d+-/.test(s.range ?? "");
const isStatusQuery = (s: Seen) => s.method === "PUT" && /^bytes \*\//.test(s.range ?? "");
const searched = (seen: Seen[]) => seen.filter((s) => s.path.endsWith("/playlistItems")).length;

async function videoPost(account: Connected, text: string, size = 64 * 1024) {
  const clip = await uploadMedia(
    { accountId: account.accountId, tenant: { key: account.key, workspace: account.workspace } } as never,
    "clip.mp4",
    "video/mp4",
    mp4Bytes(size),
  );
  return { content: [{ text, media: [clip] }], settings: { youtube: { privacy_status: "private" } } };
}

/** Fails the first byte PUT after the first chunk with a network error (the connection drops). */
const dropSecondChunk = (fetcher: Fetch): Fetch => {
  let dropped = false;
  return async (input, init) => {
    const seen = seenOf(input, init);
    if (!dropped && isChunk(seen) && !seen.range!.startsWith("bytes 0-")) {
      dropped = true;
      throw new TypeError("Network connection lost.");
    }
    return fetcher(input, init);
  };
};

const progressOf = async (row: { id: number } | undefined) => (await storedProgress(row!.id))!;

describe("YouTube uploads resume across attempts", () => {
  it("an upload interrupted midway resumes on the same session: one session, one video", async () => {
    const account = await connected("youtube");
    const { deps, seen } = depsWith(dropSecondChunk);
    const size = CHUNK_BYTES + 4096;
    const first = await published(account, await videoPost(account, "Long take", size), 1, deps);
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING" });
    expect(first.delivery.retries).toBe(1);
    expect(await progressOf(first.rows[0])).toMatchObject({
      upload_session: { url: expect.stringContaining("/upload/youtube/v3/videos?"), size },
    });

    const { rows } = await redeliver(first.id, 2, deps);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect((await progressOf(rows[0])).video_id).toBe(rows[0]!.platform_post_id);
    expect(await statsOf("youtube", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
    // One session opened; the first chunk sent once; the rest sent after asking the session.
    expect(
      seen.filter((s) => s.method === "POST" && s.path.endsWith("/upload/youtube/v3/videos")),
    ).toHaveLength(1);
    expect(seen.filter(isChunk).map((s) => s.range)).toEqual([
      `bytes 0-${CHUNK_BYTES - 1}/${size}`,
      `bytes ${CHUNK_BYTES}-${size - 1}/${size}`,
      `bytes ${CHUNK_BYTES}-${size - 1}/${size}`,
    ]);
    expect(seen.filter(isStatusQuery).length).toBeGreaterThan(0);
    // find asked the session (incomplete: no video), never searched the uploads.
    expect(searched(seen)).toBe(0);
  });

  it("#sandbox-lost: the last chunk's answer is lost; the next attempt asks the session and takes its video", async () => {
    const account = await connected("youtube");
    const { deps, seen } = depsWith();
    const first = await published(account, await videoPost(account, "Gone quiet #sandbox-lost"), 1, deps);
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING" });
    const { rows } = await redeliver(first.id, 2, deps);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: expect.any(String) });
    expect(await statsOf("youtube", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
    // Reconciled by the recorded session, not by the fingerprint tag among the uploads.
    expect(searched(seen)).toBe(0);
    expect((await progressOf(rows[0])).video_id).toBe(rows[0]!.platform_post_id);
  });

  it("a redelivered, raced message uploads and publishes nothing twice", async () => {
    const account = await connected("youtube");
    const { deps } = depsWith(dropSecondChunk);
    const size = CHUNK_BYTES + 4096;
    const first = await published(account, await videoPost(account, "Raced take", size), 1, deps);
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING" });
    await Promise.all([redeliver(first.id, 2, deps), redeliver(first.id, 2, deps)]);
    let { rows } = await redeliver(first.id, 3, deps);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED" });
    ({ rows } = await redeliver(first.id, 4, deps));
    expect(rows[0]).toMatchObject({ status: "PUBLISHED" });
    expect(await statsOf("youtube", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("a session Google says is gone (404 after its week) is replaced by a new one", async () => {
    const account = await connected("youtube");
    const { deps, seen } = depsWith(dropSecondChunk);
    const size = CHUNK_BYTES + 4096;
    const first = await published(account, await videoPost(account, "Week-old take", size), 1, deps);
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING" });
    const recorded = (await progressOf(first.rows[0])).upload_session.url;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + SESSION_LIFETIME_SECONDS * 1000 + 60_000);
    const { rows } = await redeliver(first.id, 2, deps);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect((await progressOf(rows[0])).upload_session.url).not.toBe(recorded);
    expect(await statsOf("youtube", account.handle)).toMatchObject({ publications: 1, media_uploads: 2 });
    expect(
      seen.filter((s) => s.method === "POST" && s.path.endsWith("/upload/youtube/v3/videos")),
    ).toHaveLength(2);
  });

  it("byte PUTs have the upload timeout; an ordinary call delayed the same way times out", async () => {
    const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const delaying =
      (which: (s: Seen) => boolean) =>
      (fetcher: Fetch) =>
      async (input: RequestInfo | URL, init?: RequestInit) => {
        if (which(seenOf(input, init))) await delay(300);
        return fetcher(input, init);
      };
    const timeouts = { call: 50, upload: 5000 };
    const one = await connected("youtube");
    const slowChunks = depsWith(delaying(isChunk), { sleep: clockSleep, timeouts });
    const ok = await published(one, await videoPost(one, "Slow pipe"), 1, slowChunks.deps);
    expect(ok.rows[0]).toMatchObject({ status: "PUBLISHED" });

    const two = await connected("youtube");
    const slowOpen = depsWith(
      delaying((s) => s.method === "POST" && s.path.endsWith("/upload/youtube/v3/videos")),
      { sleep: clockSleep, timeouts },
    );
    const late = await published(two, await videoPost(two, "Slow desk"), 1, slowOpen.deps);
    expect(late.rows[0]).toMatchObject({ status: "PUBLISHING" });
    expect(JSON.stringify(late.rows[0]!.error)).toMatch(/timed out|timeout/i);
    expect(await statsOf("youtube", two.handle)).toMatchObject({ publications: 0 });
  });
});
