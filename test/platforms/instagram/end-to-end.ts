// Instagram end to end through the worker, answered by the recorded API: a connect (long-lived token
// swap, no channel step), a photo with collaborators and a comment as its thread published through the
// engine, then its insights and comments synced.
import { expect } from "vitest";
import { jpegBytes } from "../../media/support";
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
import { HANDLE, IG_USER_ID, LONG_LIVED, MEDIA_ID, PERMALINK, RECORDED } from "./recorded";
import { GRAPH } from "./support";

const form = (seen: Seen) => Object.fromEntries(new URLSearchParams(seen.body));
const fieldsOf = (seen: Seen) => new URL(seen.url).searchParams.get("fields");

/** Every reply is built when asked: a Response made in the test cannot be read inside the worker. */
function instagramServer() {
  return platformServer([
    {
      method: "POST",
      url: "https://api.instagram.com/oauth/access_token",
      reply: () => json(OAUTH.instagram.token),
    },
    {
      method: "GET",
      url: "https://graph.instagram.com/access_token?",
      reply: () => json(RECORDED.longLived),
    },
    { method: "GET", url: `${GRAPH}/me?`, reply: () => json(OAUTH.instagram.identity) },
    {
      method: "GET",
      url: `${GRAPH}/${IG_USER_ID}/content_publishing_limit?`,
      reply: () => json(RECORDED.quota(3)),
    },
    // Before /media, which it starts with.
    { method: "POST", url: `${GRAPH}/${IG_USER_ID}/media_publish`, reply: () => json(RECORDED.published) },
    { method: "POST", url: `${GRAPH}/${IG_USER_ID}/media`, reply: () => json(RECORDED.container("c1")) },
    { method: "GET", url: `${GRAPH}/c1?`, reply: () => json(RECORDED.status("c1", "FINISHED")) },
    {
      method: "GET",
      url: `${GRAPH}/${MEDIA_ID}?`,
      reply: (seen) => json(fieldsOf(seen) === "permalink" ? RECORDED.permalink : RECORDED.counts("FEED")),
    },
    {
      method: "POST",
      url: `${GRAPH}/${MEDIA_ID}/comments`,
      reply: () => json(RECORDED.comment("17870913679156930")),
    },
    { method: "GET", url: `${GRAPH}/${MEDIA_ID}/insights?`, reply: () => json(RECORDED.insights) },
    { method: "GET", url: `${GRAPH}/${MEDIA_ID}/comments?`, reply: () => json(RECORDED.comments[1]) },
  ]);
}

export const scenario: Scenario = {
  it: "connects, publishes a photo with a comment, and syncs its metrics and comments",
  server: instagramServer,
  connect: {
    scopes: ["instagram_business_content_publish", "instagram_business_manage_insights"],
  },
  run: async (connected, server) => {
    expect(await accountOf(connected)).toMatchObject({ platform: "instagram", username: HANDLE });
    expect(server.requests("https://graph.instagram.com/access_token")).toHaveLength(1);

    // A JPEG: Instagram's check (and Instagram) take no other image type.
    const imageId = await uploadMedia(connected, "pier.jpg", "image/jpeg", jpegBytes());
    const shown = await publishPost(connected, {
      content: [
        { text: "Golden hour on the pier", media: [imageId] },
        { text: "Shot on film", media: [] },
      ],
      settings: { instagram: { collaborators: ["alice"] } },
    });
    expect(shown.platforms[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: MEDIA_ID,
      post_url: PERMALINK,
      error: null,
    });
    const [container] = server
      .requests(`${GRAPH}/${IG_USER_ID}/media`)
      .filter((r) => !r.url.includes("_publish"));
    expect(form(container!)).toEqual({
      image_url: expect.stringMatching(/^https:\/\/api\.example\.test\//),
      caption: "Golden hour on the pier",
      collaborators: '["alice"]',
    });
    expect(form(server.requests(`${GRAPH}/${IG_USER_ID}/media_publish`)[0]!)).toEqual({ creation_id: "c1" });
    const [comment] = server.requests(`${GRAPH}/${MEDIA_ID}/comments`).filter((r) => r.method === "POST");
    expect(form(comment!)).toEqual({ message: "Shot on film" });
    // Every API call used the stored long-lived token, in a header.
    for (const seen of server
      .requests(`${GRAPH}/${IG_USER_ID}`)
      .concat(server.requests(`${GRAPH}/${MEDIA_ID}`))) {
      expect(seen.headers.get("authorization")).toBe(`Bearer ${LONG_LIVED}`);
    }

    const synced = await syncPost(connected, shown.id);
    expect(synced.platforms[0].analytics).toEqual({
      impressions: 500,
      likes: 14,
      comments: 4,
      shares: 2,
      quotes: 0,
      saves: 5,
      engagement_rate: 5,
    });
    expect(synced.comments).toEqual([
      expect.objectContaining({ content: "Thanks all", author_name: HANDLE, platform: "instagram" }),
    ]);
  },
};
