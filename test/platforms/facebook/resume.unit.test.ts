// Facebook Page publications resumed from what an earlier attempt recorded (src/platforms/facebook/
// media.ts `FacebookProgress`), against recorded answers: a multi-photo post (or photo story) reuses the
// unpublished photos recorded, uploading only those still missing; a reel or video story whose upload
// session was recorded is not started again, and its file is not handed over again once recorded as
// uploaded. `find` reconciles by what was recorded before any text: the post whose attachments target a
// recorded photo (Graph API › Story Attachment), the reel whose id is the recorded session's. Answers as
// developers.facebook.com › Pages API › Posts (unpublished photos, attached_media), Graph API › Story
// Attachment, Video API › Reels Publishing API and Facebook Stories API show them.
import { describe, expect, it } from "vitest";
import { DEFAULT_TIMEOUTS } from "../../../src/platforms/call";
import { facebookPublishing } from "../../../src/platforms/facebook/index";
import { memoryProgress } from "../../../src/platforms/progress";
import type { Fetch } from "../../../src/platforms/types";
import { CREDENTIALS, json, mediaOf, replay } from "../replay";
import { PAGE_ID, PAGE_TOKEN, PERMALINK, POST_ID, RECORDED } from "./recorded";
import { draftOf, expectGet, expectPost, GRAPH, page } from "./support";

const image = (fill: number) => mediaOf({ mime: "image/jpeg", kind: "image" }, fill).media;
const video = (fill: number) => mediaOf({ mime: "video/mp4", kind: "video", size: 4096 }, fill).media;
const RUPLOAD = "https://rupload.facebook.com/video-upload/v25.0";

/** The Facebook publishing half with a recorded fetch. */
const publishingWith = (fetch: Fetch) =>
  facebookPublishing({
    fetch,
    credentials: CREDENTIALS,
    now: () => Date.now(),
    sleep: async () => {},
    timeouts: DEFAULT_TIMEOUTS,
  });

const uploadsTo = (requests: Request[], host: string) =>
  requests.filter((request) => request.url.startsWith(host));
const photoUploads = (requests: Request[]) =>
  requests.filter((request) => request.url.startsWith(`${GRAPH}/${PAGE_ID}/photos`));

