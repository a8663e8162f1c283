// Facebook end to end through the worker, answered by the recorded Graph API: a connect (long-lived
// token swap, the Page picked among the user's Pages), a photo post with a comment as its thread
// published through the engine, then its insights and comments synced.
import { expect } from "vitest";
import { pngBytes } from "../../media/support";
import {
  accountOf,
  json,
  platformServer,
  publishPost,
  type Scenario,
  type Seen,
  syncPost,
  uploadMedia,
} from "../live/harness";
import { RECORDED as OAUTH } from "../recorded";
import { LONG_LIVED, PAGE_ID, PAGE_TOKEN, RECORDED } from "./recorded";
import { GRAPH } from "./support";

const POST = RECORDED.photo.post_id;
/** A single-photo post is linked as its photo (Graph API › Photo › link). */
const POST_URL = `https://www.facebook.com/photo/?fbid=${RECORDED.photo.id}`;
const form = (seen: Seen) => Object.fromEntries(new URLSearchParams(seen.body));
const fieldsOf = (seen: Seen) => new URL(seen.url).searchParams.get("fields");

/** Every reply is built when asked: a Response made in the test cannot be read inside the worker. */
function facebookServer() {
  return platformServer([
    {
      method: "POST",
      url: `${GRAPH}/oauth/access_token`,
      reply: (seen) =>
        json(form(seen).grant_type === "fb_exchange_token" ? RECORDED.longLived : OAUTH.facebook.token),
    },
    { method: "GET", url: `${GRAPH}/me?`, reply: () => json(OAUTH.facebook.identity) },
    {
      method: "GET",
      url: `${GRAPH}/me/accounts?`,
      reply: (seen) => json(RECORDED.pages[seen.url.includes("after=") ? 1 : 0]),
    },
    { method: "GET", url: `${GRAPH}/me/businesses?`, reply: () => json(RECORDED.noBusinesses) },
    { method: "POST", url: `${GRAPH}/${PAGE_ID}/photos`, reply: () => json(RECORDED.photo) },
    {
      method: "GET",
      url: `${GRAPH}/${RECORDED.photo.id}?`,
      reply: () => json({ id: RECORDED.photo.id, link: POST_URL }),
    },
    {
      method: "POST",
      url: `${GRAPH}/${POST}/comments`,
      reply: () => json(RECORDED.comment("1122334455667788_1")),
    },
    {
      method: "GET",
      url: `${GRAPH}/${POST}?`,
      reply: (seen) =>
        json(fieldsOf(seen) === "permalink_url" ? RECORDED.permalink(POST) : RECORDED.engagement),
    },
    { method: "GET", url: `${GRAPH}/${POST}/insights?`, reply: () => json(RECORDED.insights) },
    { method: "GET", url: `${GRAPH}/${POST}/comments?`, reply: () => json(RECORDED.comments[1]) },
  ]);
}

export const scenario: Scenario = {
  it: "connects a Page, publishes a photo with a comment, and syncs its metrics and comments",
  server: facebookServer,
  connect: {
    scopes: ["pages_manage_posts", "pages_read_engagement", "read_insights"],
    channel: PAGE_ID,
  },
  run: async (connected, server) => {
    expect(await accountOf(connected)).toMatchObject({ platform: "facebook", username: "Ada's Bakery" });
    // The swap went out once, in a body; the Pages were listed with the long-lived token.
    const swaps = server
      .requests(`${GRAPH}/oauth/access_token`)
      .filter((r) => r.body.includes("fb_exchange"));
    expect(swaps).toHaveLength(1);
    expect(swaps[0]!.url).toBe(`${GRAPH}/oauth/access_token`);
    for (const seen of server.requests(`${GRAPH}/me/accounts`)) {
      expect(seen.headers.get("authorization")).toBe(`Bearer ${LONG_LIVED}`);
    }

    const imageId = await uploadMedia(connected, "rye.png", "image/png", pngBytes());
    const shown = await publishPost(connected, {
      content: [
        { text: "Fresh rye, out of the oven", media: [imageId] },
        { text: "Order by noon for pickup", media: [] },
      ],
      settings: { facebook: { post_type: "post" } },
    });
    expect(shown.platforms[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: POST,
      post_url: POST_URL,
      error: null,
    });
    const [photo] = server.requests(`${GRAPH}/${PAGE_ID}/photos`);
    expect(form(photo!)).toEqual({
      url: expect.stringMatching(/^https:\/\/api\.example\.test\//),
      message: "Fresh rye, out of the oven",
    });
    const [comment] = server.requests(`${GRAPH}/${POST}/comments`).filter((r) => r.method === "POST");
    expect(form(comment!)).toEqual({ message: "Order by noon for pickup" });
    // Every Page call used the Page's own token, in a header, with its appsecret_proof.
    for (const seen of server.requests(`${GRAPH}/${PAGE_ID}`).concat(server.requests(`${GRAPH}/${POST}`))) {
      expect(seen.headers.get("authorization")).toBe(`Bearer ${PAGE_TOKEN}`);
      expect(new URL(seen.url).searchParams.get("appsecret_proof")).toMatch(/^[0-9a-f]{64}$/);
    }

    const synced = await syncPost(connected, shown.id);
    expect(synced.platforms[0].analytics).toEqual({
      impressions: 1200,
      likes: 42,
      comments: 7,
      shares: 3,
      quotes: 0,
      saves: 0,
      engagement_rate: 4.33,
    });
    expect(synced.comments).toEqual([
      expect.objectContaining({
        content: "Thank you all!",
        author_name: "Ada's Bakery",
        platform: "facebook",
      }),
    ]);
  },
};
