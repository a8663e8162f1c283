// The X adapter's reads against X's documented answers: find by text among the account's latest posts
// (and among its replies to a post), the public metrics as PostMetrics, and the conversation's replies
// as comments across pages.
import { describe, expect, it } from "vitest";
import { adapterFor, json, replay } from "../replay";
import { conversationPage1, conversationPage2, metrics, notFound, ownAnswer, userPosts } from "./recorded";
import { account, expectXCall, failureOf } from "./support";

const TIMELINE =
  "https://api.x.com/2/users/2244994945/tweets?max_results=50&exclude=retweets&tweet.fields=referenced_tweets%2Cnote_tweet";

describe("X find", () => {
  it("finds a post by its text as X renders it (links shortened, & < > escaped, a media link appended)", async () => {
    const { fetch, requests } = replay(json(userPosts));
    const found = await adapterFor("twitter", fetch).find(account, {
      fingerprint: "sp-7-2",
      text: "Launch day & cake <3 — read https://example.com/launch?utm=1",
    });
    expect(found).toEqual({
      id: "1880028106020515888",
      url: "https://x.com/XDevelopers/status/1880028106020515888",
    });
    expectXCall(requests[0]!, "GET", TIMELINE);
  });

  it("looks for the text `settings.text` replaced the first item's with, when it is set", async () => {
    const { fetch } = replay(json(userPosts));
    const found = await adapterFor("twitter", fetch).find(account, {
      fingerprint: "sp-7-2",
      text: "The first item's own text",
      settings: { text: "Launch day & cake <3 — read https://example.com/launch?utm=1" },
    });
    expect(found?.id).toBe("1880028106020515888");
  });

  it("recognises a link without a scheme, which X shortens to t.co like any other", async () => {
    const shown = { data: [{ id: "1880028106020515444", text: "Read https://t.co/Xa1b2C3d4E today" }] };
    const { fetch } = replay(json(shown));
    const found = await adapterFor("twitter", fetch).find(account, {
      fingerprint: "sp-7-3",
      text: "Read example.com/launch today",
    });
    expect(found?.id).toBe("1880028106020515444");
  });

  it("answers null when no recent post has the text", async () => {
    const { fetch } = replay(json(userPosts));
    expect(
      await adapterFor("twitter", fetch).find(account, { fingerprint: "sp-7-2", text: "Launch day" }),
    ).toBeNull();
  });

  it("answers null for an account with no posts", async () => {
    const { fetch } = replay(json({ meta: { result_count: 0 } }));
    expect(await adapterFor("twitter", fetch).find(account, { fingerprint: "f", text: "Hello" })).toBeNull();
  });

  it("finds a reply only among the replies to the post it answered", async () => {
    const lookup = { fingerprint: "sp-plug-7", text: "Thanks @ana! https://example.com" };
    const hit = replay(json(userPosts));
    expect(
      await adapterFor("twitter", hit.fetch).find(account, { ...lookup, replyTo: "1880028106020515777" }),
    ).toMatchObject({ id: "1880028106020515999" });
    const miss = replay(json(userPosts));
    expect(
      await adapterFor("twitter", miss.fetch).find(account, { ...lookup, replyTo: "1346889436626259968" }),
    ).toBeNull();
  });

  it("does not guess for a post of media alone: no text to recognise it by", async () => {
    const { fetch, requests } = replay();
    expect(await adapterFor("twitter", fetch).find(account, { fingerprint: "f", text: "  " })).toBeNull();
    expect(requests).toHaveLength(0);
  });
});

