// The TikTok adapter against recorded answers: exactly what it sends for a video (streamed in chunks by
// TikTok's rules) and for photos, the settings and refusals, find, insights, comments, reply, revoke
// and every failure class.
import { describe, expect, it } from "vitest";
import { createAdapter } from "../../../src/platforms/adapter";
import { DEFAULT_TIMEOUTS } from "../../../src/platforms/call";
import { SPECS } from "../../../src/platforms/catalog";
import { memoryProgress } from "../../../src/platforms/progress";
import { tiktok, tiktokPublishing } from "../../../src/platforms/tiktok";
import { CHUNK_BYTES, chunkPlan } from "../../../src/platforms/tiktok/media";
import {
  PUBLIC_ID_WAIT_SECONDS,
  PUBLISH_ID,
  UPLOAD,
  UPLOAD_URL_VALID_MS,
} from "../../../src/platforms/tiktok/publish";
import { MAX_VIDEO_BYTES } from "../../../src/platforms/tiktok/rules";
import { ACCESS_TOKEN_SECONDS, KEEP_ALIVE, REFRESH_TOKEN_SECONDS } from "../../../src/platforms/tiktok/token";
import type { DraftItem, Fetch, PublishDraft, PublishingContext } from "../../../src/platforms/types";
import { tiktokShape } from "../../../src/sandbox/tiktok/token";
import { expectSameBytes } from "../../support/bytes";
import { adapterFor, CREDENTIALS, json, mediaOf, replay } from "../replay";
import { ACCESS, HANDLE, OPEN_ID, POST_ID, RECORDED, UPLOAD_URL } from "./recorded";

const API = "https://open.tiktokapis.com/v2";
const account = { handle: HANDLE, platformUserId: OPEN_ID, accessToken: ACCESS };
/** The publishing half called directly, for what the engine's adapter does not pass through. */
const CONTEXT: PublishingContext = {
  fetch: () => Promise.reject(new Error("no call expected")),
  credentials: CREDENTIALS,
  now: () => Date.now(),
  sleep: async () => {},
  timeouts: DEFAULT_TIMEOUTS,
};
const SETTINGS = {
  privacy_level: "PUBLIC_TO_EVERYONE",
  title: null,
  disable_duet: false,
  disable_stitch: false,
  disable_comment: false,
  brand_content_toggle: false,
  brand_organic_toggle: false,
  is_aigc: false,
};
const draft = (items: DraftItem[], settings: Record<string, unknown> = {}) => ({
  items,
  settings: { ...SETTINGS, ...settings },
  fingerprint: "sp-9-1",
});
const raw = (body: string, status = 200) =>
  new Response(body, { status, headers: { "content-type": "application/json" } });
const uploaded = (status: 201 | 206) => new Response(null, { status });
const photo = (fill: number, mime = "image/jpeg") =>
  mediaOf({ mime, kind: "image", url: `https://api.example.test/media/${fill}.jpg?sig=s` }, fill).media;

/** The adapter with status polling made instant and bounded to three checks. */
const quick = (fetch: Fetch) =>
  createAdapter(
    { ...SPECS.tiktok, publishing: (context) => tiktokPublishing(context, { attempts: 3, delayMs: 0 }) },
    { credentials: CREDENTIALS, fetch },
  );

const bodyOf = async (request: Request) => new TextDecoder().decode(await request.clone().arrayBuffer());
const jsonOf = async (request: Request) => JSON.parse(await bodyOf(request));

/** A JSON call to the Open API: POST, the token as a Bearer header, the documented content type. */
async function expectCall(request: Request, url: string, body?: unknown) {
  expect(request.method).toBe("POST");
  expect(request.url).toBe(url);
  expect(request.headers.get("authorization")).toBe(`Bearer ${ACCESS}`);
  expect(request.headers.get("content-type")).toBe("application/json; charset=UTF-8");
  if (body === undefined) expect(await bodyOf(request)).toBe("");
  else expect(await jsonOf(request)).toEqual(body);
}

const POST_INFO = {
  privacy_level: "PUBLIC_TO_EVERYONE",
  disable_comment: false,
  disable_duet: false,
  // The recorded creator turned stitches off in TikTok.
  disable_stitch: true,
  brand_content_toggle: false,
  brand_organic_toggle: false,
  is_aigc: false,
};

