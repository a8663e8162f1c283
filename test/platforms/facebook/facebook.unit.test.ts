// Publishing on a Facebook Page, request by request: a text or link post, one photo, several photos, a
// video, a reel, photo and video stories, a thread (comments by the Page), and the drafts refused
// before any call.
import { describe, expect, it, vi } from "vitest";
import { createAdapter } from "../../../src/platforms/adapter";
import { SPECS } from "../../../src/platforms/catalog";
import { PlatformError } from "../../../src/platforms/types";
import { adapterFor, CREDENTIALS, json, mediaOf, replay } from "../replay";
import { PAGE_ID, PAGE_TOKEN, PERMALINK, POST_ID, RECORDED } from "./recorded";
import { draftOf, expectGet, expectPost, GRAPH, page, textItem } from "./support";

const image = (fill: number) => mediaOf({ mime: "image/jpeg", kind: "image" }, fill).media;
const video = (fill: number) => mediaOf({ mime: "video/mp4", kind: "video", size: 4096 }, fill).media;

describe("facebook publish", () => {
  it("publishes a text post with the link setting on the Page's feed, then reads its permalink", async () => {
    const { fetch, requests } = replay(json(RECORDED.feedPost), json(RECORDED.permalink(POST_ID)));
    const post = await adapterFor("facebook", fetch).publish(
      page,
      draftOf([textItem("Our spring menu is out")], { link: "https://adas.example/menu" }),
    );
    expect(post).toEqual({ id: POST_ID, url: PERMALINK });
    expect(requests).toHaveLength(2);
    await expectPost(requests[0]!, `${GRAPH}/${PAGE_ID}/feed`, {
      message: "Our spring menu is out",
      link: "https://adas.example/menu",
    });
    await expectGet(requests[1]!, `${GRAPH}/${POST_ID}`, { fields: "permalink_url" });
  });

  it("falls back to the post's facebook.com address when its permalink cannot be read", async () => {
    const { fetch } = replay(json(RECORDED.feedPost), json(RECORDED.errors.unknown, 500));
    const post = await adapterFor("facebook", fetch).publish(page, draftOf([textItem("Hello")]));
    expect(post).toEqual({ id: POST_ID, url: `https://www.facebook.com/${POST_ID}` });
  });

  it("publishes one photo by its URL, the text as its caption, linked as the photo Facebook shows", async () => {
    const photo = image(1);
    const link = `https://www.facebook.com/photo/?fbid=${RECORDED.photo.id}`;
    const { fetch, requests } = replay(json(RECORDED.photo), json({ id: RECORDED.photo.id, link }));
    const post = await adapterFor("facebook", fetch).publish(
      page,
      draftOf([{ text: "Fresh rye", media: [photo] }]),
    );
    // The post's id (its insights and comments), the photo's address (Graph API › Photo › link).
    expect(post).toEqual({ id: RECORDED.photo.post_id, url: link });
    await expectPost(requests[0]!, `${GRAPH}/${PAGE_ID}/photos`, { url: photo.url, message: "Fresh rye" });
    await expectGet(requests[1]!, `${GRAPH}/${RECORDED.photo.id}`, { fields: "link" });
  });

  it("links a single captionless photo as the photo too, the viewer's address when its link is unreadable", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.unpublishedPhoto("777")),
      json(RECORDED.feedPost),
      json(RECORDED.errors.unknown, 500),
    );
    const post = await adapterFor("facebook", fetch).publish(
      page,
      draftOf([{ text: "", media: [image(1)] }]),
    );
    expect(post).toEqual({ id: POST_ID, url: "https://www.facebook.com/photo/?fbid=777" });
    await expectGet(requests[2]!, `${GRAPH}/777`, { fields: "link" });
  });

  it("gives the calls during which Facebook fetches a file the upload timeout, the others the call timeout", async () => {
    const timeouts = vi.spyOn(AbortSignal, "timeout");
    try {
      const context = { credentials: CREDENTIALS, timeouts: { call: 1_111, upload: 99_999 } };
      const feedVideo = replay(json(RECORDED.video), json(RECORDED.permalink(RECORDED.video.id)));
      await createAdapter(SPECS.facebook, { ...context, fetch: feedVideo.fetch }).publish(
        page,
        draftOf([{ text: "Baking", media: [video(3)] }]),
      );
      // POST /{page}/videos with file_url, then the permalink read.
      expect(timeouts.mock.calls.map(([ms]) => ms)).toEqual([99_999, 1_111]);

      timeouts.mockClear();
      const videoId = "3344556677889900";
      const reel = replay(
        json(RECORDED.uploadStart(videoId)),
        json(RECORDED.uploaded),
        json(RECORDED.finished),
        json(RECORDED.permalink(videoId)),
      );
      await createAdapter(SPECS.facebook, { ...context, fetch: reel.fetch }).publish(
        page,
        draftOf([{ text: "Kneading", media: [video(4)] }], { post_type: "reel" }),
      );
      // The session's start, the hosted-file upload, the finish, the permalink read.
      expect(timeouts.mock.calls.map(([ms]) => ms)).toEqual([1_111, 99_999, 1_111, 1_111]);
    } finally {
      timeouts.mockRestore();
    }
  });

  it("publishes several photos: each uploaded unpublished, then one post attaching them", async () => {
    const [first, second] = [image(1), image(2)];
    const { fetch, requests } = replay(
      json(RECORDED.unpublishedPhoto("501")),
      json(RECORDED.unpublishedPhoto("502")),
      json(RECORDED.feedPost),
      json(RECORDED.permalink(POST_ID)),
    );
    const post = await adapterFor("facebook", fetch).publish(
      page,
      draftOf([{ text: "Two loaves", media: [first, second] }]),
    );
    expect(post).toEqual({ id: POST_ID, url: PERMALINK });
    await expectPost(requests[0]!, `${GRAPH}/${PAGE_ID}/photos`, { url: first.url, published: "false" });
    await expectPost(requests[1]!, `${GRAPH}/${PAGE_ID}/photos`, { url: second.url, published: "false" });
    await expectPost(requests[2]!, `${GRAPH}/${PAGE_ID}/feed`, {
      message: "Two loaves",
      attached_media: JSON.stringify([{ media_fbid: "501" }, { media_fbid: "502" }]),
    });
  });

  it("publishes a video from its file_url on the Graph host (graph-video is deprecated), with an absolute permalink", async () => {
    const clip = video(3);
    const { fetch, requests } = replay(
      json(RECORDED.video),
      json(RECORDED.permalink(RECORDED.video.id, `/adasbakery/videos/${RECORDED.video.id}/`)),
    );
    const post = await adapterFor("facebook", fetch).publish(
      page,
      draftOf([{ text: "Baking", media: [clip] }]),
    );
    expect(post).toEqual({
      id: RECORDED.video.id,
      url: `https://www.facebook.com/adasbakery/videos/${RECORDED.video.id}/`,
    });
    await expectPost(requests[0]!, `${GRAPH}/${PAGE_ID}/videos`, {
      file_url: clip.url,
      description: "Baking",
    });
  });

  it("publishes a reel: an upload session, a hosted-file upload Facebook pulls, then the publish", async () => {
    const clip = video(4);
    const videoId = "3344556677889900";
    const { fetch, requests } = replay(
      json(RECORDED.uploadStart(videoId)),
      json(RECORDED.uploaded),
      json(RECORDED.finished),
    );
    const post = await adapterFor("facebook", fetch).publish(
      page,
      draftOf([{ text: "Kneading, in 30 seconds", media: [clip] }], { post_type: "reel" }),
    );
    expect(post).toEqual({ id: videoId, url: `https://www.facebook.com/reel/${videoId}` });
    await expectPost(requests[0]!, `${GRAPH}/${PAGE_ID}/video_reels`, { upload_phase: "start" });
    const upload = requests[1]!;
    expect(upload.method).toBe("POST");
    expect(upload.url).toBe(`https://rupload.facebook.com/video-upload/v25.0/${videoId}`);
    // The documented hosted-file upload: the Page token as `OAuth`, the file's URL in a header, no bytes.
    expect(upload.headers.get("authorization")).toBe(`OAuth ${PAGE_TOKEN}`);
    expect(upload.headers.get("file_url")).toBe(clip.url);
    expect(await upload.text()).toBe("");
    await expectPost(requests[2]!, `${GRAPH}/${PAGE_ID}/video_reels`, {
      upload_phase: "finish",
      video_id: videoId,
      video_state: "PUBLISHED",
      description: "Kneading, in 30 seconds",
    });
  });

  it("refuses a reel Facebook did not publish", async () => {
    const { fetch } = replay(
      json(RECORDED.uploadStart("33")),
      json(RECORDED.uploaded),
      json({ success: false }),
    );
    const failure = adapterFor("facebook", fetch).publish(
      page,
      draftOf([{ text: "", media: [video(4)] }], { post_type: "reel" }),
    );
    await expect(failure).rejects.toMatchObject({ kind: "permanent", code: "not_published" });
  });

  it("publishes a photo story: the photo uploaded unpublished, then published as a story", async () => {
    const photo = image(5);
    const storyId = RECORDED.storyPublished.post_id;
    const { fetch, requests } = replay(
      json(RECORDED.unpublishedPhoto("601")),
      json(RECORDED.storyPublished),
      json(RECORDED.permalink(storyId, `https://www.facebook.com/stories/${PAGE_ID}/`)),
    );
    const post = await adapterFor("facebook", fetch).publish(
      page,
      draftOf([{ text: "", media: [photo] }], { post_type: "story" }),
    );
    expect(post).toEqual({ id: storyId, url: `https://www.facebook.com/stories/${PAGE_ID}/` });
    await expectPost(requests[0]!, `${GRAPH}/${PAGE_ID}/photos`, { url: photo.url, published: "false" });
    await expectPost(requests[1]!, `${GRAPH}/${PAGE_ID}/photo_stories`, { photo_id: "601" });
  });

  it("publishes a video story through an upload session", async () => {
    const clip = video(6);
    const { fetch, requests } = replay(
      json(RECORDED.uploadStart("777")),
      json(RECORDED.uploaded),
      json(RECORDED.storyPublished),
      json(RECORDED.permalink(RECORDED.storyPublished.post_id)),
    );
    const post = await adapterFor("facebook", fetch).publish(
      page,
      draftOf([{ text: "", media: [clip] }], { post_type: "story" }),
    );
    expect(post.id).toBe(RECORDED.storyPublished.post_id);
    await expectPost(requests[0]!, `${GRAPH}/${PAGE_ID}/video_stories`, { upload_phase: "start" });
    expect(requests[1]!.headers.get("file_url")).toBe(clip.url);
    await expectPost(requests[2]!, `${GRAPH}/${PAGE_ID}/video_stories`, {
      upload_phase: "finish",
      video_id: "777",
    });
  });

  it("publishes a thread as the post and the Page's comments under it, in order", async () => {
    const photo = image(7);
    const { fetch, requests } = replay(
      json(RECORDED.feedPost),
      json(RECORDED.permalink(POST_ID)),
      json(RECORDED.comment("987654321098765_1")),
      json(RECORDED.comment("987654321098765_2")),
    );
    const post = await adapterFor("facebook", fetch).publish(
      page,
      draftOf([textItem("Part one"), textItem("Part two"), { text: "Part three", media: [photo] }]),
    );
    expect(post).toEqual({ id: POST_ID, url: PERMALINK });
    await expectPost(requests[2]!, `${GRAPH}/${POST_ID}/comments`, { message: "Part two" });
    await expectPost(requests[3]!, `${GRAPH}/${POST_ID}/comments`, {
      message: "Part three",
      attachment_url: photo.url,
    });
  });

  it("turns a failed comment of a published thread into an unknown outcome, reconciled by find", async () => {
    const { fetch } = replay(
      json(RECORDED.feedPost),
      json(RECORDED.permalink(POST_ID)),
      json(RECORDED.errors.expired, 400),
    );
    const failure = adapterFor("facebook", fetch).publish(page, draftOf([textItem("One"), textItem("Two")]));
    await expect(failure).rejects.toMatchObject({ kind: "unknown_outcome", code: "token_expired" });
    await expect(failure).rejects.toThrow(/the post itself was published/);
  });

  it.each([
    [
      "a reel of a photo",
      [{ text: "x", media: [image(1)] }],
      { post_type: "reel" },
      /must hold exactly one video for a reel/,
    ],
    ["a story of two photos", [{ text: "", media: [image(1), image(2)] }], { post_type: "story" }, /story/],
    [
      "a story with a thread",
      [{ text: "", media: [image(1)] }, textItem("more")],
      { post_type: "story" },
      /must not have more than 1 item for a story/,
    ],
    ["a link with media", [{ text: "x", media: [image(1)] }], { link: "https://a.example" }, /link/],
    [
      "photos and a video",
      [{ text: "x", media: [image(1), video(2)] }],
      {},
      /must not mix a video with other media/,
    ],
    [
      "a comment with a video",
      [textItem("x"), { text: "y", media: [video(2)] }],
      {},
      /must not include a video on facebook: item 2 becomes a comment/,
    ],
    ["an empty post", [textItem("  ")], {}, /needs text, a link or media/],
  ])("refuses %s before any call", async (_, items, settings, message) => {
    const { fetch, requests } = replay();
    const failure = adapterFor("facebook", fetch).publish(page, draftOf(items as never, settings));
    await expect(failure).rejects.toBeInstanceOf(PlatformError);
    await expect(failure).rejects.toMatchObject({ kind: "permanent", code: "unsupported_content" });
    await expect(failure).rejects.toThrow(message);
    expect(requests).toHaveLength(0);
  });

  it("needs the account's Page token and Page id", async () => {
    const adapter = adapterFor("facebook", replay().fetch);
    await expect(
      adapter.publish({ ...page, accessToken: null }, draftOf([textItem("x")])),
    ).rejects.toMatchObject({ kind: "auth", code: "token_missing" });
    await expect(
      adapter.publish({ ...page, platformUserId: null }, draftOf([textItem("x")])),
    ).rejects.toMatchObject({ kind: "permanent", code: "page_missing" });
  });
});