describe("facebook resume", () => {
  it("a multi-photo post whose feed post failed attaches the photos recorded, uploading none again", async () => {
    const progress = memoryProgress();
    const photos = [image(1), image(2)];
    const draft = { ...draftOf([{ text: "Two loaves", media: photos }]), progress };
    const first = replay(
      json(RECORDED.unpublishedPhoto("501")),
      json(RECORDED.unpublishedPhoto("502")),
      json(RECORDED.errors.unknown, 500),
    );
    await expect(publishingWith(first.fetch).publish(page, draft)).rejects.toMatchObject({
      kind: "transient",
    });
    expect(progress.values.facebook).toEqual({ photos: ["501", "502"] });

    const second = replay(json(RECORDED.feedPost), json(RECORDED.permalink(POST_ID)));
    const post = await publishingWith(second.fetch).publish(page, draft);
    expect(post).toEqual({ id: POST_ID, url: PERMALINK });
    expect(second.requests).toHaveLength(2);
    await expectPost(second.requests[0]!, `${GRAPH}/${PAGE_ID}/feed`, {
      message: "Two loaves",
      attached_media: JSON.stringify([{ media_fbid: "501" }, { media_fbid: "502" }]),
    });
    await expectGet(second.requests[1]!, `${GRAPH}/${POST_ID}`, { fields: "permalink_url" });
  });

  it("photos recorded before an interruption are reused; only the missing ones are uploaded", async () => {
    const progress = memoryProgress({ facebook: { photos: ["501"] } });
    const photos = [image(1), image(2), image(3)];
    const { fetch, requests } = replay(
      json(RECORDED.unpublishedPhoto("502")),
      json(RECORDED.unpublishedPhoto("503")),
      json(RECORDED.feedPost),
      json(RECORDED.permalink(POST_ID)),
    );
    await publishingWith(fetch).publish(page, {
      ...draftOf([{ text: "Three loaves", media: photos }]),
      progress,
    });
    expect(photoUploads(requests)).toHaveLength(2);
    await expectPost(requests[0]!, `${GRAPH}/${PAGE_ID}/photos`, { url: photos[1]!.url, published: "false" });
    await expectPost(requests[1]!, `${GRAPH}/${PAGE_ID}/photos`, { url: photos[2]!.url, published: "false" });
    await expectPost(requests[2]!, `${GRAPH}/${PAGE_ID}/feed`, {
      message: "Three loaves",
      attached_media: JSON.stringify([{ media_fbid: "501" }, { media_fbid: "502" }, { media_fbid: "503" }]),
    });
    expect(progress.values.facebook).toEqual({ photos: ["501", "502", "503"] });
  });

  it("a photo story whose photo was recorded publishes that photo as the story, uploading nothing", async () => {
    const progress = memoryProgress({ facebook: { photos: ["601"] } });
    const storyId = RECORDED.storyPublished.post_id;
    const { fetch, requests } = replay(json(RECORDED.storyPublished), json(RECORDED.permalink(storyId)));
    const post = await publishingWith(fetch).publish(page, {
      ...draftOf([{ text: "", media: [image(4)] }], { post_type: "story" }),
      progress,
    });
    expect(post.id).toBe(storyId);
    expect(photoUploads(requests)).toHaveLength(0);
    await expectPost(requests[0]!, `${GRAPH}/${PAGE_ID}/photo_stories`, { photo_id: "601" });
  });

  it("a reel whose finish failed finishes the recorded session: not started again, its file not handed over again", async () => {
    const progress = memoryProgress();
    const clip = video(5);
    const videoId = "3344556677889900";
    const draft = {
      ...draftOf([{ text: "Kneading, in 30 seconds", media: [clip] }], { post_type: "reel" }),
      progress,
    };
    const first = replay(
      json(RECORDED.uploadStart(videoId)),
      json(RECORDED.uploaded),
      json(RECORDED.errors.unknown, 500),
    );
    await expect(publishingWith(first.fetch).publish(page, draft)).rejects.toMatchObject({
      kind: "transient",
    });
    expect(progress.values.facebook).toEqual({
      video: { id: videoId, upload_url: `${RUPLOAD}/${videoId}`, uploaded: true },
    });

    const second = replay(json(RECORDED.finished), json(RECORDED.permalink(videoId, `/reel/${videoId}/`)));
    const post = await publishingWith(second.fetch).publish(page, draft);
    expect(post).toEqual({ id: videoId, url: `https://www.facebook.com/reel/${videoId}/` });
    expect(second.requests).toHaveLength(2);
    expect(uploadsTo(second.requests, "https://rupload.facebook.com")).toHaveLength(0);
    await expectPost(second.requests[0]!, `${GRAPH}/${PAGE_ID}/video_reels`, {
      upload_phase: "finish",
      video_id: videoId,
      video_state: "PUBLISHED",
      description: "Kneading, in 30 seconds",
    });
  });

  it("a reel session recorded before its file was handed over gets the file once, to the same session", async () => {
    const videoId = "3344556677889901";
    const progress = memoryProgress({
      facebook: { video: { id: videoId, upload_url: `${RUPLOAD}/${videoId}` } },
    });
    const clip = video(6);
    const { fetch, requests } = replay(
      json(RECORDED.uploaded),
      json(RECORDED.finished),
      json(RECORDED.permalink(videoId, `/reel/${videoId}/`)),
    );
    await publishingWith(fetch).publish(page, {
      ...draftOf([{ text: "Proofing", media: [clip] }], { post_type: "reel" }),
      progress,
    });
    expect(requests).toHaveLength(3);
    const upload = requests[0]!;
    expect(upload.method).toBe("POST");
    expect(upload.url).toBe(`${RUPLOAD}/${videoId}`);
    expect(upload.headers.get("authorization")).toBe(`OAuth ${PAGE_TOKEN}`);
    expect(upload.headers.get("file_url")).toBe(clip.url);
    await expectPost(requests[1]!, `${GRAPH}/${PAGE_ID}/video_reels`, {
      upload_phase: "finish",
      video_id: videoId,
      video_state: "PUBLISHED",
      description: "Proofing",
    });
    expect(progress.values.facebook).toMatchObject({ video: { id: videoId, uploaded: true } });
  });

  it("a video story whose session was recorded as uploaded is only finished", async () => {
    const videoId = "4455667788990011";
    const progress = memoryProgress({
      facebook: { video: { id: videoId, upload_url: `${RUPLOAD}/${videoId}`, uploaded: true } },
    });
    const storyId = RECORDED.storyPublished.post_id;
    const { fetch, requests } = replay(json(RECORDED.storyPublished), json(RECORDED.permalink(storyId)));
    const post = await publishingWith(fetch).publish(page, {
      ...draftOf([{ text: "", media: [video(7)] }], { post_type: "story" }),
      progress,
    });
    expect(post.id).toBe(storyId);
    expect(requests).toHaveLength(2);
    await expectPost(requests[0]!, `${GRAPH}/${PAGE_ID}/video_stories`, {
      upload_phase: "finish",
      video_id: videoId,
    });
  });
});