describe("tiktok connect", () => {
  it("asks a connect for publishing and the video list besides the profile", async () => {
    const url = new URL(
      await adapterFor("tiktok", replay().fetch).authorizeUrl({
        redirectUri: "https://api.example.test/api/oauth/delegate/callback",
        state: "s",
        purpose: "connect",
      }),
    );
    expect(url.searchParams.get("scope")).toBe("user.info.basic,user.info.profile,video.publish,video.list");
    expect(url.searchParams.get("client_key")).toBe(CREDENTIALS.clientId);
  });

  // Manage OAuth Access Tokens › Token lifetimes: access 2 hours, refresh 180 days, rotated by a refresh.
  it("the emulator's token answer and the adapter's keep-alive follow TikTok's documented lifetimes", () => {
    expect([ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS]).toEqual([7200, 180 * 86_400]);
    expect(tiktokShape.accessTtl).toBe(ACCESS_TOKEN_SECONDS);
    expect(tiktokShape.refresh).toEqual({ ttl: REFRESH_TOKEN_SECONDS, rotates: true });
    const answer = tiktokShape.tokenResponse(
      {
        grant: "refresh_token",
        accessToken: "act.new",
        expiresIn: tiktokShape.accessTtl,
        refreshToken: "rft.new",
        refreshExpiresIn: tiktokShape.refresh!.ttl,
        scopes: null,
      },
      OPEN_ID,
    );
    expect(answer).toMatchObject({
      expires_in: 7200,
      refresh_expires_in: 15_552_000,
      refresh_token: "rft.new",
    });
    // An idle account is refreshed several times within one refresh token's life, so it never lapses.
    expect(tiktok.keepAlive).toEqual(KEEP_ALIVE);
    expect("every" in KEEP_ALIVE && KEEP_ALIVE.every * 4 <= REFRESH_TOKEN_SECONDS).toBe(true);
  });

  it("refreshes with the standard grant and keeps the rotated refresh token", async () => {
    const { fetch, requests } = replay(json(RECORDED.token));
    expect(await adapterFor("tiktok", fetch).refreshToken("rft.old")).toMatchObject({
      accessToken: ACCESS,
      refreshToken: RECORDED.token.refresh_token,
      expiresIn: 7200,
    });
    expect(Object.fromEntries(new URLSearchParams(await bodyOf(requests[0]!)))).toEqual({
      grant_type: "refresh_token",
      refresh_token: "rft.old",
      client_key: CREDENTIALS.clientId,
      client_secret: CREDENTIALS.clientSecret,
    });
  });
});

