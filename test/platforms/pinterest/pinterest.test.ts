// The Pinterest adapter against recorded answers: every request it sends (method, URL, headers, body),
// the video upload to storage, and how it reads every answer and failure.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAdapter } from "../../../src/platforms/adapter";
import { SPECS } from "../../../src/platforms/catalog";
import { lookupAdapter } from "../../../src/platforms/index";
import { MEDIA_POLL_INTERVAL_MS, MEDIA_POLLS } from "../../../src/platforms/pinterest/media";
import { memoryProgress } from "../../../src/platforms/progress";
import { type Fetch, PlatformError } from "../../../src/platforms/types";
import { expectSameBytes } from "../../support/bytes";
import { adapterFor, CREDENTIALS, json, mediaOf, replay } from "../replay";
import * as R from "./recorded";

const account = { handle: "examplestudio", platformUserId: "516169651290379452", accessToken: "pin-token" };
const board = { board_id: R.BOARD_ID };
const draft = (items: Array<{ text: string; media: any[] }>, settings: Record<string, unknown> = board) => ({
  items,
  settings,
  fingerprint: "sp-7-1",
});
const image = (fill = 3) =>
  mediaOf({ mime: "image/jpeg", kind: "image", url: `https://api.example.test/m/${fill}?sig=s` }, fill);
const video = (size = 3000) => mediaOf({ mime: "video/mp4", kind: "video", name: "clip.mp4", size }, 5);
const timeout = () => new DOMException("The operation was aborted due to timeout", "TimeoutError");
const stored = () => new Response(null, { status: 204 });

const adapterAt = (fetch: Fetch, now: number) =>
  createAdapter(SPECS.pinterest, {
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

/** Runs `promise` with fake timers advanced until it settles (the media polls wait between tries). */
async function withTimers<T>(start: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["setTimeout"] });
  const promise = start();
  promise.catch(() => undefined);
  await vi.advanceTimersByTimeAsync(MEDIA_POLL_INTERVAL_MS * (MEDIA_POLLS + 1));
  vi.useRealTimers();
  return promise;
}

afterEach(() => vi.useRealTimers());

