// Reading a Page back: find (by text among the latest posts, then reels; a reply among a post's
// comments), insights (post and video), comments with their pagination, the auto-plug reply, revoke.
import { describe, expect, it } from "vitest";
import { facebook } from "../../../src/platforms/facebook/index";
import { adapterFor, json, replay } from "../replay";
import { PAGE_ID, PERMALINK, POST_ID, RECORDED } from "./recorded";
import { expectGet, expectPost, GRAPH, page } from "./support";

describe("facebook find", () => {
  it("finds an earlier attempt by its exact text among the Page's 25 latest posts", async () => {
    const { fetch, requests } = replay(json(RECORDED.posts));
    const found = await adapterFor("facebook", fetch).find(page, {
      fingerprint: "sp-7-1",
      text: "Our spring menu is out ",
    });
    expect(found).toEqual({ id: POST_ID, url: PERMALINK });
    await expectGet(requests[0]!, `${GRAPH}/${PAGE_ID}/posts`, {
      fields: "id,message,permalink_url",
      limit: "25",
    });
  });

  it("looks through the Page's reels, which /posts does not list, before answering none", async () => {
    const hit = replay(json(RECORDED.posts), json(RECORDED.reels));
    const reel = await adapterFor("facebook", hit.fetch).find(page, {
      fingerprint: "sp-7-1",
      text: "Kneading, in 30 seconds",
    });
    expect(reel).toEqual({ id: "3344556677889900", url: "https://www.facebook.com/reel/3344556677889900/" });
    await expectGet(hit.requests[1]!, `${GRAPH}/${PAGE_ID}/video_reels`, {
      fields: "id,description,permalink_url",
      limit: "25",
    });

    const miss = replay(json(RECORDED.posts), json(RECORDED.noReels));
    const none = await adapterFor("facebook", miss.fetch).find(page, {
      fingerprint: "sp-7-1",
      text: "Never sent",
    });
    expect(none).toBeNull();
    expect(miss.requests).toHaveLength(2);
  });

  it("finds a reply among the post's latest comments, only the Page's own", async () => {
    const comments = {
      data: [
        { id: "9_1", message: "Thanks for 100 likes!", from: { id: "6677889900" } },
        {
          id: "9_2",
          message: "Thanks for 100 likes!",
          from: { id: PAGE_ID },
          permalink_url: "https://www.facebook.com/x/posts/9?comment_id=2",
        },
      ],
    };
    const { fetch, requests } = replay(json(comments));
    const found = await adapterFor("facebook", fetch).find(page, {
      fingerprint: "sp-plug-7",
      text: "Thanks for 100 likes!",
      replyTo: POST_ID,
    });
    expect(found).toEqual({ id: "9_2", url: "https://www.facebook.com/x/posts/9?comment_id=2" });
    await expectGet(requests[0]!, `${GRAPH}/${POST_ID}/comments`, {
      fields: "id,message,permalink_url,from{id}",
      order: "reverse_chronological",
      limit: "25",
    });
  });
});

describe("facebook insights", () => {
  it("maps a post's reactions, comments, shares and media views onto the metrics", async () => {
    const { fetch, requests } = replay(json(RECORDED.engagement), json(RECORDED.insights));
    const metrics = await adapterFor("facebook", fetch).insights(page, POST_ID);
    expect(metrics).toEqual({
      likes: 42,
      comments: 7,
      shares: 3,
      impressions: 1200,
      quotes: 0,
      saves: 0,
      engagement_rate: 4.33,
    });
    await expectGet(requests[0]!, `${GRAPH}/${POST_ID}`, {
      fields: "reactions.summary(true).limit(0),comments.summary(true).limit(0),shares",
    });
    await expectGet(requests[1]!, `${GRAPH}/${POST_ID}/insights`, {
      metric: "post_media_view",
      period: "lifetime",
    });
  });

  it("reads a feed video's counts and its total video views: every metric the video has, in one read", async () => {
    const videoId = RECORDED.video.id;
    const counts = { ...RECORDED.engagement, shares: undefined, id: videoId };
    const { fetch, requests } = replay(json(counts), json(RECORDED.videoInsights));
    const metrics = await adapterFor("facebook", fetch).insights(page, videoId);
    expect(metrics).toMatchObject({ likes: 42, comments: 7, shares: 0, impressions: 89 });
    await expectGet(requests[0]!, `${GRAPH}/${videoId}`, {
      fields: "reactions.summary(true).limit(0),comments.summary(true).limit(0)",
    });
    await expectGet(requests[1]!, `${GRAPH}/${videoId}/video_insights`, { period: "lifetime" });
  });

  it("reads a reel's plays from blue_reels_play_count, as the Reels insights name them", async () => {
    const reelId = "3344556677889900";
    const counts = { ...RECORDED.engagement, shares: undefined, id: reelId };
    const plays = {
      data: [
        { name: "post_impressions_unique", period: "lifetime", values: [{ value: 310 }] },
        { name: "blue_reels_play_count", period: "lifetime", values: [{ value: 512 }] },
      ],
    };
    const { fetch } = replay(json(counts), json(plays));
    const metrics = await adapterFor("facebook", fetch).insights(page, reelId);
    expect(metrics).toMatchObject({ likes: 42, comments: 7, impressions: 512 });
  });

  it("answers null, never 0s, when Facebook refuses the insight (a small Page, a retired metric)", async () => {
    const { fetch } = replay(json(RECORDED.engagement), json(RECORDED.errors.invalid, 400));
    expect(await adapterFor("facebook", fetch).insights(page, POST_ID)).toBeNull();
  });

  it("answers null when the insights answer is empty, or the object is gone (a story past its 24 h)", async () => {
    const empty = replay(json(RECORDED.engagement), json({ data: [] }));
    expect(await adapterFor("facebook", empty.fetch).insights(page, POST_ID)).toBeNull();
    const gone = {
      error: {
        message: "Unsupported get request. Object with ID '1_2' does not exist",
        type: "GraphMethodException",
        code: 100,
        error_subcode: 33,
      },
    };
    const story = replay(json(gone, 400));
    expect(await adapterFor("facebook", story.fetch).insights(page, POST_ID)).toBeNull();
    expect(story.requests).toHaveLength(1);
  });

  it("declares a story's insights lifetime as 24 h, and none for other posts", () => {
    expect(facebook.insightsLifetime?.({ post_type: "story", link: null })).toBe(86_400);
    expect(facebook.insightsLifetime?.({ post_type: "post", link: null })).toBeUndefined();
    expect(facebook.insightsLifetime?.({ post_type: "reel", link: null })).toBeUndefined();
  });

  it("still fails when the insight call is throttled", async () => {
    const { fetch } = replay(json(RECORDED.engagement), json(RECORDED.errors.throttled, 400));
    await expect(adapterFor("facebook", fetch).insights(page, POST_ID)).rejects.toMatchObject({
      kind: "rate_limited",
    });
  });
});