describe("tiktok video", () => {
  it("queries the creator, inits a FILE_UPLOAD, PUTs the file as one chunk, and reads the post id", async () => {
    const { media, bytes, opened } = mediaOf({ mime: "video/mp4", kind: "video", size: 1_048_576 }, 3);
    const { fetch, requests } = replay(
      json(RECORDED.creatorInfo),
      json(RECORDED.videoInit),
      uploaded(201),
      raw(RECORDED.statusComplete),
    );
    const post = await adapterFor("tiktok", fetch).publish(
      account,
      draft([{ text: "Launch day", media: [media] }]),
    );
    // The int64 id survives exactly.
    expect(post).toEqual({ id: POST_ID, url: `https://www.tiktok.com/@${HANDLE}/video/${POST_ID}` });

    await expectCall(requests[0]!, `${API}/post/publish/creator_info/query/`);
    await expectCall(requests[1]!, `${API}/post/publish/video/init/`, {
      post_info: { title: "Launch day", ...POST_INFO },
      source_info: {
        source: "FILE_UPLOAD",
        video_size: 1_048_576,
        chunk_size: 1_048_576,
        total_chunk_count: 1,
      },
    });
    const put = requests[2]!;
    expect(put.method).toBe("PUT");
    expect(put.url).toBe(UPLOAD_URL);
    expect(put.headers.get("content-type")).toBe("video/mp4");
    expect(put.headers.get("content-range")).toBe("bytes 0-1048575/1048576");
    expect(put.headers.get("content-length")).toBe("1048576");
    // The upload URL carries its own credentials: the user's token is not sent there.
    expect(put.headers.get("authorization")).toBeNull();
    await expectSameBytes(new Uint8Array(await put.arrayBuffer()), bytes);
    expect(opened).toEqual([{ offset: 0, length: 1_048_576 }]);
    await expectCall(requests[3]!, `${API}/post/publish/status/fetch/`, {
      publish_id: "v_pub_file~v2-1.123456789",
    });
  });

  it("streams a large video in 16 MiB chunks, one bounded range at a time, the last taking the rest", async () => {
    const size = 2 * CHUNK_BYTES + 12_345;
    const { media, bytes, opened } = mediaOf({ mime: "video/quicktime", kind: "video", size }, 5);
    const { fetch, requests } = replay(
      json(RECORDED.creatorInfo),
      json(RECORDED.videoInit),
      uploaded(206),
      uploaded(201),
      raw(RECORDED.statusComplete),
    );
    await adapterFor("tiktok", fetch).publish(
      account,
      draft([{ text: "ignored", media: [media] }], {
        title: "The caption",
        is_aigc: true,
        disable_duet: true,
      }),
    );
    const init = await jsonOf(requests[1]!);
    expect(init.source_info).toEqual({
      source: "FILE_UPLOAD",
      video_size: size,
      chunk_size: CHUNK_BYTES,
      total_chunk_count: 2,
    });
    // settings.title is the caption; the toggles are sent as set.
    expect(init.post_info).toEqual({ ...POST_INFO, title: "The caption", is_aigc: true, disable_duet: true });
    expect(opened).toEqual([
      { offset: 0, length: CHUNK_BYTES },
      { offset: CHUNK_BYTES, length: CHUNK_BYTES + 12_345 },
    ]);
    const [first, second] = [requests[2]!, requests[3]!];
    expect(first.headers.get("content-range")).toBe(`bytes 0-${CHUNK_BYTES - 1}/${size}`);
    expect(second.headers.get("content-range")).toBe(`bytes ${CHUNK_BYTES}-${size - 1}/${size}`);
    expect(first.headers.get("content-type")).toBe("video/quicktime");
    const sent = new Uint8Array(size);
    sent.set(new Uint8Array(await first.arrayBuffer()), 0);
    sent.set(new Uint8Array(await second.arrayBuffer()), CHUNK_BYTES);
    expect(sent.every((byte, i) => byte === bytes[i])).toBe(true);
  });

  it("plans chunks by TikTok's rules", () => {
    expect(chunkPlan(1)).toEqual({ chunkSize: 1, count: 1, ranges: [{ offset: 0, length: 1 }] });
    expect(chunkPlan(CHUNK_BYTES)).toMatchObject({ chunkSize: CHUNK_BYTES, count: 1 });
    // Under two chunks' worth stays one chunk: the last may exceed the chunk size.
    expect(chunkPlan(2 * CHUNK_BYTES - 1)).toMatchObject({
      count: 1,
      ranges: [{ offset: 0, length: 2 * CHUNK_BYTES - 1 }],
    });
    const largest = chunkPlan(MAX_VIDEO_BYTES);
    expect(largest.count).toBe(256);
    expect(largest.ranges.at(-1)).toEqual({ offset: 255 * CHUNK_BYTES, length: CHUNK_BYTES });
    expect(() => chunkPlan(MAX_VIDEO_BYTES + 1)).toThrow(/4 GB/);
    expect(() => chunkPlan(0)).toThrow(/empty/);
  });
});

describe("tiktok photos and settings", () => {
  it("posts photos by URL with the text as description and the title cut to 90", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.creatorInfo),
      json(RECORDED.photoInit),
      json(RECORDED.statusProcessing),
      raw(RECORDED.statusComplete),
    );
    const title = `${"é".repeat(89)}😀 more`;
    const post = await quick(fetch).publish(
      account,
      draft([{ text: "Swipe through", media: [photo(1), photo(2, "image/webp")] }], {
        title,
        privacy_level: "SELF_ONLY",
        disable_comment: true,
        brand_organic_toggle: true,
      }),
    );
    expect(post.id).toBe(POST_ID);
    await expectCall(requests[1]!, `${API}/post/publish/content/init/`, {
      media_type: "PHOTO",
      post_mode: "DIRECT_POST",
      post_info: {
        // The emoji would cross 90 UTF-16 units: it is left out whole.
        title: "é".repeat(89),
        description: "Swipe through",
        privacy_level: "SELF_ONLY",
        disable_comment: true,
        brand_content_toggle: false,
        brand_organic_toggle: true,
      },
      source_info: {
        source: "PULL_FROM_URL",
        photo_cover_index: 0,
        photo_images: [
          "https://api.example.test/media/1.jpg?sig=s",
          "https://api.example.test/media/2.jpg?sig=s",
        ],
      },
    });
    expect(requests).toHaveLength(4);
  });

  it("refuses a privacy level the creator cannot use, before any post call", async () => {
    const { fetch, requests } = replay(json(RECORDED.creatorInfo));
    const failure = await adapterFor("tiktok", fetch)
      .publish(account, draft([{ text: "x", media: [photo(1)] }], { privacy_level: "FOLLOWER_OF_CREATOR" }))
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: "permanent", code: "privacy_level_not_allowed" });
    expect(String(failure)).toContain("PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY");
    expect(requests).toHaveLength(1);
  });

  it("refuses what TikTok cannot post, without calling it", async () => {
    const video = mediaOf({ mime: "video/mp4", kind: "video" }).media;
    const cases: Array<[DraftItem[], string]> = [
      [[{ text: "Just words", media: [] }], "media_required"],
      [
        [
          { text: "One", media: [video] },
          { text: "Two", media: [] },
        ],
        "thread_not_supported",
      ],
      [[{ text: "x", media: [video, photo(1)] }], "invalid_media"],
      [[{ text: "x", media: [photo(1, "image/png")] }], "unsupported_media"],
      [[{ text: "x", media: Array.from({ length: 36 }, (_, i) => photo(i)) }], "too_many_media"],
    ];
    for (const [items, code] of cases) {
      const { fetch, requests } = replay();
      await expect(adapterFor("tiktok", fetch).publish(account, draft(items))).rejects.toMatchObject({
        kind: "permanent",
        code,
      });
      expect(requests).toHaveLength(0);
    }
  });
});

