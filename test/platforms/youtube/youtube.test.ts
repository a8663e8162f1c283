// The YouTube adapter against recorded answers: every request it sends (method, URL, headers, body) and
// how it reads every answer, including Google's quota and error reasons.
import { describe, expect, it } from "vitest";
import { createAdapter } from "../../../src/platforms/adapter";
import { SPECS } from "../../../src/platforms/catalog";
import { memoryProgress } from "../../../src/platforms/progress";
import { type Fetch, PlatformError } from "../../../src/platforms/types";
import { youtubePublishing } from "../../../src/platforms/youtube";
import { secondsUntilPacificMidnight } from "../../../src/platforms/youtube/api";
import { CHUNK_BYTES } from "../../../src/platforms/youtube/media";
import { FIND_RETRY_MS } from "../../../src/platforms/youtube/publish";
import { adapterFor, CREDENTIALS, json, mediaOf, replay } from "../replay";
import * as R from "./recorded";

const account = { handle: "googledevelopers", platformUserId: R.CHANNEL_ID, accessToken: "yt-token" };
const draft = (items: Array<{ text: string; media: any[] }>, settings: Record<string, unknown> = {}) => ({
  items,
  settings,
  fingerprint: "sp-41-1",
});
const video = (size = 1024, name = "launch.mp4") => mediaOf({ mime: "video/mp4", kind: "video", name, size });
const sessionOpened = () => new Response(null, { status: 200, headers: { location: R.SESSION_URL } });
const incomplete = (lastByte: number) =>
  new Response(null, { status: 308, headers: { range: `bytes=0-${lastByte}` } });
const timeout = () => new DOMException("The operation was aborted due to timeout", "TimeoutError");
const UPLOAD_START =
  "https://www.googleapis.com/upload/youtube/v3/videos?uploadType=resumable&part=snippet%2Cstatus";

const adapterAt = (fetch: Fetch, now: number) =>
  createAdapter(SPECS.youtube, {
    credentials: CREDENTIALS,
    fetch,
    now: () => now,
  });

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

const digest = async (data: ArrayBuffer | Uint8Array) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", data))].join(",");

