// TikTok on the sandbox's emulator of its API (src/sandbox/tiktok/), through the real adapter: connect,
// Direct Post of a video (FILE_UPLOAD, chunks PUT from R2) and of photos (PULL_FROM_URL), the post
// status with moderation, the refusals TikTok gives, the failure triggers through the publishing engine,
// the Display API's list (find) and query (insights), a token refresh, and the user removing the app.
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { decryptSecret } from "../../src/lib/crypto";
import type { Fetch } from "../../src/platforms/types";
import { mintToken } from "../../src/sandbox/mint";
import { deliver as deliverSync } from "../analytics/queue";
import { runFlow } from "../delegation/support";
import { jpegBytes, mp4Bytes } from "../media/support";
import { syncPost, uploadMedia } from "../platforms/live/harness";
import { deliver, publishingPost, rowsOf, storedProgress } from "../publishing/support";
import { expectSameBytes } from "../support/bytes";
import { call, ORIGIN } from "../support/client";
import { createTenant } from "../support/seed";
import { waitFor } from "../support/wait";
import {
  accountRow,
  emulatedDeps,
  postsOf,
  published,
  redeliver,
  type Connected as Seeded,
  connected as seeded,
  statsOf,
  untilSettled,
} from "./support";

const SANDBOX = `${ORIGIN}/sandbox/tiktok`;

afterEach(() => {
  vi.useRealTimers();
});

type Connected = { accountId: number; handle: string; tenant: Awaited<ReturnType<typeof createTenant>> };

/** Connects a TikTok account through the API's connect flow and the sandbox's consent page. */
async function connect(): Promise<Connected> {
  const tenant = await createTenant();
  const handle = `tt_${crypto.randomUUID().slice(0, 8)}`;
  const started = await call("POST", "/api/v1/accounts/connect", {
    key: tenant.key,
    body: {
      workspace_id: tenant.workspace.id,
      platform: "tiktok",
      redirect_url: "https://app.example.test/done",
    },
  });
  expect(started.status).toBe(201);
  const consent = new URL(started.body.authorize_url);
  const { landed } = await runFlow(started.body.authorize_url, { handle });
  expect(consent.origin).toBe(ORIGIN);
  expect(landed.searchParams.get("status")).toBe("connected");
  return { accountId: Number(landed.searchParams.get("account_id")), handle, tenant };
}

const sandboxGet = async (path: string, headers: Record<string, string> = {}) => {
  const res = await exports.default.fetch(`${SANDBOX}${path}`, { headers, redirect: "manual" });
  return {
    status: res.status,
    headers: res.headers,
    body: res.headers.get("content-type")?.includes("json") ? await res.json<any>() : null,
  };
};
const stats = async (handle: string) => (await sandboxGet(`/accounts/${handle}/stats`)).body;
const ledger = async (handle: string) => (await sandboxGet(`/accounts/${handle}/posts`)).body.data as any[];