describe("tiktok post status", () => {
  const photoPost = (...statuses: Response[]) => {
    const { fetch, requests } = replay(json(RECORDED.creatorInfo), json(RECORDED.photoInit), ...statuses);
    const outcome = quick(fetch)
      .publish(account, draft([{ text: "p", media: [photo(1)] }]))
      .catch((e: unknown) => e);
    return { outcome, requests };
  };

  it("reads the post id exactly whether TikTok sends it as a number or a string", async () => {
    const asString = RECORDED.statusComplete.replace(`[${POST_ID}]`, `["${POST_ID}"]`);
    const { outcome } = photoPost(raw(asString));
    expect(await outcome).toEqual({ id: POST_ID, url: `https://www.tiktok.com/@${HANDLE}/video/${POST_ID}` });
    const several = RECORDED.statusComplete.replace(`[${POST_ID}]`, `[ ${POST_ID} , 7291234567890123999 ]`);
    expect(await photoPost(raw(several)).outcome).toMatchObject({ id: POST_ID });
  });

  it("a FAILED post is permanent with TikTok's reason; an internal failure is transient", async () => {
    expect(await photoPost(json(RECORDED.statusFailed())).outcome).toMatchObject({
      kind: "permanent",
      code: "picture_size_check_failed",
    });
    expect(await photoPost(json(RECORDED.statusFailed("internal"))).outcome).toMatchObject({
      kind: "transient",
      code: "internal",
    });
  });

  it("still processing after the bound: still_processing, the next attempt polls the same publish", async () => {
    const processing = photoPost(...Array.from({ length: 3 }, () => json(RECORDED.statusProcessing)));
    expect(await processing.outcome).toMatchObject({
      kind: "transient",
      code: "still_processing",
      retryAfterSeconds: 30,
    });
    expect(processing.requests).toHaveLength(5);
  });

  it("complete before moderation names the public id: published, the publish id standing for the post, awaiting", async () => {
    const moderated = photoPost(json(RECORDED.statusCompleteNoId));
    const publishId = RECORDED.photoInit.data.publish_id;
    expect(await moderated.outcome).toEqual({ id: publishId, url: null, awaiting: true });
    // One status call: PUBLISH_COMPLETE ends the polling.
    expect(moderated.requests).toHaveLength(3);
  });

  it("an auth failure once the post is initiated is an unknown outcome, not a second publish", async () => {
    expect(await photoPost(json(RECORDED.errors.tokenInvalid, 401)).outcome).toMatchObject({
      kind: "unknown_outcome",
      code: "access_token_invalid",
    });
  });
});