describe("youtube publish", () => {
  it("uploads the video through a resumable session, chunk by chunk streamed from R2, with the row's metadata", async () => {
    const size = CHUNK_BYTES * 2 + 1000;
    const { media, bytes, opened } = video(size);
    const { fetch, requests } = replay(
      sessionOpened(),
      incomplete(CHUNK_BYTES - 1),
      incomplete(2 * CHUNK_BYTES - 1),
      json(R.inserted),
    );
    const post = await adapterFor("youtube", fetch).publish(
      account,
      draft([{ text: "Launch day\nWe shipped it.", media: [media] }]),
    );
    expect(post).toEqual({ id: R.VIDEO_ID, url: `https://www.youtube.com/watch?v=${R.VIDEO_ID}` });

    const [start, ...chunks] = requests;
    expect(start!.method).toBe("POST");
    expect(start!.url).toBe(UPLOAD_START);
    expect(start!.headers.get("authorization")).toBe("Bearer yt-token");
    expect(start!.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(start!.headers.get("x-upload-content-length")).toBe(String(size));
    expect(start!.headers.get("x-upload-content-type")).toBe("video/mp4");
    expect(await start!.json()).toEqual({
      snippet: {
        title: "Launch day",
        description: "Launch day\nWe shipped it.",
        tags: ["sp-41-1"],
        categoryId: "22",
      },
      status: { privacyStatus: "public", selfDeclaredMadeForKids: false },
    });

    expect(chunks).toHaveLength(3);
    const ranges = [
      [0, CHUNK_BYTES],
      [CHUNK_BYTES, CHUNK_BYTES],
      [2 * CHUNK_BYTES, 1000],
    ] as const;
    for (const [index, [offset, length]] of ranges.entries()) {
      const chunk = chunks[index]!;
      expect(chunk.method).toBe("PUT");
      expect(chunk.url).toBe(R.SESSION_URL);
      expect(chunk.headers.get("authorization")).toBe("Bearer yt-token");
      expect(chunk.headers.get("content-type")).toBe("video/mp4");
      expect(chunk.headers.get("content-range")).toBe(`bytes ${offset}-${offset + length - 1}/${size}`);
      const sent = new Uint8Array(await chunk.arrayBuffer());
      expect(sent.length).toBe(length);
      expect(await digest(sent)).toBe(await digest(bytes.slice(offset, offset + length)));
    }
    // R2 was read a chunk at a time, never the whole file at once.
    expect(opened).toEqual(ranges.map(([offset, length]) => ({ offset, length })));
  });

  it("resumes from the byte the server reports when it kept less than it was sent", async () => {
    const size = CHUNK_BYTES + 10;
    const { media, opened } = video(size);
    const { fetch, requests } = replay(sessionOpened(), incomplete(99), json(R.inserted));
    await adapterFor("youtube", fetch).publish(account, draft([{ text: "t", media: [media] }]));
    expect(requests[2]!.headers.get("content-range")).toBe(`bytes 100-${size - 1}/${size}`);
    expect(opened).toEqual([
      { offset: 0, length: CHUNK_BYTES },
      { offset: 100, length: size - 100 },
    ]);
  });

  it("maps each setting: title, privacy, made for kids, tags (plus the fingerprint) and category", async () => {
    const { media } = video();
    const { fetch, requests } = replay(sessionOpened(), json(R.inserted));
    const settings = {
      title: "My title",
      privacy_status: "unlisted",
      made_for_kids: true,
      tags: ["launch", "news"],
      category_id: "28",
    };
    await adapterFor("youtube", fetch).publish(account, draft([{ text: "Body", media: [media] }], settings));
    expect(await requests[0]!.json()).toEqual({
      snippet: {
        title: "My title",
        description: "Body",
        tags: ["launch", "news", "sp-41-1"],
        categoryId: "28",
      },
      status: { privacyStatus: "unlisted", selfDeclaredMadeForKids: true },
    });
  });

  it("derives a title from the first line cut to 100 characters, else from the file name", async () => {
    const long = `${"é".repeat(120)}\nsecond line`;
    for (const [text, title] of [
      [long, `${"é".repeat(99)}…`],
      ["\n  \n  Real first line  \nmore", "Real first line"],
      ["", "holiday clip"],
    ] as const) {
      const { media } = video(64, "holiday clip.mp4");
      const { fetch, requests } = replay(sessionOpened(), json(R.inserted));
      await adapterFor("youtube", fetch).publish(account, draft([{ text, media: [media] }]));
      expect(((await requests[0]!.json()) as any).snippet.title).toBe(title);
    }
  });

  it("uses the first video of the item and ignores its other media", async () => {
    const image = mediaOf({ mime: "image/png", kind: "image" }, 3).media;
    const first = video(64);
    const second = mediaOf({ mime: "video/quicktime", kind: "video", size: 32 }, 9);
    const { fetch, requests } = replay(sessionOpened(), json(R.inserted));
    await adapterFor("youtube", fetch).publish(
      account,
      draft([{ text: "t", media: [image, first.media, second.media] }]),
    );
    expect(requests[0]!.headers.get("x-upload-content-length")).toBe("64");
    expect(second.opened).toEqual([]);
  });

  it("refuses a post without a video, and a thread, before any request", async () => {
    const image = mediaOf({ mime: "image/png", kind: "image" }).media;
    const { fetch, requests } = replay();
    const adapter = adapterFor("youtube", fetch);
    for (const items of [[{ text: "text only", media: [] }], [{ text: "an image", media: [image] }]]) {
      const error = await failure(adapter.publish(account, draft(items)));
      expect(error).toMatchObject({ kind: "permanent", code: "video_required" });
      expect(error.message).toBe("YouTube: The content.0.media field must include a video on youtube.");
    }
    const thread = [
      { text: "one", media: [video().media] },
      { text: "two", media: [] },
    ];
    expect(await failure(adapter.publish(account, draft(thread)))).toMatchObject({
      kind: "permanent",
      code: "thread_unsupported",
    });
    expect(requests).toEqual([]);
  });

  it("a lost answer to the last chunk is an unknown outcome; before it nothing exists yet (transient)", async () => {
    const last = replay(sessionOpened(), timeout());
    const lost = await failure(
      adapterFor("youtube", last.fetch).publish(account, draft([{ text: "t", media: [video().media] }])),
    );
    expect(lost).toMatchObject({ kind: "unknown_outcome", code: "timeout" });

    const middle = replay(sessionOpened(), timeout());
    const big = video(CHUNK_BYTES + 1).media;
    expect(
      await failure(
        adapterFor("youtube", middle.fetch).publish(account, draft([{ text: "t", media: [big] }])),
      ),
    ).toMatchObject({
      kind: "transient",
      code: "timeout",
    });

    const session = replay(timeout());
    expect(
      await failure(
        adapterFor("youtube", session.fetch).publish(account, draft([{ text: "t", media: [video().media] }])),
      ),
    ).toMatchObject({
      kind: "transient",
    });
  });

  it("an expired upload session (404 on a chunk) is transient: the next attempt starts a new one", async () => {
    const { fetch } = replay(
      sessionOpened(),
      json(R.googleError(404, "notFound", "Not Found", "global"), 404),
    );
    expect(
      await failure(
        adapterFor("youtube", fetch).publish(account, draft([{ text: "t", media: [video().media] }])),
      ),
    ).toMatchObject({
      kind: "transient",
      code: "upload_session_expired",
    });
  });

  it("records the session at once and resumes it: asks with bytes */SIZE, sends only the rest, records the video", async () => {
    const size = CHUNK_BYTES + 1000;
    const { media } = video(size);
    const progress = memoryProgress();
    const first = replay(sessionOpened(), incomplete(CHUNK_BYTES - 1), timeout());
    const cut = await failure(
      adapterFor("youtube", first.fetch).publish(account, {
        ...draft([{ text: "t", media: [media] }]),
        progress,
      }),
    );
    // The last chunk's answer was lost: unknown, but the session is recorded to settle it.
    expect(cut).toMatchObject({ kind: "unknown_outcome" });
    expect(progress.values).toEqual({ upload_session: { url: R.SESSION_URL, size } });

    // find asks the session: still incomplete, so no video exists (no search of the uploads).
    const asked = replay(incomplete(CHUNK_BYTES - 1));
    const lookup = { fingerprint: "sp-41-1", text: "t", progress };
    expect(await adapterFor("youtube", asked.fetch).find(account, lookup)).toBeNull();
    expect(asked.requests.map((r) => [r.method, r.url, r.headers.get("content-range")])).toEqual([
      ["PUT", R.SESSION_URL, `bytes */${size}`],
    ]);

    const resumed = replay(incomplete(CHUNK_BYTES - 1), json(R.inserted, 201));
    const post = await adapterFor("youtube", resumed.fetch).publish(account, {
      ...draft([{ text: "t", media: [media] }]),
      progress,
    });
    expect(post.id).toBe(R.VIDEO_ID);
    expect(resumed.requests.map((r) => r.headers.get("content-range"))).toEqual([
      `bytes */${size}`,
      `bytes ${CHUNK_BYTES}-${size - 1}/${size}`,
    ]);
    expect(progress.values).toMatchObject({ video_id: R.VIDEO_ID });
  });

  it("find settles a lost last answer by the session's video, then by the recorded video id", async () => {
    const progress = memoryProgress({ upload_session: { url: R.SESSION_URL, size: 1024 } });
    const lookup = { fingerprint: "sp-41-1", text: "t", progress };
    const done = replay(json(R.inserted, 200), json({ items: [{ id: R.VIDEO_ID }] }));
    expect(await adapterFor("youtube", done.fetch).find(account, lookup)).toMatchObject({ id: R.VIDEO_ID });
    expect(progress.values).toMatchObject({ video_id: R.VIDEO_ID });
    expect(done.requests[1]!.url).toBe(
      `https://www.googleapis.com/youtube/v3/videos?part=id&id=${R.VIDEO_ID}`,
    );

    const byId = replay(json({ items: [{ id: R.VIDEO_ID }] }));
    expect(await adapterFor("youtube", byId.fetch).find(account, lookup)).toMatchObject({ id: R.VIDEO_ID });
    expect(byId.requests).toHaveLength(1);
    // A publish with a recorded video sends nothing.
    const none = replay();
    const post = await adapterFor("youtube", none.fetch).publish(account, {
      ...draft([{ text: "t", media: [video().media] }]),
      progress,
    });
    expect(post.id).toBe(R.VIDEO_ID);
    expect(none.requests).toEqual([]);
  });

  it("a recorded session Google says is gone (410) is replaced by a new one", async () => {
    const progress = memoryProgress({ upload_session: { url: R.SESSION_URL, size: 1024 } });
    const { fetch, requests } = replay(
      json(R.googleError(410, "gone", "Gone", "global"), 410),
      sessionOpened(),
      json(R.inserted, 201),
    );
    const post = await adapterFor("youtube", fetch).publish(account, {
      ...draft([{ text: "t", media: [video().media] }]),
      progress,
    });
    expect(post.id).toBe(R.VIDEO_ID);
    expect(requests.map((r) => r.method)).toEqual(["PUT", "POST", "PUT"]);
    expect(requests[2]!.headers.get("content-range")).toBe("bytes 0-1023/1024");
  });

  it("a session answer without a Google upload URL is a transient failure, and the token goes nowhere else", async () => {
    const elsewhere = new Response(null, {
      status: 200,
      headers: { location: "https://evil.example/upload" },
    });
    const { fetch, requests } = replay(elsewhere);
    expect(
      await failure(
        adapterFor("youtube", fetch).publish(account, draft([{ text: "t", media: [video().media] }])),
      ),
    ).toMatchObject({
      kind: "transient",
      code: "invalid_response",
    });
    expect(requests).toHaveLength(1);
  });

  it("a video YouTube rejected at upload is a permanent failure naming the reason", async () => {
    const rejected = { ...R.inserted, status: { uploadStatus: "rejected", rejectionReason: "duplicate" } };
    const { fetch } = replay(sessionOpened(), json(rejected));
    const error = await failure(
      adapterFor("youtube", fetch).publish(account, draft([{ text: "t", media: [video().media] }])),
    );
    expect(error).toMatchObject({ kind: "permanent", code: "video_rejected" });
    expect(error.message).toContain("duplicate");
  });
});

describe("youtube errors", () => {
  const publishAgainst = (answer: Response, now = Date.now()) =>
    failure(
      adapterAt(replay(answer).fetch, now).publish(account, draft([{ text: "t", media: [video().media] }])),
    );

  it("the daily quota (403 quotaExceeded) waits until midnight Pacific Time", async () => {
    const noonPdt = Date.parse("2025-06-15T19:00:00Z");
    const error = await publishAgainst(json(R.quotaExceeded, 403), noonPdt);
    expect(error).toMatchObject({
      kind: "rate_limited",
      code: "quota_exceeded",
      retryAfterSeconds: 12 * 3600,
    });
    expect(error.message).toContain("exceeded your");
    const daily = R.googleError(403, "dailyLimitExceeded", "Daily Limit Exceeded", "usageLimits");
    expect(await publishAgainst(json(daily, 403), Date.parse("2025-01-15T08:00:00Z"))).toMatchObject({
      kind: "rate_limited",
      retryAfterSeconds: 86_400,
    });
  });

  it("midnight Pacific Time is counted right on the days the clocks change", () => {
    // 00:30 PDT on 2 November 2025: the day has 25 hours.
    expect(secondsUntilPacificMidnight(Date.parse("2025-11-02T07:30:00Z"))).toBe(24.5 * 3600);
    // 00:30 PST on 8 March 2026: the day has 23 hours.
    expect(secondsUntilPacificMidnight(Date.parse("2026-03-08T08:30:00Z"))).toBe(22.5 * 3600);
    expect(secondsUntilPacificMidnight(Date.parse("2025-06-16T06:59:59Z"))).toBe(1);
  });

  it("short rate limits wait for Retry-After (else a minute); the upload limit waits an hour", async () => {
    const limited = R.googleError(403, "rateLimitExceeded", "Rate Limit Exceeded", "usageLimits");
    expect(await publishAgainst(json(limited, 403))).toMatchObject({
      kind: "rate_limited",
      retryAfterSeconds: 60,
    });
    const withHeader = new Response(
      JSON.stringify(R.googleError(429, "userRateLimitExceeded", "slow down")),
      {
        status: 429,
        headers: { "retry-after": "30" },
      },
    );
    expect(await publishAgainst(withHeader)).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 30 });
    const uploads = R.googleError(
      400,
      "uploadLimitExceeded",
      "The user has exceeded the number of videos they may upload.",
    );
    expect(await publishAgainst(json(uploads, 400))).toMatchObject({
      kind: "rate_limited",
      code: "upload_limit_exceeded",
      retryAfterSeconds: 3600,
    });
  });

  it("invalid metadata is permanent with Google's message and reason; 401 is auth; 5xx and GET timeouts are transient", async () => {
    const invalid = R.googleError(
      400,
      "invalidTitle",
      "The request metadata specifies an invalid or empty video title.",
    );
    const error = await publishAgainst(json(invalid, 400));
    expect(error).toMatchObject({ kind: "permanent", code: "invalidTitle" });
    expect(error.message).toContain("invalid or empty video title");

    const expired = R.googleError(401, "authError", "Invalid Credentials", "global");
    expect(await publishAgainst(json(expired, 401))).toMatchObject({ kind: "auth", code: "authError" });

    const adapter = (answer: Response | Error) => adapterFor("youtube", replay(answer).fetch);
    const down = R.googleError(503, "backendError", "Backend Error", "global");
    expect(await failure(adapter(json(down, 503)).insights(account, R.VIDEO_ID))).toMatchObject({
      kind: "transient",
    });
    expect(await failure(adapter(timeout()).insights(account, R.VIDEO_ID))).toMatchObject({
      kind: "transient",
      code: "timeout",
    });
  });
});

