// Publishing on Instagram, request by request: the quota check, containers (photo, reel, story,
// carousel) polled until FINISHED, the publish, the permalink, a thread's comments, and the drafts
// refused before any call.
import { describe, expect, it } from "vitest";
import { adapterFor, json, mediaOf, replay } from "../replay";
import { IG_USER_ID, MEDIA_ID, PERMALINK, RECORDED } from "./recorded";
import { account, draftOf, expectGet, expectPost, GRAPH, publishingWith } from "./support";

const image = (fill: number) => mediaOf({ mime: "image/jpeg", kind: "image" }, fill).media;
const video = (fill: number) => mediaOf({ mime: "video/mp4", kind: "video", size: 4096 }, fill).media;

/** The answers around a single container: quota, container, FINISHED, publish, permalink. */
const singleContainer = (id = "17889455560051444") => [
  json(RECORDED.quota(2)),
  json(RECORDED.container(id)),
  json(RECORDED.status(id, "FINISHED")),
  json(RECORDED.published),
  json(RECORDED.permalink),
];

describe("instagram publish", () => {
  it("publishes a photo: quota check, container, status, publish, permalink", async () => {
    const photo = image(1);
    const { fetch, requests } = replay(...singleContainer("c1"));
    const post = await adapterFor("instagram", fetch).publish(
      account,
      draftOf([{ text: "Golden hour on the pier", media: [photo] }]),
    );
    expect(post).toEqual({ id: MEDIA_ID, url: PERMALINK });
    expect(requests).toHaveLength(5);
    expectGet(requests[0]!, `${GRAPH}/${IG_USER_ID}/content_publishing_limit`, {
      fields: "quota_usage,config",
    });
    await expectPost(requests[1]!, `${GRAPH}/${IG_USER_ID}/media`, {
      image_url: photo.url,
      caption: "Golden hour on the pier",
    });
    expectGet(requests[2]!, `${GRAPH}/c1`, { fields: "status_code,status" });
    await expectPost(requests[3]!, `${GRAPH}/${IG_USER_ID}/media_publish`, { creation_id: "c1" });
    expectGet(requests[4]!, `${GRAPH}/${MEDIA_ID}`, { fields: "permalink" });
  });

  it("sends the collaborators and the location of a feed post", async () => {
    const { fetch, requests } = replay(...singleContainer());
    await adapterFor("instagram", fetch).publish(
      account,
      draftOf([{ text: "With friends", media: [image(1)] }], {
        collaborators: ["alice", "bob"],
        location_id: "110843418940484",
      }),
    );
    const fields = Object.fromEntries(new URLSearchParams(await requests[1]!.text()));
    expect(fields).toMatchObject({ collaborators: '["alice","bob"]', location_id: "110843418940484" });
  });

  it("publishes a single video as a reel, with share_to_feed from the settings", async () => {
    const clip = video(2);
    const { fetch, requests } = replay(...singleContainer("c2"));
    await adapterFor("instagram", fetch).publish(
      account,
      draftOf([{ text: "Waves", media: [clip] }], { post_type: "reel", share_to_feed: false }),
    );
    await expectPost(requests[1]!, `${GRAPH}/${IG_USER_ID}/media`, {
      media_type: "REELS",
      video_url: clip.url,
      share_to_feed: "false",
      caption: "Waves",
    });
  });

  it("waits, boundedly, for a video container to finish processing", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.quota(2)),
      json(RECORDED.container("c3")),
      json(RECORDED.status("c3", "IN_PROGRESS")),
      json(RECORDED.status("c3", "IN_PROGRESS")),
      json(RECORDED.status("c3", "FINISHED")),
      json(RECORDED.published),
      json(RECORDED.permalink),
    );
    const { publishing, waits } = publishingWith(fetch);
    const post = await publishing.publish(account, draftOf([{ text: "Waves", media: [video(3)] }]));
    expect(post.id).toBe(MEDIA_ID);
    expect(waits).toEqual([5000, 5000]);
    expect(requests.filter((r) => r.url.startsWith(`${GRAPH}/c3?`))).toHaveLength(3);
  });

  it("ends the attempt (still processing, a minute) when the container is IN_PROGRESS after 12 looks, publishing nothing", async () => {
    const processing = Array.from({ length: 12 }, () => json(RECORDED.status("c4", "IN_PROGRESS")));
    const { fetch, requests } = replay(
      json(RECORDED.quota(2)),
      json(RECORDED.container("c4")),
      ...processing,
    );
    const { publishing, waits } = publishingWith(fetch);
    const failure = publishing.publish(account, draftOf([{ text: "Long", media: [video(4)] }]));
    await expect(failure).rejects.toMatchObject({
      kind: "transient",
      code: "still_processing",
      retryAfterSeconds: 60,
    });
    expect(waits).toHaveLength(11);
    expect(requests.some((r) => r.url.includes("media_publish"))).toBe(false);
  });

  it("refuses the media for good when its container ends in ERROR", async () => {
    const { fetch } = replay(
      json(RECORDED.quota(2)),
      json(RECORDED.container("c5")),
      json(RECORDED.status("c5", "ERROR", "Error: Media upload has failed with error code 2207026")),
    );
    const failure = adapterFor("instagram", fetch).publish(
      account,
      draftOf([{ text: "", media: [video(5)] }]),
    );
    await expect(failure).rejects.toMatchObject({ kind: "permanent", code: "media_rejected" });
    await expect(failure).rejects.toThrow(/2207026/);
  });

  it("publishes a story without caption, collaborators or location", async () => {
    const photo = image(6);
    const { fetch, requests } = replay(...singleContainer("c6"));
    await adapterFor("instagram", fetch).publish(
      account,
      draftOf([{ text: "ignored", media: [photo] }], { post_type: "story", collaborators: ["alice"] }),
    );
    await expectPost(requests[1]!, `${GRAPH}/${IG_USER_ID}/media`, {
      media_type: "STORIES",
      image_url: photo.url,
    });
  });

  it("publishes a carousel: a child container per media, each one's status checked (photos too), then the carousel", async () => {
    const [first, second, clip] = [image(7), image(8), video(9)];
    const { fetch, requests } = replay(
      json(RECORDED.quota(2)),
      json(RECORDED.container("k1")),
      json(RECORDED.status("k1", "IN_PROGRESS")),
      json(RECORDED.status("k1", "FINISHED")),
      json(RECORDED.container("k2")),
      json(RECORDED.status("k2", "FINISHED")),
      json(RECORDED.container("k3")),
      json(RECORDED.status("k3", "FINISHED")),
      json(RECORDED.container("k0")),
      json(RECORDED.status("k0", "FINISHED")),
      json(RECORDED.published),
      json(RECORDED.permalink),
    );
    const { publishing, waits } = publishingWith(fetch);
    await publishing.publish(
      account,
      draftOf([{ text: "Three views", media: [first, second, clip] }], { location_id: "110843418940484" }),
    );
    const media = `${GRAPH}/${IG_USER_ID}/media`;
    const status = { fields: "status_code,status" };
    await expectPost(requests[1]!, media, { image_url: first.url, is_carousel_item: "true" });
    expectGet(requests[2]!, `${GRAPH}/k1`, status);
    expectGet(requests[3]!, `${GRAPH}/k1`, status);
    await expectPost(requests[4]!, media, { image_url: second.url, is_carousel_item: "true" });
    expectGet(requests[5]!, `${GRAPH}/k2`, status);
    await expectPost(requests[6]!, media, {
      media_type: "VIDEO",
      video_url: clip.url,
      is_carousel_item: "true",
    });
    expectGet(requests[7]!, `${GRAPH}/k3`, status);
    await expectPost(requests[8]!, media, {
      media_type: "CAROUSEL",
      children: "k1,k2,k3",
      caption: "Three views",
      location_id: "110843418940484",
    });
    await expectPost(requests[10]!, `${GRAPH}/${IG_USER_ID}/media_publish`, { creation_id: "k0" });
    expect(waits).toEqual([5000]);
  });

  it("a carousel photo Instagram could not process fails the post before the carousel is made", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.quota(2)),
      json(RECORDED.container("k1")),
      json(RECORDED.status("k1", "ERROR", "Error: Media download has failed. (2207052)")),
    );
    const { publishing } = publishingWith(fetch);
    const failure = publishing.publish(account, draftOf([{ text: "Two", media: [image(1), image(2)] }]));
    await expect(failure).rejects.toMatchObject({ kind: "permanent", code: "media_rejected" });
    await expect(failure).rejects.toThrow(/2207052/);
    expect(requests).toHaveLength(3);
  });

  it("publishes a thread's next items as the account's comments under the media", async () => {
    const { fetch, requests } = replay(
      ...singleContainer(),
      json(RECORDED.comment("17870913679156917")),
      json(RECORDED.comment("17870913679156918")),
    );
    await adapterFor("instagram", fetch).publish(
      account,
      draftOf([
        { text: "Part one", media: [image(1)] },
        { text: "Part two", media: [] },
        { text: "Part three", media: [] },
      ]),
    );
    await expectPost(requests[5]!, `${GRAPH}/${MEDIA_ID}/comments`, { message: "Part two" });
    await expectPost(requests[6]!, `${GRAPH}/${MEDIA_ID}/comments`, { message: "Part three" });
  });

  it("turns a failed comment of a published thread into an unknown outcome", async () => {
    const { fetch } = replay(...singleContainer(), json(RECORDED.errors.userLimit, 400));
    const failure = adapterFor("instagram", fetch).publish(
      account,
      draftOf([
        { text: "One", media: [image(1)] },
        { text: "Two", media: [] },
      ]),
    );
    await expect(failure).rejects.toMatchObject({ kind: "unknown_outcome" });
  });

  it("refuses before any container when the account's 24-hour publishing quota is used", async () => {
    const { fetch, requests } = replay(json(RECORDED.quota(100)));
    const failure = adapterFor("instagram", fetch).publish(
      account,
      draftOf([{ text: "x", media: [image(1)] }]),
    );
    await expect(failure).rejects.toMatchObject({
      kind: "rate_limited",
      code: "publishing_limit",
      retryAfterSeconds: 3600,
    });
    expect(requests).toHaveLength(1);
  });

  it.each([
    ["a text-only post", [{ text: "Just words", media: [] }], {}, /it publishes no text-only posts/],
    [
      "a reel of a photo",
      [{ text: "x", media: [image(1)] }],
      { post_type: "reel" },
      /must hold exactly one video for a reel/,
    ],
    ["a story of two photos", [{ text: "", media: [image(1), image(2)] }], { post_type: "story" }, /story/],
    [
      "a carousel of 11",
      [{ text: "", media: Array.from({ length: 11 }, (_, i) => image(i)) }],
      {},
      /must not have more than 10 items/,
    ],
    [
      "a comment with media",
      [
        { text: "x", media: [image(1)] },
        { text: "y", media: [image(2)] },
      ],
      {},
      /media/,
    ],
    [
      "an empty comment",
      [
        { text: "x", media: [image(1)] },
        { text: " ", media: [] },
      ],
      {},
      /content.1.text field is required on instagram: item 2 becomes a comment/,
    ],
  ])("refuses %s before any call", async (_, items, settings, message) => {
    const { fetch, requests } = replay();
    const failure = adapterFor("instagram", fetch).publish(account, draftOf(items as never, settings));
    await expect(failure).rejects.toMatchObject({ kind: "permanent", code: "unsupported_content" });
    await expect(failure).rejects.toThrow(message);
    expect(requests).toHaveLength(0);
  });
});