describe("pinterest publish", () => {
  it("creates an image Pin on the board with the row's title, link and alt text", async () => {
    const { media } = image();
    const { fetch, requests } = replay(json(R.pin("Launch day\nWe shipped it."), 201));
    const settings = {
      ...board,
      title: "Launch day",
      link: "https://www.example.com/launch",
      alt_text: "A rocket",
    };
    const post = await adapterFor("pinterest", fetch).publish(
      account,
      draft([{ text: "Launch day\nWe shipped it.", media: [media] }], settings),
    );
    expect(post).toEqual({ id: R.PIN_ID, url: `https://www.pinterest.com/pin/${R.PIN_ID}/` });
    const [request] = requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("https://api.pinterest.com/v5/pins");
    expect(request!.headers.get("authorization")).toBe("Bearer pin-token");
    expect(request!.headers.get("content-type")).toBe("application/json");
    expect(await request!.json()).toEqual({
      board_id: R.BOARD_ID,
      media_source: { source_type: "image_url", url: media.url },
      description: "Launch day\nWe shipped it.",
      title: "Launch day",
      link: "https://www.example.com/launch",
      alt_text: "A rocket",
    });
  });

  it("sends several images as a carousel, and leaves out what the row does not set", async () => {
    const images = [image(1), image(2), image(3)].map((i) => i.media);
    const { fetch, requests } = replay(json(R.pin(null), 201));
    await adapterFor("pinterest", fetch).publish(account, draft([{ text: "", media: images }]));
    expect(await requests[0]!.json()).toEqual({
      board_id: R.BOARD_ID,
      media_source: { source_type: "multiple_image_urls", items: images.map((m) => ({ url: m.url })) },
    });
  });

  it("uploads a video to storage as a streamed multipart form, waits for processing, then creates the Pin", async () => {
    const { media, bytes, opened } = video();
    const { fetch, requests } = replay(
      json(R.registered, 201),
      stored(),
      json(R.mediaStatus("processing")),
      json(R.mediaStatus("succeeded")),
      json(R.pin("A clip"), 201),
    );
    const post = await withTimers(() =>
      adapterFor("pinterest", fetch).publish(account, draft([{ text: "A clip", media: [media] }])),
    );
    expect(post.id).toBe(R.PIN_ID);
    const [register, upload, poll1, poll2, create] = requests;

    expect(register!.method).toBe("POST");
    expect(register!.url).toBe("https://api.pinterest.com/v5/media");
    expect(register!.headers.get("authorization")).toBe("Bearer pin-token");
    expect(await register!.json()).toEqual({ media_type: "video" });

    expect(upload!.method).toBe("POST");
    expect(upload!.url).toBe(R.UPLOAD_URL);
    // Storage is signed by the form's fields: Pinterest's token never goes there.
    expect(upload!.headers.get("authorization")).toBeNull();
    expect(upload!.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const raw = new TextDecoder("latin1").decode(await upload!.clone().arrayBuffer());
    const names = [...raw.matchAll(/; name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual([...Object.keys(R.registered.upload_parameters), "file"]);
    const form = await upload!.formData();
    for (const [name, value] of Object.entries(R.registered.upload_parameters))
      expect(form.get(name)).toBe(value);
    const file = form.get("file") as File;
    expect(file.name).toBe("clip.mp4");
    expect(file.type).toBe("video/mp4");
    await expectSameBytes(new Uint8Array(await file.arrayBuffer()), bytes);
    expect(opened).toEqual([{ offset: 0, length: bytes.length }]);

    for (const poll of [poll1, poll2]) {
      expect(poll!.method).toBe("GET");
      expect(poll!.url).toBe(`https://api.pinterest.com/v5/media/${R.MEDIA_ID}`);
    }
    expect(await create!.json()).toEqual({
      board_id: R.BOARD_ID,
      media_source: { source_type: "video_id", media_id: R.MEDIA_ID, cover_image_key_frame_time: 1 },
      description: "A clip",
    });
  });

  it("an image beside the video becomes its cover", async () => {
    const cover = image(8).media;
    const { fetch, requests } = replay(
      json(R.registered),
      stored(),
      json(R.mediaStatus("succeeded")),
      json(R.pin("x")),
    );
    await adapterFor("pinterest", fetch).publish(
      account,
      draft([{ text: "x", media: [video().media, cover] }]),
    );
    expect(((await requests[3]!.json()) as any).media_source).toEqual({
      source_type: "video_id",
      media_id: R.MEDIA_ID,
      cover_image_url: cover.url,
    });
  });

  it("a video Pinterest could not process is replaced once, then fails for good; one still processing after the polls is still_processing", async () => {
    const progress = memoryProgress();
    const failed = replay(json(R.registered), stored(), json(R.mediaStatus("failed")));
    const error = await failure(
      withTimers(() =>
        adapterFor("pinterest", failed.fetch).publish(account, {
          ...draft([{ text: "x", media: [video().media] }]),
          progress,
        }),
      ),
    );
    // The failed media is forgotten: the next attempt registers a new one.
    expect(error).toMatchObject({ kind: "transient", code: "media_failed" });
    expect(progress.values).toEqual({ video_failed: true });
    const again = replay(json(R.registered), stored(), json(R.mediaStatus("failed")));
    const final = await failure(
      withTimers(() =>
        adapterFor("pinterest", again.fetch).publish(account, {
          ...draft([{ text: "x", media: [video().media] }]),
          progress,
        }),
      ),
    );
    expect(final).toMatchObject({ kind: "permanent", code: "media_failed" });

    const polls = Array.from({ length: MEDIA_POLLS }, () => json(R.mediaStatus("processing")));
    const slow = replay(json(R.registered), stored(), ...polls);
    const kept = memoryProgress();
    const late = await failure(
      withTimers(() =>
        adapterFor("pinterest", slow.fetch).publish(account, {
          ...draft([{ text: "x", media: [video().media] }]),
          progress: kept,
        }),
      ),
    );
    expect(late).toMatchObject({ kind: "transient", code: "still_processing", retryAfterSeconds: 30 });
    // No Pin was asked for; the media is recorded for the next attempt.
    expect(slow.requests.filter((r) => r.url === "https://api.pinterest.com/v5/pins")).toEqual([]);
    expect(slow.requests).toHaveLength(2 + MEDIA_POLLS);
    expect(kept.values).toEqual({ video: { media_id: R.MEDIA_ID, uploaded: true } });
  });

  it("resumes the recorded media: polls it, registers nothing, then creates the Pin with it", async () => {
    const progress = memoryProgress({ video: { media_id: R.MEDIA_ID, uploaded: true } });
    const { fetch, requests } = replay(json(R.mediaStatus("succeeded")), json(R.pin("x")));
    const post = await adapterFor("pinterest", fetch).publish(account, {
      ...draft([{ text: "x", media: [video().media] }]),
      progress,
    });
    expect(post.id).toBe(R.PIN_ID);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET https://api.pinterest.com/v5/media/${R.MEDIA_ID}`,
      "POST https://api.pinterest.com/v5/pins",
    ]);
    expect(((await requests[1]!.json()) as any).media_source).toMatchObject({ media_id: R.MEDIA_ID });

    // find: a recorded media not processed yet means no Pin can exist; no search of the Pins.
    const pending = replay(json(R.mediaStatus("processing")));
    const found = await adapterFor("pinterest", pending.fetch).find(account, {
      fingerprint: "sp-7-1",
      text: "x",
      progress,
    });
    expect(found).toBeNull();
    expect(pending.requests).toHaveLength(1);
  });

  it("refuses text-only posts, threads, a missing board, more than 5 images and two videos, before any request", async () => {
    const { fetch, requests } = replay();
    const adapter = adapterFor("pinterest", fetch);
    const cases: Array<[ReturnType<typeof draft>, string, string?]> = [
      [draft([{ text: "text only", media: [] }]), "media_required"],
      [
        draft([
          { text: "a", media: [image().media] },
          { text: "b", media: [] },
        ]),
        "thread_unsupported",
      ],
      [
        draft([{ text: "a", media: [image().media] }], {}),
        "board_required",
        "Pinterest: The settings.pinterest.board_id field is required on pinterest.",
      ],
      [draft([{ text: "a", media: [1, 2, 3, 4, 5, 6].map((n) => image(n).media) }]), "too_many_images"],
      [draft([{ text: "a", media: [video().media, video().media] }]), "too_many_videos"],
    ];
    for (const [input, code, message] of cases) {
      const error = await failure(adapter.publish(account, input));
      expect(error).toMatchObject({ kind: "permanent", code });
      if (message) expect(error.message).toBe(message);
    }
    expect(requests).toEqual([]);
  });
});

describe("pinterest errors", () => {
  const publish = (...answers: Array<Response | Error>) =>
    failure(
      adapterFor("pinterest", replay(...answers).fetch).publish(
        account,
        draft([{ text: "x", media: [image().media] }]),
      ),
    );

  it("a missing board is permanent with Pinterest's message; an expired token is auth", async () => {
    const missing = await publish(json(R.error(404, "Board not found."), 404));
    expect(missing).toMatchObject({ kind: "permanent" });
    expect(missing.message).toContain("Board not found.");
    expect(await publish(json(R.error(2, "Authentication failed."), 401))).toMatchObject({ kind: "auth" });
  });

  it("code 29 (a Trial-access app on the production host) fails for good, naming PINTEREST_API_BASE", async () => {
    const trial = await publish(
      json(
        R.error(
          29,
          "Apps with Trial access may not create Pins in production https://api.pinterest.com - use API Sandbox https://api-sandbox.pinterest.com instead.",
        ),
        403,
      ),
    );
    expect(trial).toMatchObject({ kind: "permanent", code: "pinterest_trial_access" });
    expect(trial.message).toContain("error code 29");
    expect(trial.message).toContain("PINTEREST_API_BASE=https://api-sandbox.pinterest.com");
    expect(trial.message).toContain("Apps with Trial access may not create Pins in production");
  });

  it("PINTEREST_API_BASE points the API host elsewhere (the API Sandbox); unset, empty or not https, the production host", async () => {
    const env = (base?: string) =>
      ({
        PINTEREST_CLIENT_ID: "client-123",
        PINTEREST_CLIENT_SECRET: "secret-456",
        ...(base === undefined ? {} : { PINTEREST_API_BASE: base }),
      }) as unknown as Env;
    const hostOf = async (base?: string) => {
      const { fetch, requests } = replay(json(R.pin("x")));
      const lookup = lookupAdapter(env(base), "pinterest", "https://service.test", "live", fetch);
      if (lookup.kind !== "ok") throw new Error(lookup.kind);
      await lookup.adapter.publish(account, draft([{ text: "x", media: [image().media] }]));
      return requests[0]!.url;
    };
    expect(await hostOf("https://api-sandbox.pinterest.com/")).toBe(
      "https://api-sandbox.pinterest.com/v5/pins",
    );
    expect(await hostOf(" https://api-sandbox.pinterest.com ")).toBe(
      "https://api-sandbox.pinterest.com/v5/pins",
    );
    for (const base of [undefined, "", "http://api-sandbox.pinterest.com", "api-sandbox.pinterest.com"])
      expect(await hostOf(base)).toBe("https://api.pinterest.com/v5/pins");
  });

  it("on trial access (the API Sandbox host) a video Pin is refused before any call, and analytics read as nothing to read", async () => {
    const { fetch, requests } = replay();
    const env = {
      PINTEREST_CLIENT_ID: "client-123",
      PINTEREST_CLIENT_SECRET: "secret-456",
      PINTEREST_API_BASE: "https://api-sandbox.pinterest.com",
    } as unknown as Env;
    const lookup = lookupAdapter(env, "pinterest", "https://service.test", "live", fetch);
    if (lookup.kind !== "ok") throw new Error(lookup.kind);
    const refused = await failure(
      lookup.adapter.publish(account, draft([{ text: "x", media: [video().media, image().media] }])),
    );
    expect(refused).toMatchObject({ kind: "permanent", code: "video_not_available_on_trial" });
    expect(refused.message).toContain("API Sandbox");
    expect(await lookup.adapter.insights(account, R.PIN_ID)).toBeNull();
    expect(requests).toEqual([]);
  });

  it("429 waits for Retry-After or x-ratelimit-reset; 5xx is transient", async () => {
    const limited = new Response(JSON.stringify(R.error(8, "Rate limit exceeded.")), {
      status: 429,
      headers: { "retry-after": "120" },
    });
    expect(await publish(limited)).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 120 });
    const reset = Math.floor(Date.now() / 1000) + 300;
    const byReset = new Response(JSON.stringify(R.error(8, "Rate limit exceeded.")), {
      status: 429,
      headers: { "x-ratelimit-reset": String(reset) },
    });
    const error = await publish(byReset);
    expect(error.kind).toBe("rate_limited");
    expect(error.retryAfterSeconds).toBeGreaterThan(290);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(300);
    // The reset as the seconds left in the window, as the sandbox's emulator sends it.
    const bySeconds = new Response(JSON.stringify(R.error(8, "Rate limit exceeded.")), {
      status: 429,
      headers: { "x-ratelimit-reset": "30", "x-ratelimit-remaining": "0" },
    });
    expect(await publish(bySeconds)).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 30 });
    expect(await publish(json(R.error(1, "Internal error"), 503))).toMatchObject({ kind: "transient" });
  });

  it("a lost answer to the Pin creation is an unknown outcome; to the upload steps, a plain retry", async () => {
    expect(await publish(timeout())).toMatchObject({ kind: "unknown_outcome", code: "timeout" });
    for (const answers of [[timeout()], [json(R.registered), timeout()]]) {
      const { fetch } = replay(...answers);
      const error = await failure(
        adapterFor("pinterest", fetch).publish(account, draft([{ text: "x", media: [video().media] }])),
      );
      expect(error).toMatchObject({ kind: "transient", code: "timeout" });
    }
  });
});