/** The adapter with a `find` whose pause between its two looks is recorded instead of waited. */
const findingAdapter = (fetch: Fetch, slept: number[] = []) =>
  createAdapter(
    {
      ...SPECS.youtube,
      publishing: (context) =>
        youtubePublishing(context, {
          sleep: async (ms) => {
            slept.push(ms);
          },
        }),
    },
    { credentials: CREDENTIALS, fetch },
  );

describe("youtube find", () => {
  it("finds the video carrying the fingerprint among the channel's latest uploads", async () => {
    const { fetch, requests } = replay(
      json(R.channels),
      json(R.playlistItems),
      json(R.videoSnippets(["launch", "sp-41-1"])),
    );
    const found = await adapterFor("youtube", fetch).find(account, {
      fingerprint: "sp-41-1",
      text: "Launch",
    });
    expect(found).toEqual({ id: R.VIDEO_ID, url: `https://www.youtube.com/watch?v=${R.VIDEO_ID}` });
    expect(requests.map((r) => r.url)).toEqual([
      "https://www.googleapis.com/youtube/v3/channels?part=contentDetails&mine=true",
      `https://www.googleapis.com/youtube/v3/playlistItems?part=contentDetails&playlistId=${R.UPLOADS}&maxResults=50`,
      `https://www.googleapis.com/youtube/v3/videos?part=snippet&id=${R.VIDEO_ID}%2CdQw4w9WgXcQ`,
    ]);
    for (const request of requests) expect(request.headers.get("authorization")).toBe("Bearer yt-token");
  });

  it("answers null when no recent upload carries the fingerprint, or the channel has no uploads, after looking twice", async () => {
    const missed = () => [
      json(R.channels),
      json(R.playlistItems),
      json(R.videoSnippets(["launch", "sp-41-2"])),
    ];
    const miss = replay(...missed(), ...missed());
    const slept: number[] = [];
    expect(
      await findingAdapter(miss.fetch, slept).find(account, { fingerprint: "sp-41-1", text: "x" }),
    ).toBeNull();
    expect(miss.requests).toHaveLength(6);
    expect(slept).toEqual([FIND_RETRY_MS]);
    const none = () => [json(R.channels), json({ kind: "youtube#playlistItemListResponse", items: [] })];
    const empty = replay(...none(), ...none());
    expect(await findingAdapter(empty.fetch).find(account, { fingerprint: "sp-41-1", text: "x" })).toBeNull();
    expect(empty.requests).toHaveLength(4);
  });

  it("finds a video the uploads playlist shows only a few seconds later: it looks again after a pause", async () => {
    const { fetch, requests } = replay(
      json(R.channels),
      json({ kind: "youtube#playlistItemListResponse", items: [] }),
      json(R.channels),
      json(R.playlistItems),
      json(R.videoSnippets(["launch", "sp-41-1"])),
    );
    const slept: number[] = [];
    const found = await findingAdapter(fetch, slept).find(account, { fingerprint: "sp-41-1", text: "x" });
    expect(found).toEqual({ id: R.VIDEO_ID, url: `https://www.youtube.com/watch?v=${R.VIDEO_ID}` });
    expect(slept).toEqual([FIND_RETRY_MS]);
    expect(requests).toHaveLength(5);
  });

  it("finds a reply by its text among the video's comments, only when the channel wrote it", async () => {
    const page = R.threads([
      R.thread("Ugx1", "Great video!"),
      R.thread("Ugx2", "Plug: our shop", "@googledevelopers", R.CHANNEL_ID),
    ]);
    const { fetch, requests } = replay(json(page));
    const lookup = { fingerprint: "sp-plug-41", text: "Plug: our shop", replyTo: R.VIDEO_ID };
    expect(await adapterFor("youtube", fetch).find(account, lookup)).toEqual({
      id: "Ugx2",
      url: `https://www.youtube.com/watch?v=${R.VIDEO_ID}&lc=Ugx2`,
    });
    expect(requests[0]!.url).toBe(
      `https://www.googleapis.com/youtube/v3/commentThreads?part=snippet&videoId=${R.VIDEO_ID}&maxResults=100&order=time&textFormat=plainText`,
    );
    const notMine = () => json(R.threads([R.thread("Ugx3", "Plug: our shop")]));
    const someoneElse = replay(notMine(), notMine());
    expect(await findingAdapter(someoneElse.fetch).find(account, lookup)).toBeNull();
    expect(someoneElse.requests).toHaveLength(2);
  });
});

