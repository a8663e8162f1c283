// YouTube on the sandbox's emulator of the Data API v3 and Google's OAuth (src/sandbox/youtube/), through
// the real adapter: connect (channels.list mine=true), a video through the resumable upload protocol,
// the refusals YouTube gives in Google's error format, the failure triggers through the publishing
// engine, find (the recorded session, else uploads playlist + tags), statistics and comment threads (analytics sync), a reply
// (commentThreads.insert), a token refresh, the user removing the app, and disconnect's revocation.
// Merged with the resume tests (one runtime boot): uploads that resume across attempts move the clock.
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decryptSecret } from "../../src/lib/crypto";
import { SPECS } from "../../src/platforms/catalog";
import { publishingAdapter } from "../../src/platforms/index";
import type { Fetch } from "../../src/platforms/types";
import { CHUNK_BYTES } from "../../src/platforms/youtube/media";
import type { PublishDeps } from "../../src/publishing/deps";
import { mintToken } from "../../src/sandbox/mint";
import { SESSION_LIFETIME_SECONDS } from "../../src/sandbox/youtube/media";
import { runFlow } from "../delegation/support";
import { mp4Bytes } from "../media/support";
import { syncPost, uploadMedia } from "../platforms/live/harness";
import { deliver, publishingPost, rowsOf, storedProgress } from "../publishing/support";
import { expectSameBytes } from "../support/bytes";
import { call, ORIGIN } from "../support/client";
import { createTenant } from "../support/seed";
import { waitFor } from "../support/wait";
import {
  accountRow,
  adapterFor,
  clockSleep,
  connected,
  conversation,
  emulatedDeps,
  expectAnswersRead,
  published,
  redeliver,
  type Connected as SandboxConnected,
  statsOf,
} from "./support";

afterEach(() => {
  vi.useRealTimers();
});

const SANDBOX = `${ORIGIN}/sandbox/youtube`;

type Connected = { accountId: number; handle: string; tenant: Awaited<ReturnType<typeof createTenant>> };

async function connect(): Promise<Connected> {
  const tenant = await createTenant();
  const handle = `yt_${crypto.randomUUID().slice(0, 8)}`;
  const started = await call("POST", "/api/v1/accounts/connect", {
    key: tenant.key,
    body: {
      workspace_id: tenant.workspace.id,
      platform: "youtube",
      redirect_url: "https://app.example.test/done",
    },
  });
  expect(started.status).toBe(201);
  // Google's consent page, on the sandbox: accounts.google.com's path.
  const { landed, steps } = await runFlow(started.body.authorize_url, { handle });
  expect(steps.authorize.headers.get("location")).toContain("/sandbox/youtube/o/oauth2/v2/auth?");
  // One channel: the service skips its picker.
  expect(steps.channelHtml).toBeUndefined();
  expect(landed.searchParams.get("status")).toBe("connected");
  return { accountId: Number(landed.searchParams.get("account_id")), handle, tenant };
}

const sandboxGet = async (path: string, headers: Record<string, string> = {}) => {
  const res = await exports.default.fetch(`${SANDBOX}${path}`, { headers, redirect: "manual" });
  const json = res.headers.get("content-type")?.includes("json");
  return { status: res.status, headers: res.headers, body: json ? await res.json<any>() : null };
};
const stats = async (handle: string) => (await sandboxGet(`/accounts/${handle}/stats`)).body;
const ledger = async (handle: string) => (await sandboxGet(`/accounts/${handle}/posts`)).body.data as any[];