describe("facebook find by what was recorded", () => {
  const lookup = (text: string, facebook: Record<string, unknown>, post_type = "post") => ({
    fingerprint: "sp-7-1",
    text,
    settings: { post_type, link: null },
    progress: memoryProgress({ facebook }),
  });

  it("answers the post whose attachments target a recorded photo, with no text to match", async () => {
    const { fetch, requests } = replay(json(RECORDED.postsWithAttachments));
    const found = await publishingWith(fetch).find(page, lookup("", { photos: ["501", "502"] }));
    expect(found).toEqual({ id: POST_ID, url: PERMALINK });
    expect(requests).toHaveLength(1);
    await expectGet(requests[0]!, `${GRAPH}/${PAGE_ID}/posts`, {
      fields: "id,message,permalink_url,attachments{target{id},subattachments{target{id}}}",
      limit: "25",
    });
  });

  it("answers none when no post attaches the recorded photos, without trying the text", async () => {
    const { fetch, requests } = replay(json(RECORDED.postsWithAttachments));
    const none = await publishingWith(fetch).find(
      page,
      lookup("Fresh bread every morning", { photos: ["601"] }),
    );
    expect(none).toBeNull();
    expect(requests).toHaveLength(1);
  });

  it("answers the reel whose id is the recorded session's, not an older reel of the same text", async () => {
    const videoId = "3344556677889911";
    const { fetch, requests } = replay(json(RECORDED.reelsOfSameText));
    const found = await publishingWith(fetch).find(
      page,
      lookup("Kneading, in 30 seconds", { video: { id: videoId, uploaded: true } }, "reel"),
    );
    expect(found).toEqual({ id: videoId, url: `https://www.facebook.com/reel/${videoId}/` });
    expect(requests).toHaveLength(1);
    await expectGet(requests[0]!, `${GRAPH}/${PAGE_ID}/video_reels`, {
      fields: "id,description,permalink_url",
      limit: "25",
    });
  });

  it("answers none while the recorded reel is not listed (not finished), though a reel has its text", async () => {
    const { fetch, requests } = replay(json(RECORDED.reels));
    const none = await publishingWith(fetch).find(
      page,
      lookup("Kneading, in 30 seconds", { video: { id: "3344556677889922", uploaded: true } }, "reel"),
    );
    expect(none).toBeNull();
    expect(requests).toHaveLength(1);
  });

  it("with nothing recorded, an empty text finds nothing and asks nothing (it would match any post without text)", async () => {
    const { fetch, requests } = replay();
    expect(await publishingWith(fetch).find(page, { fingerprint: "sp-7-1", text: "  " })).toBeNull();
    expect(requests).toHaveLength(0);
  });
});
