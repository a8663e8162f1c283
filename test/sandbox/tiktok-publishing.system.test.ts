// TikTok's publication across attempts, on the emulator through the real queue consumer and the real
// adapter (issue 20, items 1 and 6): the publish_id is recorded at init and a row that has one is never
// initialised again; PUBLISH_COMPLETE makes the row PUBLISHED before moderation (publish id, no URL,
// awaiting) and the follow-up sync fills the public id in; a SELF_ONLY post never awaits; a slow video is
// uploaded once and published once over several attempts; a crash after init, a lost answer to the last
// chunk and two racing consumers publish nothing twice; chunks take the upload timeout.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Fetch } from "../../src/platforms/types";
import { deliver as deliverSync } from "../analytics/queue";
import { mp4Bytes } from "../media/support";
import { uploadMedia } from "../platforms/live/harness";
import { deliver, rowsOf, storedProgress } from "../publishing/support";
import { ORIGIN } from "../support/client";
import {
  type Connected,
  connected,
  emulatedDeps,
  postsOf,
  published,
  redeliver,
  statsOf,
  untilSettled,
} from "./support";

const SANDBOX = `${ORIGIN}/sandbox/tiktok`;

beforeEach(() => {
  // The adapters' polls move this clock instead of waiting (support.ts clockSleep).
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
});
afterEach(() => {
  vi.useRealTimers();
});

const later = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

/** A video of the library (`bytes` long) of the connected account. */
const video = (account: Connected, bytes = 64 * 1024) =>
  uploadMedia(
    { tenant: { key: account.key, workspace: account.workspace } } as never,
    "clip.mp4",
    "video/mp4",
    mp4Bytes(bytes),
  );

const fields = (mediaId: number, text: string, privacy = "PUBLIC_TO_EVERYONE") => ({
  content: [{ text, media: [mediaId] }],
  settings: { tiktok: { privacy_level: privacy } },
});

const rowState = async (rowId: number) =>
  (await env.DB.prepare(
    "SELECT progress, awaiting_public_id, post_url, platform_post_id FROM post_platforms WHERE id = ?",
  )
    .bind(rowId)
    .first<{
      progress: string | null;
      awaiting_public_id: number;
      post_url: string | null;
      platform_post_id: string | null;
    }>())!;

/** The real adapters on the emulator with `fetch` wrapped (a fault, a delay) and the given timeouts. */
const wrappedDeps = (wrap: (inner: Fetch) => Fetch, timeouts?: { call: number; upload: number }) =>
  emulatedDeps({ wrap, ...(timeouts ? { timeouts } : {}) });

const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : String(input));
const isChunk = (input: RequestInfo | URL, init?: RequestInit) =>
  (init?.method ?? "GET") === "PUT" && urlOf(input).includes("/sandbox/tiktok/upload/");
const isStatus = (input: RequestInfo | URL) => urlOf(input).includes("/post/publish/status/fetch/");

/** Waits `ms` (real time), or throws as fetch does when `signal` aborts first. */
const pause = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