describe("youtube insights, comments, reply", () => {
  it("maps statistics: views as impressions, likes, comments, favourites as saves; shares and quotes 0", async () => {
    const { fetch, requests } = replay(json(R.statistics));
    expect(await adapterFor("youtube", fetch).insights(account, R.VIDEO_ID)).toEqual({
      impressions: 1000,
      likes: 40,
      comments: 10,
      saves: 0,
      shares: 0,
      quotes: 0,
      engagement_rate: 5,
    });
    expect(requests[0]!.url).toBe(
      `https://www.googleapis.com/youtube/v3/videos?part=statistics&id=${R.VIDEO_ID}`,
    );
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer yt-token");
  });

  it("a hidden like count reads as 0; a video YouTube no longer has is a permanent failure", async () => {
    const hidden = { items: [{ id: R.VIDEO_ID, statistics: { viewCount: "0", commentCount: "0" } }] };
    expect(
      await adapterFor("youtube", replay(json(hidden)).fetch).insights(account, R.VIDEO_ID),
    ).toMatchObject({
      likes: 0,
      engagement_rate: 0,
    });
    const gone = { kind: "youtube#videoListResponse", items: [] };
    expect(
      await failure(adapterFor("youtube", replay(json(gone)).fetch).insights(account, R.VIDEO_ID)),
    ).toMatchObject({
      kind: "permanent",
      code: "not_found",
    });
  });

  it("maps comment threads and the replies they carry (part=replies), and follows pageToken", async () => {
    // The channel answers Ugx1: a reply in the thread's `replies`, naming its top-level comment.
    const answered = R.thread("Ugx1", "First!");
    const reply = R.thread("Ugx1.a", "Thanks!", "@googledevelopers", R.CHANNEL_ID).snippet.topLevelComment;
    const withReply = {
      ...answered,
      replies: { comments: [{ ...reply, snippet: { ...reply.snippet, parentId: "Ugx1" } }] },
    };
    // Then the threads held for review (the owner's moderationStatus filter): hidden.
    const held = R.thread("Ugx4", "Spam?");
    const heldComment = {
      ...held.snippet.topLevelComment,
      snippet: { ...held.snippet.topLevelComment.snippet, moderationStatus: "heldForReview" },
    };
    const { fetch, requests } = replay(
      json(R.threads([withReply, R.thread("Ugx2", "Second", "@bob", "UCbob")], "page-2")),
      json(R.threads([R.thread("Ugx3", "Third")])),
      json(R.threads([{ ...held, snippet: { ...held.snippet, topLevelComment: heldComment } }])),
    );
    const comments = await adapterFor("youtube", fetch).comments!(account, R.VIDEO_ID);
    expect(comments.map((c) => [c.id, c.parent_id, c.is_own, c.hidden])).toEqual([
      ["Ugx1", null, false, undefined],
      ["Ugx1.a", "Ugx1", true, undefined],
      ["Ugx2", null, false, undefined],
      ["Ugx3", null, false, undefined],
      ["Ugx4", null, false, true],
    ]);
    expect(new URL(requests[2]!.url).searchParams.get("moderationStatus")).toBe("heldForReview");
    expect(comments[2]).toEqual({
      id: "Ugx2",
      content: "Second",
      author_name: "@bob",
      created_at: new Date("2025-05-02T11:00:00Z"),
      contact: { name: "@bob", username: "bob", profile_url: "http://www.youtube.com/@bob" },
      parent_id: null,
      url: `https://www.youtube.com/watch?v=${R.VIDEO_ID}&lc=Ugx2`,
      is_own: false,
    });
    expect(new URL(requests[0]!.url).searchParams.get("part")).toBe("snippet,replies");
    expect(new URL(requests[1]!.url).searchParams.get("pageToken")).toBe("page-2");
    expect(new URL(requests[0]!.url).searchParams.get("pageToken")).toBeNull();
  });

  it("keeps the newest 100 comments, and none where the video's comments are turned off", async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => R.thread(`Ug${i}`, `c${i}`));
    const full = replay(json(R.threads(hundred, "more")));
    expect(await adapterFor("youtube", full.fetch).comments!(account, R.VIDEO_ID)).toHaveLength(100);
    expect(full.requests).toHaveLength(1);
    const disabled = R.googleError(403, "commentsDisabled", "The video has disabled comments.");
    expect(
      await adapterFor("youtube", replay(json(disabled, 403)).fetch).comments!(account, R.VIDEO_ID),
    ).toEqual([]);
  });

  it("replies with a top-level comment thread by the channel", async () => {
    const created = R.thread("UgzReply", "Plug: our shop", "@googledevelopers", R.CHANNEL_ID);
    const { fetch, requests } = replay(json(created));
    const reply = await adapterFor("youtube", fetch).reply!(
      account,
      R.VIDEO_ID,
      "Plug: our shop",
      "sp-plug-41",
    );
    expect(reply).toEqual({
      id: "UgzReply",
      url: `https://www.youtube.com/watch?v=${R.VIDEO_ID}&lc=UgzReply`,
    });
    const [request] = requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("https://www.googleapis.com/youtube/v3/commentThreads?part=snippet");
    expect(request!.headers.get("authorization")).toBe("Bearer yt-token");
    expect(request!.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(await request!.json()).toEqual({
      snippet: {
        channelId: R.CHANNEL_ID,
        videoId: R.VIDEO_ID,
        topLevelComment: { snippet: { textOriginal: "Plug: our shop" } },
      },
    });
    const lost = replay(timeout());
    expect(
      await failure(adapterFor("youtube", lost.fetch).reply!(account, R.VIDEO_ID, "x", "f")),
    ).toMatchObject({
      kind: "unknown_outcome",
    });
  });
});