/** A call to the Data API on the emulator. */
async function google(method: string, path: string, token: string | null, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  const res = await exports.default.fetch(`${SANDBOX}${path}`, {
    ...init,
    method,
    headers,
    redirect: "manual",
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

async function videoPost(connected: Connected, text: string, settings: Record<string, unknown> = {}) {
  const video = mp4Bytes(64 * 1024);
  const media = await uploadMedia(connected as never, "clip.mp4", "video/mp4", video);
  const id = await publishingPost(connected.tenant, {
    accounts: [connected.accountId],
    content: [{ text, media: [media] }],
    settings: { youtube: settings },
  });
  return { id, video };
}

/** The Google error shape every refusal has. */
const googleError = (code: number, reason: string) => ({
  error: {
    code,
    message: expect.any(String),
    errors: [expect.objectContaining({ message: expect.any(String), domain: expect.any(String), reason })],
    status: expect.any(String),
  },
});

describe("YouTube on the emulator", () => {
  it("connects, then uploads a video by the resumable protocol: one publication, in YouTube's field names", async () => {
    const connected = await connect();
    const row = await accountRow(connected.accountId);
    expect(row.username).toBe(connected.handle);
    expect(row.platform_user_id).toMatch(/^UC[A-Za-z0-9_-]{22}$/);
    expect(row.refresh_token_enc).toMatch(/^v2:/);

    const { id, video } = await videoPost(connected, "Launch day\nThe whole story.", { tags: ["launch"] });
    expect(await deliver([{ post_id: id }])).toMatchObject({ acks: 1, retries: 0 });
    const [published] = await rowsOf(id);
    expect(published).toMatchObject({ status: "PUBLISHED", error: null });
    expect(published!.platform_post_id).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(published!.post_url).toBe(`${SANDBOX}/posts/${published!.platform_post_id}`);

    const posts = await ledger(connected.handle);
    expect(posts).toHaveLength(1);
    expect(posts[0].id).toBe(published!.platform_post_id);
    expect(posts[0].platform_request).toEqual({
      snippet: {
        title: "Launch day",
        description: "Launch day\nThe whole story.",
        tags: ["launch", expect.stringMatching(/^sp-/)],
        categoryId: "22",
      },
      status: { privacyStatus: "public", selfDeclaredMadeForKids: false },
    });
    const media = await exports.default.fetch(posts[0].media[0].url);
    await expectSameBytes(new Uint8Array(await media.arrayBuffer()), video);
    expect(await stats(connected.handle)).toEqual({ publications: 1, media_uploads: 1, token_refreshes: 0 });

    const watch = await sandboxGet(`/watch?v=${posts[0].id}`);
    expect(watch.status).toBe(302);
    expect(watch.headers.get("location")).toBe(`${SANDBOX}/posts/${posts[0].id}`);

    // videos.list as the owner: processed, the tags shown to the owner only.
    const token = await mintToken(env, "youtube", connected.handle);
    const listed = await google("GET", `/youtube/v3/videos?part=snippet,status&id=${posts[0].id}`, token);
    expect(listed.body.items[0]).toMatchObject({
      kind: "youtube#video",
      id: posts[0].id,
      snippet: { title: "Launch day", channelId: row.platform_user_id, tags: expect.any(Array) },
      status: { uploadStatus: "processed", privacyStatus: "public" },
    });
    const stranger = await mintToken(env, "youtube", `${connected.handle}-x`);
    const seen = await google("GET", `/youtube/v3/videos?part=snippet&id=${posts[0].id}`, stranger);
    expect(seen.body.items[0].snippet.tags).toBeUndefined();
  });

  it("speaks the resumable protocol: 308 Resume Incomplete with Range, 256 KiB chunks, the video on the last", async () => {
    const connected = await connect();
    const token = await mintToken(env, "youtube", connected.handle);
    const size = 256 * 1024 + 1000;
    const opened = await google(
      "POST",
      "/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status",
      token,
      {
        headers: {
          "content-type": "application/json; charset=UTF-8",
          "x-upload-content-length": String(size),
          "x-upload-content-type": "video/mp4",
        },
        body: JSON.stringify({ snippet: { title: "Chunked" }, status: { privacyStatus: "private" } }),
      },
    );
    expect(opened.status).toBe(200);
    const session = opened.headers.get("location")!;
    expect(session.startsWith(`${SANDBOX}/upload/youtube/v3/videos?`)).toBe(true);
    const path = session.slice(SANDBOX.length);
    const bytes = mp4Bytes(size);
    const put = (from: number, to: number, body: Uint8Array | null = bytes.slice(from, to + 1)) =>
      google("PUT", path, token, {
        headers: {
          "content-range": body ? `bytes ${from}-${to}/${size}` : `bytes */${size}`,
          "content-type": "video/mp4",
        },
        body,
      });
    // A chunk that is not a multiple of 256 KiB (and not the last) is refused.
    expect((await put(0, 999)).body).toMatchObject(googleError(400, "invalidParameter"));
    const first = await put(0, 256 * 1024 - 1);
    expect(first.status).toBe(308);
    expect(first.headers.get("range")).toBe(`bytes=0-${256 * 1024 - 1}`);
    // Asking where the upload stands.
    const status = await put(0, 0, null);
    expect(status.status).toBe(308);
    expect(status.headers.get("range")).toBe(`bytes=0-${256 * 1024 - 1}`);
    const last = await put(256 * 1024, size - 1);
    expect(last.status).toBe(201);
    expect(last.body).toMatchObject({
      kind: "youtube#video",
      status: { uploadStatus: "processed", privacyStatus: "private" },
    });
    // A private video: its owner lists it, nobody else sees it.
    const [post] = await ledger(connected.handle);
    expect(post.id).toBe(last.body.id);
    const stranger = await mintToken(env, "youtube", `${connected.handle}-x`);
    expect((await google("GET", `/youtube/v3/videos?part=id&id=${post.id}`, stranger)).body.items).toEqual(
      [],
    );
  });

  it("refuses what YouTube refuses, in Google's error format", async () => {
    const connected = await connect();
    // A post without a video: the platform's check refuses it before any call.
    const id = await publishingPost(connected.tenant, {
      accounts: [connected.accountId],
      content: [{ text: "Words" }],
    });
    await deliver([{ post_id: id }]);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "FAILED", error: { code: "video_required" } });

    const token = await mintToken(env, "youtube", connected.handle);
    const open = (body: unknown, t: string | null = token) =>
      google("POST", "/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status", t, {
        headers: { "content-type": "application/json", "x-upload-content-type": "video/mp4" },
        body: JSON.stringify(body),
      });
    expect((await open({ snippet: { title: "" } })).body).toMatchObject(googleError(400, "invalidTitle"));
    expect((await open({ snippet: { title: "ok", description: "a <b>" } })).body).toMatchObject(
      googleError(400, "invalidDescription"),
    );
    expect((await open({ snippet: { title: "ok", categoryId: "999" } })).body).toMatchObject(
      googleError(400, "invalidCategoryId"),
    );
    expect((await open({ snippet: 5 })).status).toBe(400);
    const anonymous = await open({ snippet: { title: "ok" } }, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject(googleError(401, "authError"));
    expect(anonymous.body.error.status).toBe("UNAUTHENTICATED");
    expect((await google("GET", "/youtube/v3/channels?mine=true", token)).body).toMatchObject(
      googleError(400, "required"),
    );
    // Another channel's uploads playlist and an unknown video.
    const other = (
      await google(
        "GET",
        "/youtube/v3/channels?part=contentDetails&mine=true",
        await mintToken(env, "youtube", "someone-else"),
      )
    ).body;
    const playlist = other.items[0].contentDetails.relatedPlaylists.uploads;
    expect(
      (await google("GET", `/youtube/v3/playlistItems?part=contentDetails&playlistId=${playlist}`, token))
        .body,
    ).toMatchObject(googleError(404, "playlistNotFound"));
    expect(
      (await google("GET", "/youtube/v3/commentThreads?part=snippet&videoId=nope", token)).body,
    ).toMatchObject(googleError(404, "videoNotFound"));
  });

  it("#sandbox-fail: FAILED with Google's error, nothing published", async () => {
    const connected = await connect();
    const { id } = await videoPost(connected, "Bad #sandbox-fail");
    expect(await deliver([{ post_id: id }])).toMatchObject({ acks: 1, retries: 0 });
    expect((await rowsOf(id))[0]).toMatchObject({
      status: "FAILED",
      error: { code: "badRequest", message: expect.stringContaining("#sandbox-fail") },
    });
    expect(await ledger(connected.handle)).toEqual([]);
  });

  it("#sandbox-flaky: 503 backendError twice, retried, then one publication", async () => {
    const connected = await connect();
    const { id } = await videoPost(connected, "Wobbly #sandbox-flaky");
    // find's second look after 5 s moves the clock instead of waiting.
    const deps = emulatedDeps();
    for (const attempt of [1, 2]) {
      expect((await deliver([{ post_id: id }], { attempts: attempt, deps })).retries).toBe(1);
      expect((await rowsOf(id))[0]!.error).toMatchObject({ code: "server_error" });
    }
    await deliver([{ post_id: id }], { attempts: 3, deps });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(await ledger(connected.handle)).toHaveLength(1);
    // The refused attempts opened no upload session: one media upload, one video.
    expect(await stats(connected.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("#sandbox-slow: the video stays uploaded, processing, for 150 s", async () => {
    const connected = await connect();
    const { id } = await videoPost(connected, "Heavy #sandbox-slow");
    await deliver([{ post_id: id }]);
    const videoId = (await rowsOf(id))[0]!.platform_post_id!;
    const token = await mintToken(env, "youtube", connected.handle);
    const look = async () =>
      (await google("GET", `/youtube/v3/videos?part=status,processingDetails&id=${videoId}`, token)).body
        .items[0];
    expect(await look()).toMatchObject({
      status: { uploadStatus: "uploaded" },
      processingDetails: { processingStatus: "processing" },
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 151_000);
    try {
      expect(await look()).toMatchObject({
        status: { uploadStatus: "processed" },
        processingDetails: { processingStatus: "succeeded" },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("#sandbox-ratelimit: 429 rateLimitExceeded with Retry-After, retried after it, then one publication", async () => {
    const connected = await connect();
    const { id } = await videoPost(connected, "Busy #sandbox-ratelimit");
    const first = await deliver([{ post_id: id }]);
    expect(first).toMatchObject({ retries: 1, delays: [2] });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING", error: { code: "rate_limited" } });
    await deliver([{ post_id: id }], { attempts: 2, deps: emulatedDeps() });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(await ledger(connected.handle)).toHaveLength(1);
  });

  it("#sandbox-lost: the last chunk's answer is lost; find asks the recorded session for its video; once", async () => {
    const connected = await connect();
    const { id } = await videoPost(connected, "Where did it go #sandbox-lost");
    expect((await deliver([{ post_id: id }])).retries).toBe(1);
    const posts = await ledger(connected.handle);
    expect(posts).toHaveLength(1);
    await deliver([{ post_id: id }], { attempts: 2 });
    expect(await ledger(connected.handle)).toHaveLength(1);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: posts[0].id });
    expect(await stats(connected.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("syncs statistics and comment threads in YouTube's names, and replies with commentThreads.insert", async () => {
    const connected = await connect();
    const { id } = await videoPost(connected, "Watch this");
    await deliver([{ post_id: id }]);
    const [row] = await rowsOf(id);
    const videoId = row!.platform_post_id!;

    const synced = await syncPost(connected as never, id);
    const token = await mintToken(env, "youtube", connected.handle);
    const statistics = (await google("GET", `/youtube/v3/videos?part=statistics&id=${videoId}`, token)).body
      .items[0].statistics;
    expect(Object.keys(statistics).sort()).toEqual([
      "commentCount",
      "favoriteCount",
      "likeCount",
      "viewCount",
    ]);
    expect(statistics.viewCount).toMatch(/^\d+$/);
    expect(synced.platforms[0].analytics).toMatchObject({
      impressions: Number(statistics.viewCount),
      likes: Number(statistics.likeCount),
      comments: Number(statistics.commentCount),
      saves: 0,
      shares: 0,
      quotes: 0,
    });
    expect(synced.comments.length).toBeGreaterThanOrEqual(1);
    expect(synced.comments[0]).toMatchObject({ platform: "youtube", content: expect.any(String) });

    // The reply: a top-level comment by the channel, found again by its text.
    const adapter = publishingAdapter(env, "youtube", "live");
    const auth = { handle: connected.handle, platformUserId: null, accessToken: null };
    const reply = await adapter.reply!(auth, videoId, "Thanks for watching!", "fp-reply-1");
    expect(reply.url).toBe(`${SANDBOX}/posts/${encodeURIComponent(reply.id)}`);
    expect(
      await adapter.find(auth, {
        text: "Thanks for watching!",
        fingerprint: "fp-reply-1",
        replyTo: videoId,
        settings: {},
      } as never),
    ).toEqual(reply);
    const threads = (await google("GET", `/youtube/v3/commentThreads?part=snippet&videoId=${videoId}`, token))
      .body;
    expect(threads.kind).toBe("youtube#commentThreadListResponse");
    const mine = threads.items.find((t: { id: string }) => t.id === reply.id);
    expect(mine.snippet.topLevelComment.snippet).toMatchObject({
      textOriginal: "Thanks for watching!",
      authorChannelId: {
        value: await (async () => (await accountRow(connected.accountId)).platform_user_id)(),
      },
    });
    // Others' comments show their display text only.
    const audience = threads.items.find((t: { id: string }) => t.id !== reply.id);
    expect(audience.snippet.topLevelComment.snippet.textOriginal).toBeUndefined();
    const page = await sandboxGet(`/posts/${videoId}`, { accept: "application/json" });
    expect(page.body.replies.map((r: { text: string }) => r.text)).toEqual(["Thanks for watching!"]);
  });

  it("refreshes the token through the service; Google keeps the refresh token", async () => {
    const connected = await connect();
    const before = await accountRow(connected.accountId);
    await env.DB.prepare("UPDATE accounts SET token_expires_at = ? WHERE id = ?")
      .bind(Date.now() + 60_000, connected.accountId)
      .run();
    const { id } = await videoPost(connected, "After a refresh");
    await deliver([{ post_id: id }]);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED" });
    const after = await accountRow(connected.accountId);
    const key = env.ENCRYPTION_KEY;
    expect(await decryptSecret(key, after.refresh_token_enc)).toBe(
      await decryptSecret(key, before.refresh_token_enc),
    );
    expect(await decryptSecret(key, after.access_token_enc)).not.toBe(
      await decryptSecret(key, before.access_token_enc),
    );
    expect(await stats(connected.handle)).toEqual({ publications: 1, media_uploads: 1, token_refreshes: 1 });
  });

  it("the user removes the app: the upload is refused, the refresh too; the row fails, the account needs a reconnect", async () => {
    const connected = await connect();
    expect(
      (await exports.default.fetch(`${SANDBOX}/accounts/${connected.handle}/revoke`, { method: "POST" }))
        .status,
    ).toBe(200);
    const { id } = await videoPost(connected, "Too late");
    await deliver([{ post_id: id }]);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "FAILED", platform_post_id: null });
    const accounts = await call("GET", `/api/v1/accounts?workspace_id=${connected.tenant.workspace.id}`, {
      key: connected.tenant.key,
    });
    expect(accounts.body.data.find((a: { id: number }) => a.id === connected.accountId).health.status).toBe(
      "reauth_required",
    );
    expect(await ledger(connected.handle)).toEqual([]);
  });

  it("disconnecting revokes the grant at oauth2.googleapis.com/revoke: the tokens stop working", async () => {
    const connected = await connect();
    const row = await accountRow(connected.accountId);
    const token = await decryptSecret(env.ENCRYPTION_KEY, row.access_token_enc);
    const mine = await google("GET", "/youtube/v3/channels?part=snippet,contentDetails&mine=true", token);
    expect(mine.body.items[0]).toMatchObject({
      kind: "youtube#channel",
      id: row.platform_user_id,
      snippet: { customUrl: `@${connected.handle}` },
      contentDetails: { relatedPlaylists: { uploads: `UU${row.platform_user_id.slice(2)}` } },
    });
    expect(
      (await call("DELETE", `/api/v1/accounts/${connected.accountId}`, { key: connected.tenant.key })).status,
    ).toBeLessThan(300);
    const refused = await waitFor(async () => {
      const answer = await google("GET", "/youtube/v3/channels?part=id&mine=true", token);
      return answer.status === 401 && answer.body;
    });
    expect(refused).toMatchObject(googleError(401, "authError"));
    // Revoking again: Google's invalid_token.
    const again = await exports.default.fetch(`${ORIGIN}/sandbox/youtube/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({
      error: "invalid_token",
      error_description: "Token expired or revoked",
    });
  });
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

async function resumablePost(account: SandboxConnected, text: string, size = 64 * 1024) {
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
    const first = await published(account, await resumablePost(account, "Long take", size), 1, deps);
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING" });
    expect(first.delivery.retries).toBe(1);
    expect(await progressOf(first.rows[0])).toMatchObject({
      upload_session: { url: expect.stringContaining("/upload/youtube/v3/videos?"), size },
    });

    const { rows } = await redeliver(first.id, 2, deps);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    // Settled: the row's progress is cleared (src/publishing/progress.ts).
    expect(await storedProgress(rows[0]!.id)).toBeNull();
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
    const first = await published(account, await resumablePost(account, "Gone quiet #sandbox-lost"), 1, deps);
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING" });
    const { rows } = await redeliver(first.id, 2, deps);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: expect.any(String) });
    expect(await statsOf("youtube", account.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
    // Reconciled by the recorded session, not by the fingerprint tag among the uploads.
    expect(searched(seen)).toBe(0);
    // Settled: the row's progress is cleared (src/publishing/progress.ts).
    expect(await storedProgress(rows[0]!.id)).toBeNull();
  });

  it("a redelivered, raced message uploads and publishes nothing twice", async () => {
    const account = await connected("youtube");
    const { deps } = depsWith(dropSecondChunk);
    const size = CHUNK_BYTES + 4096;
    const first = await published(account, await resumablePost(account, "Raced take", size), 1, deps);
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
    const first = await published(account, await resumablePost(account, "Week-old take", size), 1, deps);
    expect(first.rows[0]).toMatchObject({ status: "PUBLISHING" });
    const recorded = (await progressOf(first.rows[0])).upload_session.url;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + SESSION_LIFETIME_SECONDS * 1000 + 60_000);
    const { rows } = await redeliver(first.id, 2, deps);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(recorded).toBeDefined();
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
    const ok = await published(one, await resumablePost(one, "Slow pipe"), 1, slowChunks.deps);
    expect(ok.rows[0]).toMatchObject({ status: "PUBLISHED" });

    const two = await connected("youtube");
    const slowOpen = depsWith(
      delaying((s) => s.method === "POST" && s.path.endsWith("/upload/youtube/v3/videos")),
      { sleep: clockSleep, timeouts },
    );
    const late = await published(two, await resumablePost(two, "Slow desk"), 1, slowOpen.deps);
    expect(late.rows[0]).toMatchObject({ status: "PUBLISHING" });
    expect(JSON.stringify(late.rows[0]!.error)).toMatch(/timed out|timeout/i);
    expect(await statsOf("youtube", two.handle)).toMatchObject({ publications: 0 });
  });
});

describe("a follower's comments on YouTube (the sandbox's follower tool)", () => {
  it("are comment threads, a reply in its thread's replies (parentId), with the author's channel; the channel's own is is_own", async () => {
    const account = await connected("youtube");
    const post = await resumablePost(account, "Talk to me");
    const { rows } = await published(
      account,
      { ...post, settings: { youtube: { privacy_status: "public" } } },
      1,
      emulatedDeps(),
    );
    expect(rows[0]).toMatchObject({ status: "PUBLISHED" });
    const videoId = rows[0]!.platform_post_id!;
    const { first, second, own } = await conversation("youtube", account, videoId);

    const { adapter, auth } = await adapterFor("youtube", account);
    const comments = await adapter.comments!(auth, videoId);
    expect(comments.find((c) => c.id === first.body.id)).toMatchObject({
      content: "Love it",
      author_name: "@fan_one",
      parent_id: null,
      is_own: false,
      contact: { username: "fan_one", profile_url: "http://www.youtube.com/@fan_one" },
    });
    expectAnswersRead(comments, { first, second, own });
  });
});

describe("managing comments on YouTube (comments.insert, setModerationStatus, comments.delete)", () => {
  /** A public video of a fresh channel, with the follower conversation under it. */
  async function talkedAbout(title: string) {
    const account = await connected("youtube");
    const post = await resumablePost(account, title);
    const { rows } = await published(
      account,
      { ...post, settings: { youtube: { privacy_status: "public" } } },
      1,
      emulatedDeps(),
    );
    const videoId = rows[0]!.platform_post_id!;
    const talk = await conversation("youtube", account, videoId);
    return { account, videoId, ...talk, ...(await adapterFor("youtube", account)) };
  }

  it("answers in the thread (an answer to a reply goes under the top-level comment); the answer reads back as the channel's own", async () => {
    const { videoId, first, second, adapter, auth } = await talkedAbout("Ask me");
    const ref = (id: string, parentId: string | null) => ({
      id,
      postId: videoId,
      parentId,
      isOwn: false,
      hidden: false,
    });

    const answer = await adapter.replyToComment!(auth, ref(first.body.id, null), "Glad you do");
    expect(answer.id.startsWith(`${first.body.id}.`)).toBe(true);
    expect(answer.url).toContain(`lc=${encodeURIComponent(answer.id)}`);
    const deeper = await adapter.replyToComment!(auth, ref(second.body.id, first.body.id), "You too");

    const comments = await adapter.comments!(auth, videoId);
    expect(comments.find((c) => c.id === answer.id)).toMatchObject({
      content: "Glad you do",
      parent_id: first.body.id,
      is_own: true,
    });
    expect(comments.find((c) => c.id === deeper.id)).toMatchObject({
      parent_id: first.body.id,
      is_own: true,
    });
  });

  it("hides a comment (held for review, read back hidden) and shows it again (published)", async () => {
    const { videoId, first, adapter, auth } = await talkedAbout("Moderate me");
    const ref = { id: first.body.id, postId: videoId, parentId: null, isOwn: false, hidden: false };
    expect((await adapter.comments!(auth, videoId)).find((c) => c.id === first.body.id)?.hidden).toBe(false);

    await adapter.hideComment!(auth, ref, true);
    const hidden = await adapter.comments!(auth, videoId);
    expect(hidden.find((c) => c.id === first.body.id)).toMatchObject({ hidden: true, content: "Love it" });

    await adapter.hideComment!(auth, { ...ref, hidden: true }, false);
    expect((await adapter.comments!(auth, videoId)).find((c) => c.id === first.body.id)?.hidden).toBe(false);
  });

  it("deletes the channel's own comment (gone; deleting again resolves); another's is refused by the rules and by YouTube", async () => {
    const { videoId, first, own, adapter, auth } = await talkedAbout("Delete me");
    const mine = { id: own.body.id, postId: videoId, parentId: first.body.id, isOwn: true, hidden: false };
    await adapter.deleteComment!(auth, mine);
    expect((await adapter.comments!(auth, videoId)).map((c) => c.id)).not.toContain(own.body.id);
    await expect(adapter.deleteComment!(auth, mine)).resolves.toBeUndefined();

    const theirs = { id: first.body.id, postId: videoId, parentId: null, isOwn: false, hidden: false };
    expect(SPECS.youtube.commentRules?.("delete", theirs)).toMatch(/only a comment's author/);
    await expect(adapter.deleteComment!(auth, theirs)).rejects.toMatchObject({
      kind: "permanent",
      code: "forbidden",
    });
  });
});
