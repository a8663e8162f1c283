// Threads publications resumed from what an earlier attempt recorded (src/platforms/threads/publish.ts
// `ThreadsProgress`), against recorded answers: a recorded container is polled and published, never made
// again; the attempt's deadline ends a poll loop with `still_processing`; a thread interrupted after its
// first item goes on after it; a container found PUBLISHED after a lost threads_publish answer is
// reconciled without publishing again; an EXPIRED one is replaced; a later item refused for good leaves
// the first post as what `find` answers. Container status answers as developers.facebook.com › Threads ›
// Troubleshooting ("Publishing Does Not Return a Media ID") shows them: `{ status, id }`.
import { describe, expect, it } from "vitest";
import { DEFAULT_TIMEOUTS } from "../../../src/platforms/call";
import { memoryProgress } from "../../../src/platforms/progress";
import { threadsPublishing } from "../../../src/platforms/threads";
import {
  POLL_ATTEMPTS,
  POLL_INTERVAL_MS,
  PROCESSING_RETRY_SECONDS,
} from "../../../src/platforms/threads/media";
import type { DraftItem, Fetch } from "../../../src/platforms/types";
import { CREDENTIALS, json, mediaOf, replay } from "../replay";
import { HANDLE, LONG_LIVED, RECORDED, USER_ID } from "./recorded";

const GRAPH = "https://graph.threads.net/v1.0";
const account = { handle: HANDLE, platformUserId: USER_ID, accessToken: LONG_LIVED };
const SETTINGS = { reply_control: "everyone", topic_tag: null };
const draftOf = (items: DraftItem[]) => ({ items, settings: SETTINGS, fingerprint: "sp-7-1" });
const image = (fill: number) =>
  mediaOf(
    { mime: "image/jpeg", kind: "image", url: `https://api.example.test/media/${fill}.jpg?sig=s` },
    fill,
  ).media;

/** GET /{container-id}?fields=status,error_message, as the Troubleshooting page shows it. */
const status = (id: string, value: string, error_message?: string) =>
  error_message ? { status: value, id, error_message } : { status: value, id };

/** The Threads publishing half with a recorded fetch; its polling waits are recorded, not slept. */
function publishingWith(fetch: Fetch) {
  const waits: number[] = [];
  const publishing = threadsPublishing({
    fetch,
    credentials: CREDENTIALS,
    now: () => Date.now(),
    sleep: async (ms) => void waits.push(ms),
    timeouts: DEFAULT_TIMEOUTS,
  });
  return { publishing, waits };
}

const formOf = async (request: Request) =>
  Object.fromEntries(new URLSearchParams(await request.clone().text()));
const queryOf = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);
const pathOf = (request: Request) => request.url.split("?")[0];

async function expectContainer(request: Request, fields: Record<string, string>) {
  expect(request.method).toBe("POST");
  expect(request.url).toBe(`${GRAPH}/${USER_ID}/threads`);
  expect(await formOf(request)).toEqual(fields);
}

async function expectPublish(request: Request, creationId: string) {
  expect(request.method).toBe("POST");
  expect(request.url).toBe(`${GRAPH}/${USER_ID}/threads_publish`);
  expect(await formOf(request)).toEqual({ creation_id: creationId });
}

function expectStatus(request: Request, containerId: string) {
  expect(request.method).toBe("GET");
  expect(pathOf(request)).toBe(`${GRAPH}/${containerId}`);
  expect(queryOf(request)).toEqual({ fields: "status,error_message" });
}

function expectPermalink(request: Request, id: string) {
  expect(request.method).toBe("GET");
  expect(pathOf(request)).toBe(`${GRAPH}/${id}`);
  expect(queryOf(request)).toEqual({ fields: "permalink,shortcode" });
}

/** No container was made and nothing published among `requests`. */
const posts = (requests: Request[]) => requests.filter((request) => request.method === "POST");