describe("TikTok publishing across attempts", () => {
  it("PUBLISHED once before moderation (publish id, no URL, awaiting); the follow-up sync fills the public id in after 90 s", async () => {
    const account = await connected("tiktok");
    const media = await video(account);
    const { id, rows, delivery } = await published(account, fields(media, "Launch clip"), 1, emulatedDeps());
    expect(delivery).toMatchObject({ acks: 1, retries: 0 });
    const [row] = rows;
    expect(row).toMatchObject({ status: "PUBLISHED", error: null, post_url: null });
    expect(row!.platform_post_id).toMatch(/^v_pub_file~v2-1\.\d+$/);
    expect((await rowState(row!.id)).awaiting_public_id).toBe(1);
    // The API shows it the same way: published, the publish id standing for the post, no URL yet.
    expect(await statsOf("tiktok", account.handle)).toEqual({
      publications: 1,
      media_uploads: 1,
      token_refreshes: 0,
    });

    // Moderation has not finished: the follow-up read finds no public id yet and is retried.
    const early = await deliverSync([row!.id]);
    expect(early.retryMessages).toHaveLength(1);
    expect((await rowState(row!.id)).awaiting_public_id).toBe(1);

    later(91);
    await deliverSync([row!.id]);
    const [post] = await postsOf("tiktok", account.handle);
    const after = (await rowsOf(id))[0]!;
    expect(after).toMatchObject({ status: "PUBLISHED", platform_post_id: post!.id });
    expect(post!.id).toMatch(/^7\d{18}$/);
    expect(after.post_url).toBe(`${SANDBOX}/posts/${post!.id}`);
    expect((await rowState(row!.id)).awaiting_public_id).toBe(0);
    expect(await statsOf("tiktok", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("a SELF_ONLY post is PUBLISHED with no URL and never awaits a public id", async () => {
    const account = await connected("tiktok");
    const media = await video(account);
    const { rows } = await published(account, fields(media, "Just for me", "SELF_ONLY"), 1, emulatedDeps());
    const [row] = rows;
    expect(row).toMatchObject({ status: "PUBLISHED", post_url: null });
    expect(row!.platform_post_id).toMatch(/^v_pub_file~v2-1\./);
    expect((await rowState(row!.id)).awaiting_public_id).toBe(0);
    later(3600);
    await deliverSync([row!.id]);
    expect(await rowState(row!.id)).toMatchObject({
      awaiting_public_id: 0,
      post_url: null,
      platform_post_id: row!.platform_post_id,
    });
  });

  it("#sandbox-slow: one init, one upload, one publication over several attempts (still_processing, then resumed)", async () => {
    const account = await connected("tiktok");
    const media = await video(account);
    const deps = emulatedDeps();
    const { id, rows, delivery } = await published(account, fields(media, "Heavy #sandbox-slow"), 1, deps);
    // The attempt polled to its bound: still processing, retried later; the publish id is on the row.
    expect(delivery).toMatchObject({ acks: 0, retries: 1 });
    expect(rows[0]).toMatchObject({ status: "PUBLISHING", error: { code: "still_processing" } });
    const progress = (await storedProgress(rows[0]!.id))!;
    expect(progress.publish_id).toMatch(/^v_pub_file~v2-1\./);
    const settled = await untilSettled(id, { deps, max: 8 });
    expect(settled.attempts).toBeGreaterThan(1);
    expect(settled.rows[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: progress.publish_id });
    expect(await statsOf("tiktok", account.handle)).toEqual({
      publications: 1,
      media_uploads: 1,
      token_refreshes: 0,
    });
  });

  it("a crash after init (publish_id on the row, the lease expired): the next attempt resumes the upload, never inits again", async () => {
    const account = await connected("tiktok");
    const media = await video(account);
    // The worker dies on its first chunk: the PUT never reaches TikTok.
    const crashing = wrappedDeps((inner) => async (input, init) => {
      if (isChunk(input, init)) throw new Error("the worker died");
      return inner(input, init);
    });
    const { id, rows } = await published(account, fields(media, "Crash after init"), 1, crashing);
    expect(rows[0]!.status).toBe("PUBLISHING");
    const row = rows[0]!;
    const recorded = (await storedProgress(row.id))?.publish_id;
    // As a dead worker leaves it: the lease still held, past the attempt timeout.
    await env.DB.prepare(
      "UPDATE post_platforms SET attempt_id = 'dead-worker', attempt_started_at = ? WHERE id = ?",
    )
      .bind(Date.now(), row.id)
      .run();
    later(11 * 60);
    const { rows: after } = await untilSettled(id, { max: 8 });
    // One init: the upload went on under the publish the dead attempt recorded.
    expect(await statsOf("tiktok", account.handle)).toEqual({
      publications: 1,
      media_uploads: 1,
      token_refreshes: 0,
    });
    expect(recorded).toMatch(/^v_pub_file/);
    expect(after[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: recorded });
  });

  it("the last chunk's answer is lost on a private post: reconciled by the recorded publish_id, not published twice", async () => {
    const account = await connected("tiktok");
    const media = await video(account);
    // TikTok receives the whole video, its answer never arrives; the video list never shows a SELF_ONLY post.
    const losing = wrappedDeps((inner) => async (input, init) => {
      if (!isChunk(input, init)) return inner(input, init);
      await inner(input, init);
      throw new TypeError("Network connection lost.");
    });
    const { id, rows } = await published(account, fields(media, "Private and lost", "SELF_ONLY"), 1, losing);
    expect(rows[0]).toMatchObject({ status: "PUBLISHING" });
    const recorded = (await storedProgress(rows[0]!.id))?.publish_id;
    const { rows: after } = await untilSettled(id, { max: 8 });
    // TikTok published it once: the next attempt asked the recorded publish's status, not the video list.
    expect(await statsOf("tiktok", account.handle)).toEqual({
      publications: 1,
      media_uploads: 1,
      token_refreshes: 0,
    });
    expect(after[0]).toMatchObject({ status: "PUBLISHED", post_url: null, platform_post_id: recorded });
    expect(recorded).toMatch(/^v_pub_file/);
  });

  it("two consumers racing on one slow video publish it once, from one init", async () => {
    const account = await connected("tiktok");
    const media = await video(account);
    const deps = emulatedDeps();
    const { id } = await published(account, fields(media, "Raced #sandbox-slow"), 1, deps);
    // A redelivered copy and the retry arrive together.
    await Promise.all([redeliver(id, 2, deps), deliver([{ post_id: id }], { attempts: 2, deps })]);
    const { rows } = await untilSettled(id, { deps, from: 3, max: 8 });
    expect(rows[0]).toMatchObject({ status: "PUBLISHED" });
    expect(await postsOf("tiktok", account.handle)).toHaveLength(1);
    expect(await statsOf("tiktok", account.handle)).toEqual({
      publications: 1,
      media_uploads: 1,
      token_refreshes: 0,
    });
  });

  it("chunks take the upload timeout: a slow PUT succeeds where an ordinary call as slow times out", async () => {
    const account = await connected("tiktok");
    const media = await video(account);
    const timeouts = { call: 1000, upload: 5000 };
    const slowChunks = wrappedDeps(
      (inner) => async (input, init) => {
        if (isChunk(input, init)) await pause(1500, init?.signal);
        return inner(input, init);
      },
      timeouts,
    );
    const { rows } = await published(account, fields(media, "Slow network", "SELF_ONLY"), 1, slowChunks);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });

    // The same delay on an ordinary call (the status fetch) exceeds the call timeout.
    const other = await video(account);
    const slowStatus = wrappedDeps(
      (inner) => async (input, init) => {
        if (isStatus(input)) await pause(1500, init?.signal);
        return inner(input, init);
      },
      timeouts,
    );
    const { rows: timedOut } = await published(
      account,
      fields(other, "Slow status", "SELF_ONLY"),
      1,
      slowStatus,
    );
    expect(timedOut[0]).toMatchObject({ status: "PUBLISHING", error: { code: "timeout" } });
    expect(await statsOf("tiktok", account.handle)).toMatchObject({ media_uploads: 2 });
  });
});