describe("X insights", () => {
  it("maps public_metrics onto PostMetrics", async () => {
    const { fetch, requests } = replay(json(metrics));
    expect(await adapterFor("twitter", fetch).insights(account, "1346889436626259968")).toEqual({
      likes: 234,
      comments: 12,
      shares: 50,
      quotes: 5,
      saves: 9,
      impressions: 6212,
      // (234 + 12 + 50 + 5 + 9) / 6212 × 100
      engagement_rate: 4.99,
    });
    expectXCall(
      requests[0]!,
      "GET",
      "https://api.x.com/2/tweets/1346889436626259968?tweet.fields=public_metrics",
    );
  });

  it("counts a missing bookmark or impression count as 0, and the rate as 0 without impressions", async () => {
    const bare = {
      data: {
        id: "1",
        text: "t",
        public_metrics: { retweet_count: 1, reply_count: 2, like_count: 3, quote_count: 4 },
      },
    };
    const { fetch } = replay(json(bare));
    expect(await adapterFor("twitter", fetch).insights(account, "1")).toEqual({
      likes: 3,
      comments: 2,
      shares: 1,
      quotes: 4,
      saves: 0,
      impressions: 0,
      engagement_rate: 0,
    });
  });

  it("a deleted post (200 with errors only) is a permanent not_found", async () => {
    const { fetch } = replay(json(notFound));
    const error = await failureOf(adapterFor("twitter", fetch).insights(account, "1346889436626259968"));
    expect(error).toMatchObject({ kind: "permanent", code: "not_found" });
    expect(error.message).toContain("Could not find tweet");
  });

  it("refuses an id that is not X's before calling", async () => {
    const { fetch, requests } = replay();
    expect(await failureOf(adapterFor("twitter", fetch).insights(account, "1 OR from:x"))).toMatchObject({
      code: "invalid_post_id",
    });
    expect(requests).toHaveLength(0);
  });
});

describe("X comments", () => {
  it("reads the conversation's replies page by page, leaving out the account's own thread, keeping its answers", async () => {
    const withAnswer = { ...conversationPage2, data: [ownAnswer, ...conversationPage2.data] };
    const { fetch, requests } = replay(json(conversationPage1), json(withAnswer));
    const comments = await adapterFor("twitter", fetch).comments!(account, "1880028106020515840");
    expect(comments).toEqual([
      {
        id: "1880030000000000003",
        content: "Congrats & good luck!",
        author_name: "Ana Lyst",
        created_at: new Date("2025-01-15T10:32:00.000Z"),
        contact: { name: "Ana Lyst", username: "analyst", profile_url: "https://x.com/analyst" },
        parent_id: null,
        url: "https://x.com/analyst/status/1880030000000000003",
        is_own: false,
      },
      expect.objectContaining({
        id: "1880030000000000004",
        content: "Thanks!",
        parent_id: "1880030000000000001",
        is_own: true,
      }),
      {
        id: "1880030000000000001",
        content: "First!",
        author_name: "early_bird",
        created_at: new Date("2025-01-15T10:30:00.000Z"),
        contact: { name: "early_bird", username: "early_bird", profile_url: "https://x.com/early_bird" },
        parent_id: null,
        url: "https://x.com/early_bird/status/1880030000000000001",
        is_own: false,
      },
    ]);
    const search =
      "https://api.x.com/2/tweets/search/recent?query=conversation_id%3A1880028106020515840&max_results=100&expansions=author_id&tweet.fields=author_id%2Ccreated_at%2Creferenced_tweets%2Cin_reply_to_user_id&user.fields=username%2Cname";
    expectXCall(requests[0]!, "GET", search);
    expectXCall(requests[1]!, "GET", `${search}&next_token=b26v89c19zqg8o3fpzbkk`);
  });

  it("answers no comments for a conversation without replies", async () => {
    const { fetch } = replay(json({ meta: { result_count: 0 } }));
    expect(await adapterFor("twitter", fetch).comments!(account, "1880028106020515840")).toEqual([]);
  });

  it("stops at 100 comments", async () => {
    const page = (from: number) => ({
      data: Array.from({ length: 60 }, (_, i) => ({
        id: String(1_000_000 + from + i),
        text: `reply ${from + i}`,
        author_id: "42",
        created_at: "2025-01-15T10:30:00.000Z",
      })),
      includes: { users: [{ id: "42", name: "Fan", username: "fan" }] },
      meta: { next_token: `t${from}` },
    });
    const { fetch, requests } = replay(json(page(0)), json(page(60)));
    const comments = await adapterFor("twitter", fetch).comments!(account, "1880028106020515840");
    expect(comments).toHaveLength(100);
    expect(requests).toHaveLength(2);
  });
});