describe("pinterest find, insights, comments, reply", () => {
  it("finds the latest Pin whose description is the text sent", async () => {
    const { fetch, requests } = replay(
      json(R.pins([R.pin("Other", "1"), R.pin("Launch day\n", "813744226420795884")])),
    );
    expect(
      await adapterFor("pinterest", fetch).find(account, { fingerprint: "sp-7-1", text: "Launch day" }),
    ).toEqual({
      id: R.PIN_ID,
      url: `https://www.pinterest.com/pin/${R.PIN_ID}/`,
    });
    expect(requests[0]!.url).toBe("https://api.pinterest.com/v5/pins?page_size=25");
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer pin-token");
  });

  it("finds nothing when no Pin has the text, for a post without text, or for a reply", async () => {
    const miss = replay(json(R.pins([R.pin("Other", "1")])));
    expect(
      await adapterFor("pinterest", miss.fetch).find(account, { fingerprint: "f", text: "Launch day" }),
    ).toBeNull();
    const none = replay();
    const adapter = adapterFor("pinterest", none.fetch);
    expect(await adapter.find(account, { fingerprint: "f", text: "  " })).toBeNull();
    expect(await adapter.find(account, { fingerprint: "f", text: "plug", replyTo: R.PIN_ID })).toBeNull();
    expect(none.requests).toEqual([]);
  });

  it("reads the last 90 days of impressions and saves, and lifetime comments and reactions", async () => {
    const { fetch, requests } = replay(json(R.analytics));
    const now = Date.parse("2025-05-02T10:00:00Z");
    expect(await adapterAt(fetch, now).insights(account, R.PIN_ID)).toEqual({
      impressions: 240,
      saves: 20,
      comments: 2,
      likes: 12,
      shares: 0,
      quotes: 0,
      engagement_rate: 14.17,
    });
    const url = new URL(requests[0]!.url);
    expect(url.origin + url.pathname).toBe(`https://api.pinterest.com/v5/pins/${R.PIN_ID}/analytics`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      start_date: "2025-02-02",
      end_date: "2025-05-02",
      metric_types: "IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK,TOTAL_COMMENTS,TOTAL_REACTIONS",
      app_types: "ALL",
      split_field: "NO_SPLIT",
    });
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer pin-token");
    const empty = replay(json({ all: { summary_metrics: {} } }));
    expect(await adapterFor("pinterest", empty.fetch).insights(account, R.PIN_ID)).toMatchObject({
      impressions: 0,
      engagement_rate: 0,
    });
  });

  it("declares no comments and no reply (absent methods, not stubs), and revokes nothing", async () => {
    const { fetch, requests } = replay();
    const adapter = adapterFor("pinterest", fetch);
    expect(adapter.comments).toBeUndefined();
    expect(adapter.reply).toBeUndefined();
    expect(await adapter.revoke(account)).toBe(false);
    expect(requests).toEqual([]);
  });

  it("a connect asks for the board and Pin scopes, comma-separated", async () => {
    const adapter = adapterFor("pinterest", replay().fetch);
    const url = new URL(
      await adapter.authorizeUrl({
        redirectUri: "https://api.example.test/cb",
        state: "s",
        purpose: "connect",
      }),
    );
    expect(url.searchParams.get("scope")).toBe(
      "boards:read,boards:write,pins:read,pins:write,user_accounts:read",
    );
  });
});