describe("tiktok failures", () => {
  const videoPost = (...answers: Array<Response | Error>) => {
    const { fetch } = replay(...answers);
    const video = mediaOf({ mime: "video/mp4", kind: "video" }).media;
    return adapterFor("tiktok", fetch)
      .publish(account, draft([{ text: "v", media: [video] }]))
      .catch((e: unknown) => e);
  };

  it("a refused request is permanent and quotes TikTok's code and message", async () => {
    const failure = await videoPost(json(RECORDED.creatorInfo), json(RECORDED.errors.privacyMismatch, 400));
    expect(failure).toMatchObject({ kind: "permanent", code: "privacy_level_option_mismatch" });
    expect(String(failure)).toContain("privacy_level is not one of the privacy_level_options.");
  });

  it("an error code in a 200 answer is a failure too", async () => {
    expect(await videoPost(json({ data: {}, ...RECORDED.errors.scopeMissing }))).toMatchObject({
      kind: "permanent",
      code: "scope_not_authorized",
    });
  });

  it("a 5xx is transient", async () => {
    expect(await videoPost(json(RECORDED.errors.internal, 500))).toMatchObject({
      kind: "transient",
      code: "internal_error",
    });
    expect(await videoPost(new Response("<html>bad gateway</html>", { status: 502 }))).toMatchObject({
      kind: "transient",
      code: "server_error",
    });
  });

  it("a timeout is an unknown outcome for the init, transient for a read", async () => {
    const timeout = () => new DOMException("The operation was aborted due to timeout", "TimeoutError");
    expect(await videoPost(json(RECORDED.creatorInfo), timeout())).toMatchObject({
      kind: "unknown_outcome",
      code: "timeout",
    });
    expect(await videoPost(timeout())).toMatchObject({ kind: "transient", code: "timeout" });
  });

  it("the daily post cap and the rate limit are rate limits with their wait", async () => {
    expect(await videoPost(json(RECORDED.creatorInfo), json(RECORDED.errors.postCap, 403))).toMatchObject({
      kind: "rate_limited",
      code: "spam_risk_too_many_posts",
      retryAfterSeconds: 3600,
    });
    const limited = new Response(JSON.stringify(RECORDED.errors.rateLimited), {
      status: 429,
      headers: { "retry-after": "42" },
    });
    expect(await videoPost(limited)).toMatchObject({
      kind: "rate_limited",
      code: "rate_limit_exceeded",
      retryAfterSeconds: 42,
    });
  });

  it("an invalid token is an auth failure; a scope not granted is permanent", async () => {
    expect(await videoPost(json(RECORDED.errors.tokenInvalid, 401))).toMatchObject({
      kind: "auth",
      code: "access_token_invalid",
    });
    expect(await videoPost(json(RECORDED.errors.scopeMissing, 401))).toMatchObject({
      kind: "permanent",
      code: "scope_not_authorized",
    });
  });
});

describe("tiktok find, insights, comments, reply, revoke", () => {
  it("finds an earlier attempt by its text among the 20 latest videos", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.videoList),
      json(RECORDED.videoList),
      json(RECORDED.videoList),
    );
    const adapter = adapterFor("tiktok", fetch);
    expect(
      await adapter.find(account, { fingerprint: "sp-9-1", text: "Our launch, in fifteen seconds" }),
    ).toEqual({
      id: POST_ID,
      url: `https://www.tiktok.com/@${HANDLE}/video/${POST_ID}`,
    });
    await expectCall(
      requests[0]!,
      `${API}/video/list/?fields=id,title,video_description,share_url,create_time`,
      { max_count: 20 },
    );
    // The Display API keeps 150 characters: a longer text matches on them.
    const long = "A long caption that TikTok's Display API cuts. ".repeat(4);
    expect(await adapter.find(account, { fingerprint: "sp-9-1", text: long })).toMatchObject({
      id: "7291234567890120000",
    });
    expect(await adapter.find(account, { fingerprint: "sp-9-1", text: "Our launch" })).toBeNull();
  });

  it("finds a video whose caption came from settings.title", async () => {
    const { fetch } = replay(json(RECORDED.videoList));
    const found = await adapterFor("tiktok", fetch).find(account, {
      fingerprint: "sp-9-1",
      text: "The post's own text",
      settings: { title: "Our launch, in fifteen seconds" },
    });
    expect(found?.id).toBe(POST_ID);
  });

  it("has nothing to find for a reply or a post without text", async () => {
    const { fetch, requests } = replay();
    const adapter = adapterFor("tiktok", fetch);
    expect(await adapter.find(account, { fingerprint: "f", text: "x", replyTo: POST_ID })).toBeNull();
    expect(await adapter.find(account, { fingerprint: "f", text: "  " })).toBeNull();
    expect(requests).toHaveLength(0);
  });

  it("maps the video's counts: views are impressions", async () => {
    const { fetch, requests } = replay(json(RECORDED.videoQuery));
    expect(await adapterFor("tiktok", fetch).insights(account, POST_ID)).toEqual({
      impressions: 5400,
      likes: 120,
      comments: 14,
      shares: 9,
      quotes: 0,
      saves: 0,
      engagement_rate: 2.65,
    });
    await expectCall(
      requests[0]!,
      `${API}/video/query/?fields=id,like_count,comment_count,share_count,view_count`,
      {
        filters: { video_ids: [POST_ID] },
      },
    );
  });

  it("a post the Display API does not show has no insights", async () => {
    const { fetch } = replay(json({ data: { videos: [] }, error: { code: "ok", message: "" } }));
    await expect(adapterFor("tiktok", fetch).insights(account, POST_ID)).rejects.toMatchObject({
      kind: "permanent",
      code: "post_not_found",
    });
  });

  it("has no comments nor replies: TikTok gives an app neither, so the methods are absent", () => {
    const adapter = adapterFor("tiktok", replay().fetch);
    expect(adapter.comments).toBeUndefined();
    expect(adapter.reply).toBeUndefined();
  });

  it("revokes the token with the client credentials in a form", async () => {
    const { fetch, requests } = replay(json({}), json(RECORDED.errors.revokeInvalid, 400));
    const adapter = adapterFor("tiktok", fetch);
    expect(await adapter.revoke(account)).toBe(true);
    const request = requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.url).toBe(`${API}/oauth/revoke/`);
    expect(request.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(await bodyOf(request)))).toEqual({
      client_key: CREDENTIALS.clientId,
      client_secret: CREDENTIALS.clientSecret,
      token: ACCESS,
    });
    const refused = await adapter.revoke(account).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: "permanent", code: "invalid_request" });
    expect(String(refused)).not.toContain(CREDENTIALS.clientSecret);
  });
});