/** A call to TikTok's API on the emulator, as the adapter makes it. */
async function tiktok(method: string, path: string, token: string | null, body?: unknown) {
  const headers: Record<string, string> = { "content-type": "application/json; charset=UTF-8" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await exports.default.fetch(`${SANDBOX}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** A post of a video (stored in the library) on the connected account, made PUBLISHING for the consumer. */
async function videoPost(connected: Connected, text: string, settings: Record<string, unknown> = {}) {
  const video = mp4Bytes(64 * 1024);
  const media = await uploadMedia(connected as never, "clip.mp4", "video/mp4", video);
  const id = await publishingPost(connected.tenant, {
    accounts: [connected.accountId],
    content: [{ text, media: [media] }],
    settings: { tiktok: { privacy_level: "PUBLIC_TO_EVERYONE", ...settings } },
  });
  return { id, video };
}

describe("TikTok on the emulator", () => {
  it("connects, then publishes a video: FILE_UPLOAD init, the bytes PUT, PUBLISH_COMPLETE; one publication", async () => {
    const connected = await connect();
    const row = await accountRow(connected.accountId);
    expect(row.username).toBe(connected.handle);
    // TikTok's open_id: a UUID-like id.
    expect(row.platform_user_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(row.refresh_token_enc).toMatch(/^v2:/);
    // TikTok's access tokens last two hours (src/sandbox/tiktok/token.ts).
    expect(row.token_expires_at).toBeGreaterThan(Date.now() + 7100_000);
    expect(row.token_expires_at).toBeLessThanOrEqual(Date.now() + 7200_000);

    const { id, video } = await videoPost(connected, "Our launch, in fifteen seconds", {
      disable_comment: true,
    });
    const result = await deliver([{ post_id: id }]);
    expect(result).toMatchObject({ acks: 1, retries: 0 });
    const [published] = await rowsOf(id);
    // Moderation has not named the public id yet: the publish id stands for the post, with no URL until
    // the follow-up read ("TikTok publishing across attempts" below) fills both in.
    expect(published).toMatchObject({ status: "PUBLISHED", error: null, post_url: null });
    expect(published!.platform_post_id).toMatch(/^v_pub_file~v2-1\.\d+$/);
    // The publish id's page is the video's, before moderation names the public id.
    const byPublishId = await sandboxGet(`/posts/${encodeURIComponent(published!.platform_post_id!)}`);
    expect(byPublishId.status).toBe(200);

    const posts = await ledger(connected.handle);
    expect(posts).toHaveLength(1);
    expect(posts[0].id).toMatch(/^7\d{18}$/);
    expect(posts[0].text).toEqual(["Our launch, in fifteen seconds"]);
    // The body TikTok's video/init received, in its own names.
    expect(posts[0].platform_request).toEqual({
      post_info: {
        title: "Our launch, in fifteen seconds",
        privacy_level: "PUBLIC_TO_EVERYONE",
        disable_comment: true,
        disable_duet: false,
        disable_stitch: false,
        brand_content_toggle: false,
        brand_organic_toggle: false,
        is_aigc: false,
      },
      source_info: {
        source: "FILE_UPLOAD",
        video_size: video.length,
        chunk_size: video.length,
        total_chunk_count: 1,
      },
    });
    // The bytes arrived whole: the post's page shows the stored video.
    const media = await exports.default.fetch(posts[0].media[0].url);
    await expectSameBytes(new Uint8Array(await media.arrayBuffer()), video);
    expect(await stats(connected.handle)).toEqual({ publications: 1, media_uploads: 1, token_refreshes: 0 });

    // The post URL (tiktok.com's /@handle/video/<id>) leads to the post's page on the sandbox.
    const page = await sandboxGet(`/@${connected.handle}/video/${published!.platform_post_id}`);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`${SANDBOX}/posts/${posts[0].id}`);
  });

  it("publishes photos by PULL_FROM_URL through content/init, with TikTok's photo fields", async () => {
    const connected = await connect();
    const photos = [
      await uploadMedia(connected as never, "a.jpg", "image/jpeg", jpegBytes(4096)),
      await uploadMedia(connected as never, "b.jpg", "image/jpeg", jpegBytes(5000)),
    ];
    const id = await publishingPost(connected.tenant, {
      accounts: [connected.accountId],
      content: [{ text: "Two photos", media: photos }],
      settings: { tiktok: { title: "Album", privacy_level: "MUTUAL_FOLLOW_FRIENDS" } },
    });
    await deliver([{ post_id: id }]);
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({ status: "PUBLISHED" });
    expect(row!.platform_post_id).toMatch(/^p_pub_url~v2\.\d+$/);
    const posts = await ledger(connected.handle);
    expect(posts).toHaveLength(1);
    const request = posts[0].platform_request;
    expect(request).toMatchObject({
      media_type: "PHOTO",
      post_mode: "DIRECT_POST",
      post_info: { title: "Album", description: "Two photos", privacy_level: "MUTUAL_FOLLOW_FRIENDS" },
      source_info: { source: "PULL_FROM_URL", photo_cover_index: 0 },
    });
    expect(request.source_info.photo_images).toHaveLength(2);
    expect(posts[0].media.map((m: { url: string }) => m.url)).toEqual(request.source_info.photo_images);
    // Not public: TikTok's video list does not show it.
    const token = await mintToken(env, "tiktok", connected.handle);
    const list = await tiktok("POST", "/v2/video/list/?fields=id,title", token, { max_count: 20 });
    expect(JSON.parse(list.text).data.videos).toEqual([]);
    expect(await stats(connected.handle)).toMatchObject({ publications: 1, media_uploads: 1 });
  });

  it("refuses what TikTok refuses, in TikTok's error format", async () => {
    const connected = await connect();
    const token = await mintToken(env, "tiktok", connected.handle);
    // A text-only post: the platform's check refuses it before any call.
    const id = await publishingPost(connected.tenant, {
      accounts: [connected.accountId],
      content: [{ text: "Just words" }],
      settings: { tiktok: { privacy_level: "SELF_ONLY" } },
    });
    await deliver([{ post_id: id }]);
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({ status: "FAILED", error: { code: "media_required" } });
    // And TikTok itself: photos without an image, a privacy level the creator does not have, bad chunks.
    const noPhotos = await tiktok("POST", "/v2/post/publish/content/init/", token, {
      media_type: "PHOTO",
      post_mode: "DIRECT_POST",
      post_info: { description: "Just words", privacy_level: "PUBLIC_TO_EVERYONE" },
      source_info: { source: "PULL_FROM_URL", photo_images: [] },
    });
    expect(noPhotos.status).toBe(400);
    expect(JSON.parse(noPhotos.text)).toMatchObject({
      error: { code: "invalid_params", message: expect.any(String), log_id: expect.any(String) },
    });
    const privacy = await tiktok("POST", "/v2/post/publish/video/init/", token, {
      post_info: { title: "x", privacy_level: "FOLLOWER_OF_CREATOR" },
      source_info: { source: "FILE_UPLOAD", video_size: 1000, chunk_size: 1000, total_chunk_count: 1 },
    });
    expect(JSON.parse(privacy.text).error.code).toBe("privacy_level_option_mismatch");
    const chunks = await tiktok("POST", "/v2/post/publish/video/init/", token, {
      post_info: { title: "x", privacy_level: "SELF_ONLY" },
      source_info: {
        source: "FILE_UPLOAD",
        video_size: 20_000_000,
        chunk_size: 1_000_000,
        total_chunk_count: 20,
      },
    });
    expect(chunks.status).toBe(400);
    expect(JSON.parse(chunks.text).error).toMatchObject({
      code: "invalid_params",
      message: expect.stringContaining("5 MB"),
    });
    const malformed = await tiktok("POST", "/v2/post/publish/video/init/", token, { post_info: 3 });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.text).error.code).toBe("invalid_params");
    // No token, a forged one.
    const anonymous = await tiktok("POST", "/v2/post/publish/creator_info/query/", null);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text).error.code).toBe("access_token_invalid");
    const forged = await tiktok("POST", "/v2/post/publish/creator_info/query/", "forged");
    expect(JSON.parse(forged.text).error.code).toBe("access_token_invalid");
    // Another creator's publish id is not found.
    const other = await mintToken(env, "tiktok", `${connected.handle}-other`);
    const init = await tiktok("POST", "/v2/post/publish/video/init/", token, {
      post_info: { title: "mine", privacy_level: "SELF_ONLY" },
      source_info: { source: "PULL_FROM_URL", video_url: "https://cdn.example.test/v.mp4" },
    });
    const publishId = JSON.parse(init.text).data.publish_id;
    const foreign = await tiktok("POST", "/v2/post/publish/status/fetch/", other, { publish_id: publishId });
    expect(foreign.status).toBe(400);
    expect(JSON.parse(foreign.text).error.code).toBe("invalid_publish_id");
  });

  it("names the public id only after moderation (90 s), as an int64 number, and only for PUBLIC_TO_EVERYONE", async () => {
    const connected = await connect();
    const token = await mintToken(env, "tiktok", connected.handle, 3600_000);
    const pull = (privacy: string) =>
      tiktok("POST", "/v2/post/publish/video/init/", token, {
        post_info: { title: `Pulled ${privacy}`, privacy_level: privacy },
        source_info: { source: "PULL_FROM_URL", video_url: "https://cdn.example.test/v.mp4" },
      });
    const open = JSON.parse((await pull("PUBLIC_TO_EVERYONE")).text).data.publish_id;
    const hidden = JSON.parse((await pull("SELF_ONLY")).text).data.publish_id;
    const friends = JSON.parse((await pull("MUTUAL_FOLLOW_FRIENDS")).text).data.publish_id;
    const status = async (publishId: string) =>
      (await tiktok("POST", "/v2/post/publish/status/fetch/", token, { publish_id: publishId })).text;
    expect(JSON.parse(await status(open)).data).toEqual({
      status: "PUBLISH_COMPLETE",
      publicaly_available_post_id: [],
    });

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 91_000);
    const [publicPost] = (await ledger(connected.handle)).filter(
      (p) => p.text[0] === "Pulled PUBLIC_TO_EVERYONE",
    );
    // Written as digits: a JSON number beyond 2^53, which the adapter quotes before parsing.
    expect(await status(open)).toContain(`"publicaly_available_post_id":[${publicPost.id}]`);
    expect(JSON.parse(await status(hidden)).data.publicaly_available_post_id).toEqual([]);
    expect(JSON.parse(await status(friends)).data.publicaly_available_post_id).toEqual([]);
    // Only the public one is listed.
    const list = JSON.parse((await tiktok("POST", "/v2/video/list/?fields=id,title", token, {})).text);
    expect(list.data.videos).toEqual([{ id: publicPost.id, title: "Pulled PUBLIC_TO_EVERYONE" }]);
  });

  it("#sandbox-fail: FAILED with TikTok's error, nothing published", async () => {
    const connected = await connect();
    const { id } = await videoPost(connected, "Bad #sandbox-fail");
    expect(await deliver([{ post_id: id }])).toMatchObject({ acks: 1, retries: 0 });
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({
      status: "FAILED",
      error: { code: "invalid_params", message: expect.stringContaining("#sandbox-fail") },
    });
    expect(await ledger(connected.handle)).toEqual([]);
  });

  it("#sandbox-flaky: TikTok's 500 internal_error twice, retried, then one publication", async () => {
    const connected = await connect();
    const { id } = await videoPost(connected, "Wobbly #sandbox-flaky");
    for (const attempt of [1, 2]) {
      expect((await deliver([{ post_id: id }], { attempts: attempt })).retries).toBe(1);
      expect((await rowsOf(id))[0]!.error).toMatchObject({
        message: expect.stringContaining("internal_error"),
      });
    }
    await deliver([{ post_id: id }], { attempts: 3 });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(await ledger(connected.handle)).toHaveLength(1);
  });

  it("#sandbox-slow: the post stays in processing for 150 s, unpublished until then", async () => {
    const connected = await connect();
    const token = await mintToken(env, "tiktok", connected.handle, 3600_000);
    const init = await tiktok("POST", "/v2/post/publish/video/init/", token, {
      post_info: { title: "Heavy #sandbox-slow", privacy_level: "PUBLIC_TO_EVERYONE" },
      source_info: { source: "PULL_FROM_URL", video_url: "https://cdn.example.test/v.mp4" },
    });
    const publishId = JSON.parse(init.text).data.publish_id;
    const status = async () =>
      JSON.parse(
        (await tiktok("POST", "/v2/post/publish/status/fetch/", token, { publish_id: publishId })).text,
      ).data;
    expect(await status()).toEqual({ status: "PROCESSING_DOWNLOAD" });
    expect(await ledger(connected.handle)).toEqual([]);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 151_000);
    expect(await status()).toEqual({ status: "PUBLISH_COMPLETE", publicaly_available_post_id: [] });
    expect(await ledger(connected.handle)).toHaveLength(1);
  });

  it("#sandbox-ratelimit: TikTok's 429 rate_limit_exceeded is retried, then one publication", async () => {
    const connected = await connect();
    const { id } = await videoPost(connected, "Busy #sandbox-ratelimit");
    const first = await deliver([{ post_id: id }]);
    expect(first.retries).toBe(1);
    expect((await rowsOf(id))[0]).toMatchObject({
      status: "PUBLISHING",
      error: { message: expect.stringContaining("rate_limit_exceeded") },
    });
    await deliver([{ post_id: id }], { attempts: 2 });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(await ledger(connected.handle)).toHaveLength(1);
  });

  it("#sandbox-lost: a photo post's init answer is lost; find reads the video list; published exactly once", async () => {
    const connected = await connect();
    const photo = await uploadMedia(connected as never, "a.jpg", "image/jpeg", jpegBytes(4096));
    const id = await publishingPost(connected.tenant, {
      accounts: [connected.accountId],
      content: [{ text: "Where did it go #sandbox-lost", media: [photo] }],
      settings: { tiktok: { privacy_level: "PUBLIC_TO_EVERYONE" } },
    });
    const first = await deliver([{ post_id: id }]);
    expect(first.retries).toBe(1);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING", error: expect.anything() });
    await deliver([{ post_id: id }], { attempts: 2 });
    const posts = await ledger(connected.handle);
    expect(posts).toHaveLength(1);
    // Found in the list by its description: the video id itself.
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: posts[0].id });
    expect(await stats(connected.handle)).toMatchObject({ publications: 1, media_uploads: 1 });

    // Its insights: video/query's counts in TikTok's names, mapped back by the adapter.
    const synced = await syncPost(connected as never, id);
    const token = await mintToken(env, "tiktok", connected.handle);
    const query = JSON.parse(
      (
        await tiktok(
          "POST",
          "/v2/video/query/?fields=id,like_count,comment_count,share_count,view_count",
          token,
          {
            filters: { video_ids: [posts[0].id] },
          },
        )
      ).text,
    );
    const video = query.data.videos[0];
    expect(Object.keys(video).sort()).toEqual([
      "comment_count",
      "id",
      "like_count",
      "share_count",
      "view_count",
    ]);
    expect(video.view_count).toBeGreaterThan(0);
    expect(synced.platforms[0].analytics).toMatchObject({
      impressions: video.view_count,
      likes: video.like_count,
      comments: video.comment_count,
      shares: video.share_count,
      quotes: 0,
      saves: 0,
    });
    // Another creator's token does not see it.
    const other = await mintToken(env, "tiktok", `${connected.handle}-other`);
    const foreign = JSON.parse(
      (await tiktok("POST", "/v2/video/query/?fields=id", other, { filters: { video_ids: [posts[0].id] } }))
        .text,
    );
    expect(foreign.data.videos).toEqual([]);
  });

  it("#sandbox-lost on a video upload: the init's answer is lost, no bytes ever arrive; the retry publishes once", async () => {
    const connected = await connect();
    const { id } = await videoPost(connected, "Lost upload #sandbox-lost");
    expect((await deliver([{ post_id: id }])).retries).toBe(1);
    // TikTok holds a publish that never gets its video: nothing is published, and find finds nothing.
    expect(await ledger(connected.handle)).toEqual([]);
    await deliver([{ post_id: id }], { attempts: 2 });
    const posts = await ledger(connected.handle);
    expect(posts).toHaveLength(1);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED" });
    expect(await stats(connected.handle)).toMatchObject({ publications: 1, media_uploads: 2 });
  });

  it("refreshes the token through the service (rotating refresh token), counted once", async () => {
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
    expect(await decryptSecret(key, after.refresh_token_enc)).not.toBe(
      await decryptSecret(key, before.refresh_token_enc),
    );
    // A fresh two hours.
    expect(after.token_expires_at).toBeGreaterThan(Date.now() + 7100_000);
    expect(after.token_expires_at).toBeLessThanOrEqual(Date.now() + 7200_000);
    expect(await stats(connected.handle)).toEqual({ publications: 1, media_uploads: 1, token_refreshes: 1 });
  });

  it("the user removes the app: the next call is refused, the refresh too; the row fails, the account needs a reconnect", async () => {
    const connected = await connect();
    const revoked = await exports.default.fetch(`${SANDBOX}/accounts/${connected.handle}/revoke`, {
      method: "POST",
    });
    expect(revoked.status).toBe(200);
    const { id } = await videoPost(connected, "Too late");
    await deliver([{ post_id: id }]);
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({ status: "FAILED", platform_post_id: null });
    const accounts = await call("GET", `/api/v1/accounts?workspace_id=${connected.tenant.workspace.id}`, {
      key: connected.tenant.key,
    });
    const account = accounts.body.data.find((a: { id: number }) => a.id === connected.accountId);
    expect(account.health.status).toBe("reauth_required");
    expect(await ledger(connected.handle)).toEqual([]);
  });

  it("disconnecting revokes the token at /v2/oauth/revoke/: TikTok refuses it afterwards", async () => {
    const connected = await connect();
    const row = await accountRow(connected.accountId);
    const token = await decryptSecret(env.ENCRYPTION_KEY, row.access_token_enc);
    const info = await exports.default.fetch(`${SANDBOX}/v2/user/info/?fields=open_id,username`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await info.json()).toMatchObject({
      data: { user: { open_id: row.platform_user_id, username: connected.handle } },
      error: { code: "ok" },
    });
    const gone = await call("DELETE", `/api/v1/accounts/${connected.accountId}`, {
      key: connected.tenant.key,
    });
    expect(gone.status).toBeLessThan(300);
    // The revocation runs after the answer (waitUntil).
    const after = await waitFor(async () => {
      const res = await exports.default.fetch(`${SANDBOX}/v2/user/info/?fields=open_id`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return res.status === 401 && (await res.json<any>());
    });
    expect(after).toMatchObject({ data: {}, error: { code: "access_token_invalid" } });
  });
});

const later = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

/** A video of the library (`bytes` long) of the connected account. */
const video = (account: Seeded, bytes = 64 * 1024) =>
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

// TikTok's publication across attempts, through the real queue consumer and the real adapter (issue 20,
// items 1 and 6): the publish_id is recorded at init and a row that has one is never initialised again;
// PUBLISH_COMPLETE makes the row PUBLISHED before moderation (publish id, no URL, awaiting) and the
// follow-up sync fills the public id in; a post that is not public never awaits; a slow video is uploaded
// once and published once over several attempts; a crash after init, a lost answer to the last chunk and
// two racing consumers publish nothing twice; chunks take the upload timeout.
describe("TikTok publishing across attempts", () => {
  beforeEach(() => {
    // The adapters' polls move this clock instead of waiting (support.ts clockSleep).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  });

  it("PUBLISHED once before moderation (publish id, no URL, awaiting); the follow-up sync fills the public id in after 90 s", async () => {
    const account = await seeded("tiktok");
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
    const account = await seeded("tiktok");
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
    const account = await seeded("tiktok");
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
    const account = await seeded("tiktok");
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
    const account = await seeded("tiktok");
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
    const account = await seeded("tiktok");
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
    const account = await seeded("tiktok");
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