describe("threads resume", () => {
  it("records the container at once; a later attempt polls and publishes the same one", async () => {
    const progress = memoryProgress();
    const first = replay(
      json(RECORDED.container("c1")),
      ...Array.from({ length: POLL_ATTEMPTS }, () => json(status("c1", "IN_PROGRESS"))),
    );
    const attempt = publishingWith(first.fetch);
    const failure = attempt.publishing.publish(account, {
      ...draftOf([{ text: "Slow", media: [image(1)] }]),
      progress,
    });
    await expect(failure).rejects.toMatchObject({
      code: "still_processing",
      kind: "transient",
      retryAfterSeconds: PROCESSING_RETRY_SECONDS,
    });
    expect(first.requests).toHaveLength(1 + POLL_ATTEMPTS);
    expect(attempt.waits).toEqual(Array(POLL_ATTEMPTS - 1).fill(POLL_INTERVAL_MS));
    expect(progress.values.threads).toMatchObject({ total: 1, items: [{ container: "c1" }] });

    const second = replay(
      json(status("c1", "FINISHED")),
      json(RECORDED.published("9001")),
      json(RECORDED.permalink("9001")),
    );
    const post = await publishingWith(second.fetch).publishing.publish(account, {
      ...draftOf([{ text: "Slow", media: [image(1)] }]),
      progress,
    });
    expect(post).toEqual({ id: "9001", url: RECORDED.permalink("9001").permalink });
    expectStatus(second.requests[0]!, "c1");
    await expectPublish(second.requests[1]!, "c1");
    expectPermalink(second.requests[2]!, "9001");
    expect(second.requests).toHaveLength(3);
    expect(progress.values.threads).toMatchObject({ items: [{ container: "c1", post: "9001" }] });
  });

  it("find: a recorded container still IN_PROGRESS answers none, without any text search", async () => {
    const progress = memoryProgress({ threads: { total: 1, items: [{ container: "c1", at: Date.now() }] } });
    const { fetch, requests } = replay(json(status("c1", "IN_PROGRESS")));
    const found = await publishingWith(fetch).publishing.find(account, {
      fingerprint: "sp-7-1",
      text: "Slow",
      progress,
    });
    expect(found).toBeNull();
    expect(requests).toHaveLength(1);
    expectStatus(requests[0]!, "c1");
  });

  it("stops polling at the attempt's deadline, the container kept for the next attempt", async () => {
    const progress = memoryProgress();
    const { fetch, requests } = replay(json(RECORDED.container("c2")), json(status("c2", "IN_PROGRESS")));
    const attempt = publishingWith(fetch);
    const failure = attempt.publishing.publish(account, {
      ...draftOf([{ text: "Late", media: [image(2)] }]),
      progress,
      deadline: Date.now() - 1,
    });
    await expect(failure).rejects.toMatchObject({ code: "still_processing", kind: "transient" });
    expect(requests).toHaveLength(2);
    expect(attempt.waits).toEqual([]);
    expect(progress.values.threads).toMatchObject({ items: [{ container: "c2" }] });
  });

  it("a carousel's recorded children are polled, only the missing one is made", async () => {
    const progress = memoryProgress({
      threads: { total: 1, items: [{ children: ["k1"], at: Date.now() }] },
    });
    const [one, two] = [image(3), image(4)];
    const { fetch, requests } = replay(
      json(status("k1", "FINISHED")),
      json(RECORDED.container("k2")),
      json(status("k2", "FINISHED")),
      json(RECORDED.container("car")),
      json(status("car", "FINISHED")),
      json(RECORDED.published("9003")),
      json(RECORDED.permalink("9003")),
    );
    await publishingWith(fetch).publishing.publish(account, {
      ...draftOf([{ text: "Two", media: [one, two] }]),
      progress,
    });
    expectStatus(requests[0]!, "k1");
    await expectContainer(requests[1]!, {
      media_type: "IMAGE",
      image_url: two.url,
      is_carousel_item: "true",
    });
    await expectContainer(requests[3]!, {
      media_type: "CAROUSEL",
      children: "k1,k2",
      text: "Two",
      reply_control: "everyone",
    });
    await expectPublish(requests[5]!, "car");
    expect(progress.values.threads).toMatchObject({
      items: [{ children: ["k1", "k2"], container: "car", post: "9003" }],
    });
  });

  it("a thread interrupted after its first item goes on after it: a reply to it, the first never made again", async () => {
    const progress = memoryProgress();
    const items = [
      { text: "Part one", media: [] },
      { text: "Part two", media: [image(5)] },
    ];
    // Attempt 1: the first post goes out, the second item's container is still processing at the deadline.
    const first = replay(
      json(RECORDED.container("t1")),
      json(RECORDED.published("P1")),
      json(RECORDED.container("t2")),
      json(status("t2", "IN_PROGRESS")),
    );
    const failure = publishingWith(first.fetch).publishing.publish(account, {
      ...draftOf(items),
      progress,
      deadline: Date.now() - 1,
    });
    await expect(failure).rejects.toMatchObject({ code: "still_processing" });
    await expectContainer(first.requests[0]!, {
      media_type: "TEXT",
      text: "Part one",
      reply_control: "everyone",
    });
    await expectContainer(first.requests[2]!, {
      media_type: "IMAGE",
      image_url: items[1]!.media[0]!.url,
      text: "Part two",
      reply_control: "everyone",
      reply_to_id: "P1",
    });
    expect(progress.values.threads).toMatchObject({
      total: 2,
      items: [{ container: "t1", post: "P1" }, { container: "t2" }],
    });

    // Attempt 2: find answers none while the thread is incomplete (no call at all), then publish goes on.
    const second = replay(
      json(status("t2", "FINISHED")),
      json(RECORDED.published("P2")),
      json(RECORDED.permalink("P1")),
    );
    const { publishing } = publishingWith(second.fetch);
    expect(await publishing.find(account, { fingerprint: "sp-7-1", text: "Part one", progress })).toBeNull();
    expect(second.requests).toHaveLength(0);
    const post = await publishing.publish(account, { ...draftOf(items), progress });
    expect(post).toEqual({ id: "P1", url: RECORDED.permalink("P1").permalink });
    expectStatus(second.requests[0]!, "t2");
    await expectPublish(second.requests[1]!, "t2");
    expectPermalink(second.requests[2]!, "P1");
    expect(second.requests).toHaveLength(3);
    expect(progress.values.threads).toMatchObject({
      items: [{ post: "P1" }, { container: "t2", post: "P2" }],
    });
  });

  it("a recorded reply container found PUBLISHED is reconciled among the replies, not published again", async () => {
    const progress = memoryProgress({
      threads: {
        total: 2,
        items: [
          { container: "t1", post: "P1", at: Date.now() },
          { container: "t2", at: Date.now() },
        ],
      },
    });
    const items = [
      { text: "Part one", media: [] },
      { text: "Thanks for reading!", media: [] },
    ];
    const { fetch, requests } = replay(
      json(status("t2", "PUBLISHED")),
      json(RECORDED.replies),
      json(RECORDED.permalink("P1")),
    );
    const post = await publishingWith(fetch).publishing.publish(account, { ...draftOf(items), progress });
    expect(post.id).toBe("P1");
    expectStatus(requests[0]!, "t2");
    expect(pathOf(requests[1]!)).toBe(`${GRAPH}/P1/replies`);
    expect(posts(requests)).toHaveLength(0);
    expect(progress.values.threads).toMatchObject({ items: [{ post: "P1" }, { post: "2000002" }] });
  });

  it("find: a recorded container PUBLISHED after a lost threads_publish answer is the post; nothing published", async () => {
    const at = Date.now();
    const progress = memoryProgress({ threads: { total: 1, items: [{ container: "c5", at }] } });
    const { fetch, requests } = replay(
      json(status("c5", "PUBLISHED")),
      json(RECORDED.threadsList),
      json(RECORDED.permalink("1234568", "hijklmn")),
    );
    const found = await publishingWith(fetch).publishing.find(account, {
      fingerprint: "sp-7-1",
      text: "Launch day",
      progress,
    });
    expect(found).toEqual({ id: "1234568", url: RECORDED.permalink("1234568", "hijklmn").permalink });
    expectStatus(requests[0]!, "c5");
    expect(pathOf(requests[1]!)).toBe(`${GRAPH}/${USER_ID}/threads`);
    expect(queryOf(requests[1]!)).toEqual({
      fields: "id,text,timestamp,username,is_reply_owned_by_me",
      limit: "25",
    });
    expectPermalink(requests[2]!, "1234568");
    expect(posts(requests)).toHaveLength(0);
    expect(progress.values.threads).toMatchObject({ items: [{ container: "c5", post: "1234568", at }] });
  });

  it("an EXPIRED recorded container is replaced by a new one, which is published", async () => {
    const progress = memoryProgress({
      threads: { total: 1, items: [{ container: "old", at: Date.now() - 86_400_000 }] },
    });
    const picture = image(6);
    const { fetch, requests } = replay(
      json(status("old", "EXPIRED")),
      json(RECORDED.container("new")),
      json(status("new", "FINISHED")),
      json(RECORDED.published("9006")),
      json(RECORDED.permalink("9006")),
    );
    const post = await publishingWith(fetch).publishing.publish(account, {
      ...draftOf([{ text: "Again", media: [picture] }]),
      progress,
    });
    expect(post.id).toBe("9006");
    expectStatus(requests[0]!, "old");
    await expectContainer(requests[1]!, {
      media_type: "IMAGE",
      image_url: picture.url,
      text: "Again",
      reply_control: "everyone",
    });
    await expectPublish(requests[3]!, "new");
    expect(progress.values.threads).toMatchObject({ items: [{ container: "new", post: "9006" }] });
  });

  it("a container made in this attempt and reported EXPIRED is not replaced again and again", async () => {
    const progress = memoryProgress({ threads: { total: 1, items: [{ container: "old", at: Date.now() }] } });
    const { fetch, requests } = replay(
      json(status("old", "EXPIRED")),
      json(RECORDED.container("new")),
      json(status("new", "EXPIRED")),
      json(RECORDED.container("newer")),
      json(status("newer", "EXPIRED")),
    );
    const failure = publishingWith(fetch).publishing.publish(account, {
      ...draftOf([{ text: "Stale", media: [image(9)] }]),
      progress,
    });
    // Threads expires a container 24 hours after it is made: one just made cannot be; the attempt ends
    // (transient) with it recorded, and the next attempt replaces it once more.
    await expect(failure).rejects.toMatchObject({ kind: "transient", code: "container_expired" });
    expect(posts(requests)).toHaveLength(1);
    expect(progress.values.threads).toMatchObject({ items: [{ container: "new" }] });
  });

  it("an ERROR of a container an earlier attempt made is replaced once; a second ERROR is final", async () => {
    const progress = memoryProgress({ threads: { total: 1, items: [{ container: "e1", at: Date.now() }] } });
    const picture = image(8);
    const { fetch, requests } = replay(
      json(status("e1", "ERROR", "FAILED_DOWNLOADING_VIDEO")),
      json(RECORDED.container("e2")),
      json(status("e2", "ERROR", "FAILED_DOWNLOADING_VIDEO")),
    );
    const failure = publishingWith(fetch).publishing.publish(account, {
      ...draftOf([{ text: "Broken", media: [picture] }]),
      progress,
    });
    await expect(failure).rejects.toMatchObject({ kind: "permanent", code: "media_processing_failed" });
    expect(posts(requests)).toHaveLength(1);
    expect(progress.values.threads).toMatchObject({ items: [{ replaced: 1 }] });
  });

  it("a later item refused for good stops the thread; find then answers its first post", async () => {
    const progress = memoryProgress({
      threads: { total: 2, items: [{ container: "t1", post: "P1", at: Date.now() }] },
    });
    const items = [
      { text: "Part one", media: [] },
      { text: "Part two", media: [image(7)] },
    ];
    const first = replay(
      json(RECORDED.container("t2")),
      json(status("t2", "ERROR", "FAILED_DOWNLOADING_VIDEO")),
    );
    const failure = publishingWith(first.fetch).publishing.publish(account, { ...draftOf(items), progress });
    await expect(failure).rejects.toMatchObject({ kind: "unknown_outcome", code: "thread_incomplete" });
    expect(posts(first.requests)).toHaveLength(1);
    // The refused item's containers are dropped; the first post stays recorded.
    expect(progress.values.threads).toMatchObject({
      total: 2,
      stopped: true,
      items: [{ post: "P1" }, { replaced: 0 }],
    });

    const second = replay(json(RECORDED.permalink("P1")));
    const found = await publishingWith(second.fetch).publishing.find(account, {
      fingerprint: "sp-7-1",
      text: "Part one",
      progress,
    });
    expect(found).toEqual({ id: "P1", url: RECORDED.permalink("P1").permalink });
    expect(second.requests).toHaveLength(1);
    expectPermalink(second.requests[0]!, "P1");
  });
});
