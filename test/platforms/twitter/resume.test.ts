// The X adapter resuming a publication from what earlier attempts recorded (the row's progress), against
// X's documented answers: a video still processing is polled again (never uploaded again), an upload cut
// off resumes at its next segment, an upload past X's expires_after_secs is started over, a thread
// continues after its last recorded post, and `find` reconciles by the records before any text.
import { describe, expect, it } from "vitest";
import { memoryProgress } from "../../../src/platforms/progress";
import { CHUNK_BYTES } from "../../../src/platforms/twitter/media";
import { json, mediaOf, replay } from "../replay";
import { appendedAnswer, created, initialized, processing, USER_ID } from "./recorded";
import { account, adapterWithSleeps, appendOf, draftOf, failureOf, item, jsonOf } from "./support";

const TWEETS = "https://api.x.com/2/tweets";
const UPLOAD = "https://api.x.com/2/media/upload";

const withProgress = (draft: ReturnType<typeof draftOf>, progress = memoryProgress()) => ({
  ...draft,
  progress,
});

describe("X publish resumes what earlier attempts recorded", () => {
  it("a single post of text alone records nothing: no write to the row for what a text search finds", async () => {
    const progress = memoryProgress();
    const writes: string[] = [];
    const counted = { get: progress.get, set: async (key: string) => void writes.push(key) };
    const recorded = replay(json(created("5"), 201));
    const post = await adapterWithSleeps(recorded.fetch).adapter.publish(
      account,
      withProgress(draftOf([item("just text")]), { ...counted, values: progress.values }),
    );
    expect(post.id).toBe("5");
    expect(writes).toEqual([]);
  });

  it("a video still processing past the attempt's waits: still_processing, then polled (not uploaded) again", async () => {
    const clip = mediaOf({ mime: "video/mp4", kind: "video", size: 100 });
    const progress = memoryProgress();
    const first = replay(
      json(initialized("9")),
      json(appendedAnswer),
      json(processing("9", "pending", 60)),
      json(processing("9", "in_progress", 60)),
    );
    const one = adapterWithSleeps(first.fetch);
    const error = await failureOf(
      one.adapter.publish(account, withProgress(draftOf([item("x", [clip.media])]), progress)),
    );
    // X's check_after_secs is honoured in full; past the attempt's 90 s of waiting it ends, retried then.
    expect(error).toMatchObject({ kind: "transient", code: "still_processing", retryAfterSeconds: 60 });
    expect(one.sleeps).toEqual([60_000]);
    expect(first.requests.filter((r) => r.url === TWEETS)).toHaveLength(0);
    expect(progress.values["media.0.0"]).toMatchObject({ id: "9", segments: 1, finalized: true });
    expect(progress.values.sending).toBeUndefined();

    const second = replay(json(processing("9", "succeeded")), json(created("77"), 201));
    const two = adapterWithSleeps(second.fetch);
    expect(await two.adapter.find(account, { fingerprint: "sp-7-1", text: "x", progress })).toBeNull();
    const post = await two.adapter.publish(
      account,
      withProgress(draftOf([item("x", [clip.media])]), progress),
    );
    expect(post.id).toBe("77");
    expect(second.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${UPLOAD}?command=STATUS&media_id=9`,
      `POST ${TWEETS}`,
    ]);
    expect(await jsonOf(second.requests[1]!)).toEqual({ text: "x", media: { media_ids: ["9"] } });
    expect(progress.values.tweets).toEqual(["77"]);
    // Everything recorded: a redelivered message finds the post and publishes nothing.
    const third = replay();
    expect(
      await adapterWithSleeps(third.fetch).adapter.find(account, {
        fingerprint: "sp-7-1",
        text: "x",
        progress,
      }),
    ).toMatchObject({ id: "77" });
    expect(third.requests).toHaveLength(0);
  });

  it("an upload cut off after its first segment resumes at the next one, with the same media id", async () => {
    const size = 2 * CHUNK_BYTES + 10;
    const clip = mediaOf({ mime: "video/mp4", kind: "video", size });
    const progress = memoryProgress();
    const first = replay(
      json(initialized("9")),
      json(appendedAnswer),
      json({ title: "Service Unavailable", detail: "Service Unavailable", status: 503 }, 503),
    );
    const error = await failureOf(
      adapterWithSleeps(first.fetch).adapter.publish(
        account,
        withProgress(draftOf([item("x", [clip.media])]), progress),
      ),
    );
    expect(error.kind).toBe("transient");
    expect(progress.values["media.0.0"]).toMatchObject({ id: "9", segments: 1 });

    const second = replay(
      json(appendedAnswer),
      json(appendedAnswer),
      json(processing("9", "succeeded")),
      json(created("77"), 201),
    );
    await adapterWithSleeps(second.fetch).adapter.publish(
      account,
      withProgress(draftOf([item("x", [clip.media])]), progress),
    );
    expect(second.requests[0]!.url).toBe(`${UPLOAD}/9/append`);
    expect((await Promise.all(second.requests.slice(0, 2).map(appendOf))).map((a) => a.segment)).toEqual([
      "1",
      "2",
    ]);
    expect(second.requests[2]!.url).toBe(`${UPLOAD}/9/finalize`);
  });

  it("an upload recorded past X's expires_after_secs is started over with a new media id", async () => {
    const photo = mediaOf({ mime: "image/png", kind: "image", size: 100 });
    const progress = memoryProgress({
      items: 1,
      "media.0.0": { id: "9", expiresAt: Date.now() - 1000, segments: 1, finalized: true, ready: true },
    });
    const { fetch, requests } = replay(
      json(initialized("10")),
      json(appendedAnswer),
      json({ data: { id: "10", media_key: "3_10", expires_after_secs: 86400 } }),
      json(created("77"), 201),
    );
    await adapterWithSleeps(fetch).adapter.publish(
      account,
      withProgress(draftOf([item("x", [photo.media])]), progress),
    );
    expect(requests[0]!.url).toBe(`${UPLOAD}/initialize`);
    expect(await jsonOf(requests[3]!)).toEqual({ text: "x", media: { media_ids: ["10"] } });
    expect(progress.values["media.0.0"]).toMatchObject({ id: "10", ready: true });
  });

  it("a thread whose second post failed transiently continues with item 2, replying to the first", async () => {
    const progress = memoryProgress();
    const draft = () => withProgress(draftOf([item("One"), item("Two"), item("Three")]), progress);
    const first = replay(
      json(created("101"), 201),
      json({ title: "Service Unavailable", detail: "Service Unavailable", status: 503 }, 503),
    );
    const error = await failureOf(adapterWithSleeps(first.fetch).adapter.publish(account, draft()));
    expect(error.kind).toBe("transient");
    expect(progress.values).toMatchObject({ items: 3, tweets: ["101"], sending: 1 });

    // The next attempt: find sees an incomplete thread (nothing found), publish continues it. The create
    // of item 2 was sent, so it is first looked for among the replies to the first post.
    const second = replay(json({ data: [] }), json(created("102"), 201), json(created("103"), 201));
    const { adapter } = adapterWithSleeps(second.fetch);
    expect(await adapter.find(account, { fingerprint: "sp-7-1", text: "One", progress })).toBeNull();
    const post = await adapter.publish(account, draft());
    expect(post.id).toBe("101");
    expect(second.requests[0]!.url).toContain(`/2/users/${USER_ID}/tweets?`);
    expect(await Promise.all(second.requests.slice(1).map(jsonOf))).toEqual([
      { text: "Two", reply: { in_reply_to_tweet_id: "101" } },
      { text: "Three", reply: { in_reply_to_tweet_id: "102" } },
    ]);
    expect(progress.values.tweets).toEqual(["101", "102", "103"]);
  });

  it("a later post whose answer was lost is found among the replies to the one before, not sent again", async () => {
    const progress = memoryProgress({ items: 2, tweets: ["101"], sending: 1 });
    const timeline = {
      data: [
        { id: "102", text: "Two", referenced_tweets: [{ type: "replied_to", id: "101" }] },
        { id: "101", text: "One" },
      ],
    };
    const { fetch, requests } = replay(json(timeline));
    const post = await adapterWithSleeps(fetch).adapter.publish(
      account,
      withProgress(draftOf([item("One"), item("Two")]), progress),
    );
    expect(post.id).toBe("101");
    expect(requests).toHaveLength(1);
    expect(progress.values.tweets).toEqual(["101", "102"]);
  });

  it("a later item refused for good fails the publication, naming the posts already on X", async () => {
    const { fetch } = replay(
      json(created("101"), 201),
      json({ title: "Forbidden", detail: "Forbidden", type: "about:blank", status: 403 }, 403),
    );
    const error = await failureOf(
      adapterWithSleeps(fetch).adapter.publish(account, withProgress(draftOf([item("One"), item("Two")]))),
    );
    expect(error).toMatchObject({ kind: "permanent", code: "thread_incomplete" });
    expect(error.message).toContain("(101)");
    expect(error.message).toContain("item 2 of 2");
  });

  it("find: nothing sent yet is nothing to find (no text search); a first create sent is searched by text", async () => {
    const { fetch, requests } = replay(json({ data: [{ id: "101", text: "One" }] }));
    const { adapter } = adapterWithSleeps(fetch);
    const uploading = memoryProgress({ items: 1, "media.0.0": { id: "9", expiresAt: 0, segments: 0 } });
    expect(await adapter.find(account, { fingerprint: "f", text: "One", progress: uploading })).toBeNull();
    expect(requests).toHaveLength(0);
    // The first post of a 2-item thread found by its text: recorded, and the thread continues.
    const sent = memoryProgress({ items: 2, sending: 0 });
    expect(await adapter.find(account, { fingerprint: "f", text: "One", progress: sent })).toBeNull();
    expect(sent.values.tweets).toEqual(["101"]);
  });

  it("renews a media id's expiry from its finalize and status answers (X counts it from the finalize)", async () => {
    const clip = mediaOf({ mime: "video/mp4", kind: "video", size: 100 });
    const progress = memoryProgress();
    const start = Date.now();
    const { fetch } = replay(
      // The upload session lives 10 minutes; the finalized id a day, then what STATUS says is left.
      json({ data: { id: "9", media_key: "7_9", expires_after_secs: 600 } }),
      json(appendedAnswer),
      json(processing("9", "pending", 1, {}), 200),
      json({
        data: {
          id: "9",
          media_key: "7_9",
          expires_after_secs: 86_000,
          processing_info: { state: "succeeded" },
        },
      }),
      json(
        { title: "Service Unavailable", detail: "Service Unavailable", type: "about:blank", status: 503 },
        503,
      ),
    );
    await failureOf(
      adapterWithSleeps(fetch).adapter.publish(
        account,
        withProgress(draftOf([item("x", [clip.media])]), progress),
      ),
    );
    const record = progress.values["media.0.0"] as { expiresAt: number; mediaKey?: string };
    expect(record.expiresAt).toBeGreaterThanOrEqual(start + 86_000 * 1000);
    expect(record.mediaKey).toBe("7_9");
  });

  it("a media id X refuses as expired at the create is uploaded again once, then posted", async () => {
    const photo = mediaOf({ mime: "image/png", kind: "image", size: 100 });
    const progress = memoryProgress({
      items: 1,
      "media.0.0": { id: "9", expiresAt: Date.now() + 3_600_000, segments: 1, finalized: true, ready: true },
    });
    const invalidMedia = {
      errors: [{ parameters: { "media.media_ids": ["9"] }, message: "Your media IDs are invalid." }],
      title: "Invalid Request",
      detail: "One or more parameters to your request was invalid.",
      type: "https://api.twitter.com/2/problems/invalid-request",
    };
    const { fetch, requests } = replay(
      json(invalidMedia, 400),
      json(initialized("10")),
      json(appendedAnswer),
      json({ data: { id: "10", media_key: "3_10", expires_after_secs: 86400 } }),
      json(created("77"), 201),
    );
    const post = await adapterWithSleeps(fetch).adapter.publish(
      account,
      withProgress(draftOf([item("x", [photo.media])]), progress),
    );
    expect(post.id).toBe("77");
    expect(requests[1]!.url).toBe(`${UPLOAD}/initialize`);
    expect(await jsonOf(requests[4]!)).toEqual({ text: "x", media: { media_ids: ["10"] } });
    // A second refusal of the new id is final: nothing is uploaded a third time.
    const again = replay(json(invalidMedia, 400), json(invalidMedia, 400));
    const stale = memoryProgress({
      items: 1,
      "media.0.0": { id: "9", expiresAt: Date.now() + 3_600_000, segments: 1, finalized: true, ready: true },
      reuploaded: [0],
    });
    const error = await failureOf(
      adapterWithSleeps(again.fetch).adapter.publish(
        account,
        withProgress(draftOf([item("x", [photo.media])]), stale),
      ),
    );
    expect(error.kind).toBe("permanent");
    expect(again.requests).toHaveLength(1);
  });

  it("find: a post of media alone whose create answer was lost is found by its recorded media_key", async () => {
    const timeline = {
      data: [
        { id: "120", text: "https://t.co/other", attachments: { media_keys: ["3_8"] } },
        { id: "121", text: "https://t.co/mine", attachments: { media_keys: ["3_9"] } },
      ],
      includes: {
        media: [
          { media_key: "3_8", type: "photo" },
          { media_key: "3_9", type: "photo" },
        ],
      },
    };
    const { fetch, requests } = replay(json(timeline));
    const progress = memoryProgress({
      items: 1,
      sending: 0,
      "media.0.0": { id: "9", mediaKey: "3_9", expiresAt: 0, segments: 1, finalized: true, ready: true },
    });
    const found = await adapterWithSleeps(fetch).adapter.find(account, {
      fingerprint: "f",
      text: "",
      progress,
    });
    expect(found?.id).toBe("121");
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe(`/2/users/${USER_ID}/tweets`);
    expect(url.searchParams.get("expansions")).toBe("attachments.media_keys");
  });
});