describe("tiktok publication across attempts (progress)", () => {
  const PUBLISH = RECORDED.videoInit.data.publish_id;
  const status = (data: Record<string, unknown>) => json({ data, error: { code: "ok", message: "" } });
  const processing = (uploaded?: number) => status({ status: "PROCESSING_UPLOAD", uploaded_bytes: uploaded });
  const twoChunks = () => mediaOf({ mime: "video/mp4", kind: "video", size: 2 * CHUNK_BYTES + 123 }, 9);
  const withProgress = (
    items: DraftItem[],
    values: Record<string, unknown> = {},
    extra: Partial<PublishDraft> = {},
  ) => {
    const progress = memoryProgress(values);
    return { progress, draft: { ...draft(items), progress, ...extra } };
  };

  it("records the publish_id right after init, before any chunk, and the upload after each chunk", async () => {
    const { media } = twoChunks();
    const { progress, draft: d } = withProgress([{ text: "Two chunks", media: [media] }]);
    const seen: unknown[] = [];
    const { fetch, requests } = replay(
      json(RECORDED.creatorInfo),
      json(RECORDED.videoInit),
      uploaded(206),
      uploaded(201),
      json(RECORDED.statusCompleteNoId),
    );
    const watching: Fetch = async (input, init) => {
      if (init?.method === "PUT") seen.push(structuredClone(progress.values));
      return fetch(input, init);
    };
    const post = await adapterFor("tiktok", watching).publish(account, d);
    expect(post).toEqual({ id: PUBLISH, url: null, awaiting: true });
    expect(seen[0]).toMatchObject({ [PUBLISH_ID]: PUBLISH, [UPLOAD]: { url: UPLOAD_URL, sent: 0 } });
    expect(seen[1]).toMatchObject({ [UPLOAD]: { sent: 1 } });
    expect(progress.values[UPLOAD]).toMatchObject({ url: UPLOAD_URL, sent: 2 });
    expect(requests).toHaveLength(5);
  });

  it("a recorded publish resumes the upload from the byte TikTok has: no creator info, no init", async () => {
    const { media, opened } = twoChunks();
    const { draft: d } = withProgress([{ text: "Two chunks", media: [media] }], {
      [PUBLISH_ID]: PUBLISH,
      [UPLOAD]: { url: UPLOAD_URL, issued_at: Date.now(), sent: 0 },
    });
    const { fetch, requests } = replay(processing(CHUNK_BYTES), uploaded(201), raw(RECORDED.statusComplete));
    const post = await adapterFor("tiktok", fetch).publish(account, d);
    expect(post).toEqual({ id: POST_ID, url: `https://www.tiktok.com/@${HANDLE}/video/${POST_ID}` });
    await expectCall(requests[0]!, `${API}/post/publish/status/fetch/`, { publish_id: PUBLISH });
    expect(requests[1]!.method).toBe("PUT");
    expect(requests[1]!.headers.get("content-range")).toBe(
      `bytes ${CHUNK_BYTES}-${media.size - 1}/${media.size}`,
    );
    expect(opened).toEqual([{ offset: CHUNK_BYTES, length: CHUNK_BYTES + 123 }]);
    expect(requests.map((r) => r.url).some((url) => url.includes("init"))).toBe(false);
  });

  it("never inits again for a recorded publish still processing: polls it, then still_processing", async () => {
    const { draft: d } = withProgress([{ text: "p", media: [photo(1)] }], { [PUBLISH_ID]: PUBLISH });
    const answers = Array.from({ length: 3 }, () => status({ status: "PROCESSING_DOWNLOAD" }));
    const { fetch, requests } = replay(...answers);
    expect(
      await quick(fetch)
        .publish(account, d)
        .catch((e: unknown) => e),
    ).toMatchObject({
      code: "still_processing",
      kind: "transient",
    });
    expect(requests.every((r) => r.url.endsWith("/post/publish/status/fetch/"))).toBe(true);
  });

  it("stops at the draft's deadline: the upload goes on in the next attempt", async () => {
    const { media } = twoChunks();
    const { progress, draft: d } = withProgress(
      [{ text: "Late", media: [media] }],
      {},
      {
        deadline: Date.now() - 1,
      },
    );
    const { fetch, requests } = replay(json(RECORDED.creatorInfo), json(RECORDED.videoInit));
    expect(
      await adapterFor("tiktok", fetch)
        .publish(account, d)
        .catch((e: unknown) => e),
    ).toMatchObject({
      code: "still_processing",
    });
    expect(requests).toHaveLength(2);
    expect(progress.values).toMatchObject({ [PUBLISH_ID]: PUBLISH, [UPLOAD]: { sent: 0 } });
  });

  it("an upload URL past its hour is not used: upload_expired; the publish TikTok cannot finish is forgotten", async () => {
    const { media } = twoChunks();
    const { progress, draft: d } = withProgress([{ text: "Old", media: [media] }], {
      [PUBLISH_ID]: PUBLISH,
      [UPLOAD]: { url: UPLOAD_URL, issued_at: Date.now() - UPLOAD_URL_VALID_MS, sent: 1 },
    });
    const { fetch, requests } = replay(processing(CHUNK_BYTES));
    expect(
      await adapterFor("tiktok", fetch)
        .publish(account, d)
        .catch((e: unknown) => e),
    ).toMatchObject({
      kind: "permanent",
      code: "upload_expired",
    });
    expect(requests).toHaveLength(1);
    // TikTok's count says the second chunk never arrived: TikTok cannot publish it, so a retry inits anew.
    expect(progress.values[PUBLISH_ID]).toBeUndefined();
    expect(progress.values[UPLOAD]).toBeUndefined();
  });

  it("an upload URL past its hour with TikTok's count unknown keeps the publish (the last chunk may be in)", async () => {
    const { media } = twoChunks();
    const { progress, draft: d } = withProgress([{ text: "Old", media: [media] }], {
      [PUBLISH_ID]: PUBLISH,
      [UPLOAD]: { url: UPLOAD_URL, issued_at: Date.now() - UPLOAD_URL_VALID_MS, sent: 1 },
    });
    const { fetch } = replay(processing());
    expect(
      await adapterFor("tiktok", fetch)
        .publish(account, d)
        .catch((e: unknown) => e),
    ).toMatchObject({ kind: "permanent", code: "upload_expired" });
    expect(progress.values[PUBLISH_ID]).toBe(PUBLISH);
  });

  it("a publish recorded without its upload URL (a crash between the two writes) is forgotten, not resumed", async () => {
    const { media } = twoChunks();
    const { progress, draft: d } = withProgress([{ text: "Gap", media: [media] }], { [PUBLISH_ID]: PUBLISH });
    const { fetch, requests } = replay(processing(0));
    expect(
      await adapterFor("tiktok", fetch)
        .publish(account, d)
        .catch((e: unknown) => e),
    ).toMatchObject({
      kind: "permanent",
      code: "upload_expired",
    });
    expect(requests).toHaveLength(1);
    expect(progress.values[PUBLISH_ID]).toBeUndefined();
  });

  it("a FAILED publish is forgotten, so a retry worth making inits afresh", async () => {
    const { progress, draft: d } = withProgress([{ text: "p", media: [photo(1)] }], {
      [PUBLISH_ID]: PUBLISH,
    });
    const { fetch } = replay(json(RECORDED.statusFailed("internal")));
    expect(
      await adapterFor("tiktok", fetch)
        .publish(account, d)
        .catch((e: unknown) => e),
    ).toMatchObject({
      kind: "transient",
      code: "internal",
    });
    expect(progress.values[PUBLISH_ID]).toBeUndefined();
  });

  // Get Post Status: only a post for public viewership goes through moderation to a public id.
  it.each(["SELF_ONLY", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR"])(
    "a %s post never awaits a public id (published or reconciled)",
    async (privacy) => {
      const creator = structuredClone(RECORDED.creatorInfo);
      creator.data.privacy_level_options.push("FOLLOWER_OF_CREATOR");
      const { fetch } = replay(json(creator), json(RECORDED.photoInit), json(RECORDED.statusCompleteNoId));
      const post = await adapterFor("tiktok", fetch).publish(
        account,
        draft([{ text: "Mine", media: [photo(1)] }], { privacy_level: privacy }),
      );
      expect(post).toEqual({ id: RECORDED.photoInit.data.publish_id, url: null });
      const progress = memoryProgress({ [PUBLISH_ID]: PUBLISH });
      const lookup = { fingerprint: "f", text: "Mine", progress, settings: { privacy_level: privacy } };
      const found = replay(json(RECORDED.statusCompleteNoId));
      expect(await adapterFor("tiktok", found.fetch).find(account, lookup)).toEqual({
        id: PUBLISH,
        url: null,
      });
    },
  );

  it("find reconciles a recorded publish_id by its status only, never by text", async () => {
    const progress = memoryProgress({ [PUBLISH_ID]: PUBLISH });
    const lookup = { fingerprint: "sp-9-1", text: "Our launch, in fifteen seconds", progress };
    const done = replay(raw(RECORDED.statusComplete));
    expect(await adapterFor("tiktok", done.fetch).find(account, lookup)).toEqual({
      id: POST_ID,
      url: `https://www.tiktok.com/@${HANDLE}/video/${POST_ID}`,
    });
    const pending = replay(processing(0));
    expect(await adapterFor("tiktok", pending.fetch).find(account, lookup)).toBeNull();
    expect(pending.requests.map((r) => r.url)).toEqual([`${API}/post/publish/status/fetch/`]);
    const moderating = replay(json(RECORDED.statusCompleteNoId));
    expect(await adapterFor("tiktok", moderating.fetch).find(account, lookup)).toEqual({
      id: PUBLISH,
      url: null,
      awaiting: true,
    });
  });

  it("resolve: the public id once moderation gave it, null before, no URL for a FAILED (taken down) publish", async () => {
    const { fetch } = replay(
      json(RECORDED.statusCompleteNoId),
      raw(RECORDED.statusComplete),
      json(RECORDED.statusFailed()),
    );
    const adapter = adapterFor("tiktok", fetch);
    expect(await adapter.resolve(account, PUBLISH)).toBeNull();
    expect(await adapter.resolve(account, PUBLISH)).toEqual({
      id: POST_ID,
      url: `https://www.tiktok.com/@${HANDLE}/video/${POST_ID}`,
    });
    expect(await adapter.resolve(account, PUBLISH)).toEqual({ id: PUBLISH, url: null });
  });

  it("resolve stops awaiting a week after publication: the post stays published, with no public URL", async () => {
    const published = Date.UTC(2026, 0, 1);
    const at = (ms: number) => {
      const { fetch } = replay(json(RECORDED.statusCompleteNoId));
      const context = { ...CONTEXT, fetch, now: () => ms };
      return tiktokPublishing(context).resolve(account, PUBLISH, published);
    };
    expect(await at(published + PUBLIC_ID_WAIT_SECONDS * 1000 - 1)).toBeNull();
    expect(await at(published + PUBLIC_ID_WAIT_SECONDS * 1000)).toEqual({ id: PUBLISH, url: null });
    expect(PUBLIC_ID_WAIT_SECONDS).toBe(7 * 86_400);
  });

  it("chunk PUTs take the upload timeout, other calls the call timeout", async () => {
    const slow =
      (inner: Fetch, which: (init?: RequestInit) => boolean): Fetch =>
      async (input, init) => {
        if (which(init))
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, 200);
            init?.signal?.addEventListener("abort", () => {
              clearTimeout(timer);
              reject(init.signal!.reason);
            });
          });
        return inner(input, init);
      };
    const timed = (fetch: Fetch) =>
      createAdapter(SPECS.tiktok, { credentials: CREDENTIALS, fetch, timeouts: { call: 50, upload: 5000 } });
    const { media } = mediaOf({ mime: "video/mp4", kind: "video" });
    const ok = replay(
      json(RECORDED.creatorInfo),
      json(RECORDED.videoInit),
      uploaded(201),
      raw(RECORDED.statusComplete),
    );
    const put = (init?: RequestInit) => init?.method === "PUT";
    expect(
      await timed(slow(ok.fetch, put)).publish(account, draft([{ text: "v", media: [media] }])),
    ).toMatchObject({
      id: POST_ID,
    });
    const late = replay(json(RECORDED.creatorInfo));
    const failure = await timed(slow(late.fetch, (init) => init?.method === "POST"))
      .publish(account, draft([{ text: "v", media: [media] }]))
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "timeout" });
  });
});
