// Reading Instagram back: find (by caption among the latest media; a reply among a media's comments),
// insights of feed media and stories, comments with pagination, the auto-plug reply, no revoke, no
// channels.
import { describe, expect, it } from "vitest";
import { instagram } from "../../../src/platforms/instagram/index";
import { adapterFor, json, replay } from "../replay";
import { HANDLE, IG_USER_ID, MEDIA_ID, PERMALINK, RECORDED } from "./recorded";
import { account, expectGet, expectPost, GRAPH } from "./support";

describe("instagram find", () => {
  it("finds an earlier attempt by its exact caption among the 25 latest media", async () => {
    const { fetch, requests } = replay(json(RECORDED.media));
    const found = await adapterFor("instagram", fetch).find(account, {
      fingerprint: "sp-9-1",
      text: "Golden hour on the pier",
    });
    expect(found).toEqual({ id: MEDIA_ID, url: PERMALINK });
    expectGet(requests[0]!, `${GRAPH}/${IG_USER_ID}/media`, { fields: "id,caption,permalink", limit: "25" });
  });

  it("answers none when no recent media has the caption", async () => {
    const { fetch } = replay(json(RECORDED.media));
    expect(
      await adapterFor("instagram", fetch).find(account, { fingerprint: "f", text: "Never sent" }),
    ).toBeNull();
  });

  it("finds a reply by its text and the account's username among the media's comments", async () => {
    const comments = {
      data: [
        { id: "1", text: "Thanks for 100 likes!", username: "someone_else" },
        { id: "2", text: "Thanks for 100 likes!", username: HANDLE },
      ],
    };
    const { fetch, requests } = replay(json(comments), json(RECORDED.permalink));
    const found = await adapterFor("instagram", fetch).find(account, {
      fingerprint: "sp-plug-9",
      text: "Thanks for 100 likes!",
      replyTo: MEDIA_ID,
    });
    expect(found).toEqual({ id: "2", url: PERMALINK });
    expectGet(requests[0]!, `${GRAPH}/${MEDIA_ID}/comments`, { fields: "id,text,username", limit: "50" });
  });
});

describe("instagram insights", () => {
  it("maps a feed media's views, likes, comments, shares and saves", async () => {
    const { fetch, requests } = replay(json(RECORDED.counts("FEED")), json(RECORDED.insights));
    const metrics = await adapterFor("instagram", fetch).insights(account, MEDIA_ID);
    expect(metrics).toEqual({
      impressions: 500,
      likes: 14,
      comments: 4,
      shares: 2,
      saves: 5,
      quotes: 0,
      engagement_rate: 5,
    });
    expectGet(requests[0]!, `${GRAPH}/${MEDIA_ID}`, {
      fields: "like_count,comments_count,media_product_type",
    });
    expectGet(requests[1]!, `${GRAPH}/${MEDIA_ID}/insights`, {
      metric: "views,reach,likes,comments,shares,saved",
    });
  });

  it("asks a story only for the metrics stories have, falling back to reach for views", async () => {
    const { fetch, requests } = replay(json(RECORDED.counts("STORY")), json(RECORDED.storyInsights));
    const metrics = await adapterFor("instagram", fetch).insights(account, MEDIA_ID);
    expect(new URL(requests[1]!.url).searchParams.get("metric")).toBe("views,reach,shares");
    expect(metrics).toMatchObject({ impressions: 80, shares: 1, likes: 12, comments: 3 });
  });

  // Instagram Media Insights › Limitations: unavailable insights are an empty data set, not 0s; story
  // metrics last 24 hours; "(#10) Not enough viewers for the media to show insights".
  it("answers null (keep what is stored) when Instagram has no insights for the media now", async () => {
    const { fetch } = replay(json(RECORDED.counts("REELS")), json(RECORDED.errors.notEnoughViewers, 400));
    expect(await adapterFor("instagram", fetch).insights(account, MEDIA_ID)).toBeNull();
  });

  it("answers null for an empty data set (a story past its 24 hours), never 0s", async () => {
    const { fetch } = replay(json(RECORDED.counts("STORY")), json({ data: [] }));
    expect(await adapterFor("instagram", fetch).insights(account, MEDIA_ID)).toBeNull();
  });

  it("declares a story's insights lifetime of 24 hours, and none for other posts", () => {
    expect(instagram.insightsLifetime?.({ post_type: "story" })).toBe(86_400);
    expect(instagram.insightsLifetime?.({ post_type: "post" })).toBeUndefined();
    expect(instagram.insightsLifetime?.({})).toBeUndefined();
  });
});

describe("instagram comments, reply, revoke, channels", () => {
  it("reads comments and their replies page by page, with their authors' profiles, parent and hidden", async () => {
    const { fetch, requests } = replay(json(RECORDED.comments[0]), json(RECORDED.comments[1]));
    const comments = await adapterFor("instagram", fetch).comments!(account, MEDIA_ID);
    expect(comments).toEqual([
      {
        id: "17870913679156914",
        content: "Stunning light!",
        author_name: "grace",
        created_at: new Date("2026-03-02T10:15:00Z"),
        contact: { name: "grace", username: "grace", profile_url: "https://www.instagram.com/grace/" },
        parent_id: null,
        url: null,
        is_own: false,
        hidden: false,
      },
      expect.objectContaining({
        id: "17870913679156917",
        content: "Thank you!",
        parent_id: "17870913679156914",
        is_own: true,
      }),
      {
        id: "17870913679156915",
        content: "Where is this?",
        author_name: "Instagram user",
        created_at: new Date("2026-03-02T10:00:00Z"),
        contact: null,
        parent_id: null,
        url: null,
        is_own: false,
        hidden: true,
      },
      expect.objectContaining({ id: "17870913679156916", author_name: HANDLE, is_own: true }),
    ]);
    const fields = "id,text,username,timestamp,from,hidden,parent_id";
    const query = { fields: `${fields},replies{${fields}}`, limit: "50" };
    expectGet(requests[0]!, `${GRAPH}/${MEDIA_ID}/comments`, query);
    expectGet(requests[1]!, `${GRAPH}/${MEDIA_ID}/comments`, { ...query, after: "QVFIUn" });
  });

  it("replies with a comment under the media", async () => {
    const { fetch, requests } = replay(json(RECORDED.comment("17870913679156920")), json(RECORDED.permalink));
    const reply = await adapterFor("instagram", fetch).reply!(account, MEDIA_ID, "Link in bio!", "sp-plug-9");
    expect(reply).toEqual({ id: "17870913679156920", url: PERMALINK });
    await expectPost(requests[0]!, `${GRAPH}/${MEDIA_ID}/comments`, { message: "Link in bio!" });
  });

  it("has no revocation endpoint and no channels: the login is the professional account", async () => {
    const { fetch, requests } = replay();
    const adapter = adapterFor("instagram", fetch);
    expect(await adapter.revoke(account)).toBe(false);
    expect(
      await adapter.channels({ accessToken: "t" }, { platform_id: IG_USER_ID, handle: HANDLE }),
    ).toBeNull();
    expect(requests).toHaveLength(0);
  });
});
