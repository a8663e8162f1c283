// X end to end through the worker, against X's recorded answers: connect an account (consent with the
// publishing scopes, token exchange, identity), publish a two-item thread with an image and a setting
// through the publish queue, then sync its metrics and comments (and the auto-plug reply) through the
// sync queue, asserting what X was sent at each step.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import {
  accountOf,
  CLIENT,
  json,
  platformServer,
  publishPost,
  type Scenario,
  syncPost,
  uploadMedia,
} from "../live/harness";
import {
  appendedAnswer,
  conversationPage1,
  conversationPage2,
  created,
  finalizedImage,
  initialized,
  me,
  metrics,
  TOKEN,
  tokenAnswer,
} from "./recorded";

const ROOT = "1880028106020515840";
const posted = [ROOT, "1880028106020515841", "1880028106020515842"];
const jpeg = new Uint8Array(2048).map((_, i) => (i < 4 ? [0xff, 0xd8, 0xff, 0xe0][i]! : (i * 7) % 256));

// Fresh answers per request: a Response made in the test's context cannot be read in the worker's.
const server = () => {
  let next = 0;
  return platformServer([
    { method: "POST", url: "https://api.x.com/2/oauth2/token", reply: () => json(tokenAnswer) },
    { method: "GET", url: "https://api.x.com/2/users/me", reply: () => json(me) },
    {
      method: "POST",
      url: "https://api.x.com/2/media/upload/initialize",
      reply: () => json(initialized("710511363345354753")),
    },
    {
      method: "POST",
      url: /\/media\/upload\/710511363345354753\/append$/,
      reply: () => json(appendedAnswer),
    },
    {
      method: "POST",
      url: "https://api.x.com/2/media/upload/710511363345354753/finalize",
      reply: () => json(finalizedImage("710511363345354753")),
    },
    { method: "POST", url: "https://api.x.com/2/tweets", reply: () => json(created(posted[next++]!), 201) },
    {
      method: "GET",
      url: /\/2\/tweets\/search\/recent\?.*next_token=/,
      reply: () => json(conversationPage2),
    },
    { method: "GET", url: "https://api.x.com/2/tweets/search/recent?", reply: () => json(conversationPage1) },
    { method: "GET", url: `https://api.x.com/2/tweets/${ROOT}?`, reply: () => json(metrics) },
  ]);
};

export const scenario: Scenario = {
  it: "connects, publishes a thread with an image, then syncs metrics, comments and the auto-plug",
  server,
  connect: {
    scopes: ["tweet.write", "media.write", "offline.access"],
  },
  run: async (connected, x) => {
    expect(await accountOf(connected)).toMatchObject({
      platform: "twitter",
      username: "XDevelopers",
      avatar: me.data.profile_image_url,
    });
    const [exchange] = x.requests("https://api.x.com/2/oauth2/token");
    expect(exchange!.headers.get("authorization")).toBe(`Basic ${btoa(`${CLIENT.id}:${CLIENT.secret}`)}`);
    const [identity] = x.requests("https://api.x.com/2/users/me");
    expect(identity!.url).toBe("https://api.x.com/2/users/me?user.fields=profile_image_url%2Cverified");
    const photo = await uploadMedia(connected, "cat.jpg", "image/jpeg", jpeg);

    const shown = await publishPost(connected, {
      content: [{ text: "Big news!", media: [photo] }, { text: "Thread, part two" }],
      settings: { twitter: { reply_settings: "following" } },
      auto_plug: { text: "Grab the guide", metric: "likes", threshold: 100 },
    });
    expect(shown.platforms[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: ROOT,
      post_url: `https://x.com/XDevelopers/status/${ROOT}`,
      error: null,
    });
    const appended = x.requests("https://api.x.com/2/media/upload/710511363345354753/append");
    expect(appended).toHaveLength(1);
    const tweets = x.seen.filter((r) => r.method === "POST" && r.url === "https://api.x.com/2/tweets");
    for (const r of tweets) expect(r.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(tweets.map((r) => JSON.parse(r.body))).toEqual([
      { text: "Big news!", media: { media_ids: ["710511363345354753"] }, reply_settings: "following" },
      { text: "Thread, part two", reply_settings: "following", reply: { in_reply_to_tweet_id: ROOT } },
    ]);

    const synced = await syncPost(connected, shown.id);
    expect(synced.platforms[0].analytics).toEqual({
      likes: 234,
      comments: 12,
      shares: 50,
      quotes: 5,
      saves: 9,
      impressions: 6212,
      engagement_rate: 4.99,
    });
    expect(
      synced.comments.map((c: any) => [c.platform, c.content, c.author_name, c.contact?.username]),
    ).toEqual(
      expect.arrayContaining([
        ["twitter", "Congrats & good luck!", "Ana Lyst", "analyst"],
        ["twitter", "First!", "early_bird", "early_bird"],
      ]),
    );
    expect(synced.comments).toHaveLength(2);
    // 234 likes passed the threshold of 100: the plug went out as a reply under the post.
    const plug = x.seen.filter((r) => r.method === "POST" && r.url === "https://api.x.com/2/tweets").at(-1)!;
    expect(JSON.parse(plug.body)).toEqual({ text: "Grab the guide", reply: { in_reply_to_tweet_id: ROOT } });
    const row = await env.DB.prepare("SELECT plug_post_id FROM post_platforms WHERE post_id = ?")
      .bind(shown.id)
      .first<{ plug_post_id: string }>();
    expect(row?.plug_post_id).toBe(posted[2]);
  },
};