describe("youtube account", () => {
  it("revokes the grant with the token in a form body; an already dead token counts as revoked", async () => {
    const { fetch, requests } = replay(new Response("", { status: 200 }));
    expect(await adapterFor("youtube", fetch).revoke(account)).toBe(true);
    expect(requests[0]!.method).toBe("POST");
    expect(requests[0]!.url).toBe("https://oauth2.googleapis.com/revoke");
    expect(requests[0]!.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(new TextDecoder().decode(await requests[0]!.arrayBuffer())).toBe("token=yt-token");
    // With the refresh token at hand, that is what is revoked: it ends the grant, even past the access
    // token's expiry.
    const withRefresh = replay(new Response("", { status: 200 }));
    await adapterFor("youtube", withRefresh.fetch).revoke({ ...account, refreshToken: "1//refresh" });
    expect(new TextDecoder().decode(await withRefresh.requests[0]!.arrayBuffer())).toBe(
      "token=1%2F%2Frefresh",
    );
    const dead = replay(json({ error: "invalid_token", error_description: "Token expired or revoked" }, 400));
    expect(await adapterFor("youtube", dead.fetch).revoke(account)).toBe(true);
    const down = replay(json({ error: "server_error" }, 503));
    expect(await failure(adapterFor("youtube", down.fetch).revoke(account))).toMatchObject({
      kind: "transient",
    });
  });

  it("lists the user's channels to publish as", async () => {
    const { fetch, requests } = replay(json(R.channels));
    const channels = await adapterFor("youtube", fetch).channels(
      { accessToken: "connect-token" },
      {
        platform_id: R.CHANNEL_ID,
        handle: "googledevelopers",
      },
    );
    expect(channels).toEqual([
      {
        id: R.CHANNEL_ID,
        handle: "googledevelopers",
        name: "Google for Developers",
        avatar: "https://yt3.ggpht.com/ytc/example=s240-c-k-c0x00ffffff-no-rj",
        kind: "Channel",
      },
    ]);
    expect(requests[0]!.url).toBe(
      "https://www.googleapis.com/youtube/v3/channels?part=snippet&mine=true&maxResults=50",
    );
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer connect-token");
  });

  it("a connect asks for upload, read and comment scopes with offline access; a delegation does not", async () => {
    const adapter = adapterFor("youtube", replay().fetch);
    const redirectUri = "https://api.example.test/api/oauth/delegate/callback";
    const connect = new URL(
      await adapter.authorizeUrl({ redirectUri, state: "s", codeChallenge: "c", purpose: "connect" }),
    );
    expect(connect.searchParams.get("scope")).toBe(
      "https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl",
    );
    expect(connect.searchParams.get("access_type")).toBe("offline");
    expect(connect.searchParams.get("prompt")).toBe("consent");
    expect(connect.searchParams.get("include_granted_scopes")).toBe("true");
    const delegation = new URL(await adapter.authorizeUrl({ redirectUri, state: "s", codeChallenge: "c" }));
    expect(delegation.searchParams.get("access_type")).toBe("online");
    expect(delegation.searchParams.get("prompt")).toBeNull();
  });

  it("the identity carries the channel's thumbnail as its avatar", async () => {
    const adapter = adapterFor("youtube", replay(json(R.channels)).fetch);
    expect(await adapter.identity({ accessToken: "a" })).toEqual({
      platform_id: R.CHANNEL_ID,
      handle: "googledevelopers",
      avatar: "https://yt3.ggpht.com/ytc/example=s240-c-k-c0x00ffffff-no-rj",
    });
  });
});

describe("YouTube's comment calls (Comments: insert, setModerationStatus, delete)", () => {
  const top = { id: "Ugx1", postId: R.VIDEO_ID, parentId: null, isOwn: false, hidden: false };
  const noContent = () => new Response(null, { status: 204 });

  it("answers with comments.insert under the thread's top-level comment", async () => {
    const created = R.thread("Ugx1.b", "Thanks", "@googledevelopers", R.CHANNEL_ID).snippet.topLevelComment;
    const { fetch, requests } = replay(
      json({ ...created, snippet: { ...created.snippet, parentId: "Ugx1" } }),
    );
    const answer = await adapterFor("youtube", fetch).replyToComment!(
      account,
      { ...top, id: "Ugx1.a", parentId: "Ugx1" },
      "Thanks",
    );
    expect(answer).toEqual({
      id: "Ugx1.b",
      url: `https://www.youtube.com/watch?v=${R.VIDEO_ID}&lc=Ugx1.b`,
      parentId: "Ugx1",
    });
    expect(requests[0]!.method).toBe("POST");
    expect(requests[0]!.url).toBe("https://www.googleapis.com/youtube/v3/comments?part=snippet");
    expect(await requests[0]!.json()).toEqual({ snippet: { parentId: "Ugx1", textOriginal: "Thanks" } });
  });

  it("hides with heldForReview and shows again with published (never rejected, which cannot be undone)", async () => {
    const { fetch, requests } = replay(noContent(), noContent());
    const adapter = adapterFor("youtube", fetch);
    await adapter.hideComment!(account, top, true);
    await adapter.hideComment!(account, top, false);
    expect(requests.map((r) => [r.method, r.url])).toEqual([
      [
        "POST",
        "https://www.googleapis.com/youtube/v3/comments/setModerationStatus?id=Ugx1&moderationStatus=heldForReview",
      ],
      [
        "POST",
        "https://www.googleapis.com/youtube/v3/comments/setModerationStatus?id=Ugx1&moderationStatus=published",
      ],
    ]);
  });

  it("deletes with comments.delete; a comment already gone (commentNotFound) resolves, a refusal does not", async () => {
    const gone = R.googleError(404, "commentNotFound", "The specified comment could not be found.");
    const refused = R.googleError(403, "forbidden", "The comment could not be deleted.");
    const { fetch, requests } = replay(noContent(), json(gone, 404), json(refused, 403));
    const adapter = adapterFor("youtube", fetch);
    await adapter.deleteComment!(account, { ...top, isOwn: true });
    await expect(adapter.deleteComment!(account, { ...top, isOwn: true })).resolves.toBeUndefined();
    await expect(adapter.deleteComment!(account, top)).rejects.toMatchObject({
      kind: "permanent",
      code: "forbidden",
    });
    expect(requests[0]!.method).toBe("DELETE");
    expect(requests[0]!.url).toBe("https://www.googleapis.com/youtube/v3/comments?id=Ugx1");
  });
});