describe("facebook comments", () => {
  it("reads the newest comments page by page, mapping their authors", async () => {
    const { fetch, requests } = replay(json(RECORDED.comments[0]), json(RECORDED.comments[1]));
    const comments = await adapterFor("facebook", fetch).comments!(page, POST_ID);
    expect(comments).toEqual([
      {
        id: "987654321098765_1001",
        content: "Can I order the rye loaf?",
        author_name: "Grace Hopper",
        created_at: new Date("2026-03-02T10:15:00Z"),
        contact: { name: "Grace Hopper", username: "6677889900", profile_url: null },
        parent_id: null,
        url: "https://www.facebook.com/100090000000001/posts/987654321098765?comment_id=1001",
        is_own: false,
        hidden: false,
      },
      {
        id: "987654321098765_1000",
        content: "Lovely!",
        author_name: "Facebook user",
        created_at: new Date("2026-03-02T10:00:00Z"),
        contact: null,
        parent_id: "987654321098765_998",
        url: null,
        is_own: false,
        hidden: true,
      },
      expect.objectContaining({ id: "987654321098765_999", author_name: "Ada's Bakery", is_own: true }),
    ]);
    const query = {
      fields: "id,message,created_time,from{id,name},parent{id},permalink_url,is_hidden",
      order: "reverse_chronological",
      filter: "stream",
      limit: "50",
    };
    await expectGet(requests[0]!, `${GRAPH}/${POST_ID}/comments`, query);
    await expectGet(requests[1]!, `${GRAPH}/${POST_ID}/comments`, { ...query, after: "MjA" });
  });

  it("stops at 100 comments", async () => {
    const full = (from: number) => ({
      data: Array.from({ length: 50 }, (_, i) => ({ id: `c${from + i}`, message: "hi" })),
      paging: { cursors: { after: `p${from}` }, next: "https://graph.facebook.com/…" },
    });
    const { fetch, requests } = replay(json(full(0)), json(full(50)), json(full(100)));
    const comments = await adapterFor("facebook", fetch).comments!(page, POST_ID);
    expect(comments).toHaveLength(100);
    expect(requests).toHaveLength(2);
  });
});

describe("facebook reply and revoke", () => {
  it("replies as the Page with a comment under the post", async () => {
    const commentId = "987654321098765_2002";
    const url = `https://www.facebook.com/${PAGE_ID}/posts/987654321098765?comment_id=2002`;
    const { fetch, requests } = replay(
      json(RECORDED.comment(commentId)),
      json(RECORDED.permalink(commentId, url)),
    );
    const reply = await adapterFor("facebook", fetch).reply!(
      page,
      POST_ID,
      "Thanks for 100 likes!",
      "sp-plug-7",
    );
    expect(reply).toEqual({ id: commentId, url });
    await expectPost(requests[0]!, `${GRAPH}/${POST_ID}/comments`, { message: "Thanks for 100 likes!" });
    await expectGet(requests[1]!, `${GRAPH}/${commentId}`, { fields: "permalink_url" });
  });

  it("has no revocation a Page token can make: a disconnect calls nothing", async () => {
    const { fetch, requests } = replay();
    expect(await adapterFor("facebook", fetch).revoke(page)).toBe(false);
    expect(requests).toHaveLength(0);
  });
});
