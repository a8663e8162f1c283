// Threads end to end through the worker, answered by the recorded API: connect (long-lived token swap),
// publish a two-item thread with an image through the engine, then sync its insights and comments.
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
import { HANDLE, LONG_LIVED, RECORDED, USER_ID } from "./recorded";

const GRAPH = "https://graph.threads.net/v1.0";
const fields = (seen: Seen) => Object.fromEntries(new URLSearchParams(seen.body));

/**
 * Containers and posts numbered in the order they are created. Every reply is built when asked: a
 * Response made in the test's context cannot be read inside the worker's request handler.
 */
function threadsServer() {
  let containers = 0;
  return platformServer([
    {
      method: "POST",
      url: "https://graph.threads.net/oauth/access_token",
      reply: () => json(RECORDED.shortLived),
    },
    { method: "GET", url: "https://graph.threads.net/access_token?", reply: () => json(RECORDED.longLived) },
    { method: "GET", url: `${GRAPH}/me?`, reply: () => json(RECORDED.identity) },
    {
      method: "POST",
      url: `${GRAPH}/${USER_ID}/threads_publish`,
      reply: (seen) => json({ id: `post-${fields(seen).creation_id}` }),
    },
    { method: "POST", url: `${GRAPH}/${USER_ID}/threads`, reply: () => json({ id: `c${++containers}` }) },
    { method: "GET", url: /\/v1\.0\/c\d+\?fields=status/, reply: () => json(RECORDED.finished) },
    {
      method: "GET",
      url: `${GRAPH}/post-c1?fields=permalink`,
      reply: () => json(RECORDED.permalink("post-c1", "root")),
    },
    { method: "GET", url: `${GRAPH}/post-c1/insights?`, reply: () => json(RECORDED.insights) },
    { method: "GET", url: `${GRAPH}/post-c1/conversation?`, reply: () => json(RECORDED.conversation[1]) },
  ]);
}

export const scenario: Scenario = {
  it: "connects, publishes a thread with an image, and syncs its metrics and comments",
  server: threadsServer,
  connect: {
    scopes: ["threads_content_publish", "threads_manage_insights"],
  },
  run: async (connected, server) => {
    expect(await accountOf(connected)).toMatchObject({ platform: "threads", username: HANDLE });
    // The swap for a long-lived token went out with the app secret, once.
    expect(server.requests("https://graph.threads.net/access_token")).toHaveLength(1);

    const imageId = await uploadMedia(connected, "photo.png", "image/png", pngBytes());
    const shown = await publishPost(connected, {
      content: [
        { text: "Our launch, in pictures", media: [imageId] },
        { text: "And the details below", media: [] },
      ],
      settings: { threads: { reply_control: "accounts_you_follow", topic_tag: "Launches" } },
    });
    expect(shown.platforms[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: "post-c1",
      post_url: `https://www.threads.net/@${HANDLE}/post/root`,
      error: null,
    });

    const created = server.requests(`${GRAPH}/${USER_ID}/threads`).filter((r) => !r.url.endsWith("_publish"));
    expect(created.map(fields)).toEqual([
      {
        media_type: "IMAGE",
        image_url: expect.stringMatching(/^https:\/\/api\.example\.test\//),
        text: "Our launch, in pictures",
        reply_control: "accounts_you_follow",
        topic_tag: "Launches",
      },
      {
        media_type: "TEXT",
        text: "And the details below",
        reply_control: "accounts_you_follow",
        reply_to_id: "post-c1",
      },
    ]);
    // Every Graph call used the stored long-lived token, in a header.
    for (const seen of server.requests(GRAPH)) {
      expect(seen.headers.get("authorization")).toBe(`Bearer ${LONG_LIVED}`);
    }

    const synced = await syncPost(connected, shown.id);
    expect(synced.platforms[0].analytics).toEqual({
      impressions: 4523,
      likes: 187,
      comments: 42,
      shares: 28,
      quotes: 8,
      saves: 0,
      engagement_rate: 5.86,
    });
    expect(synced.comments).toEqual([
      expect.objectContaining({
        content: "First!",
        author_name: "fan_two",
        platform: "threads",
        contact: expect.objectContaining({ username: "fan_two" }),
      }),
    ]);
  },
};
