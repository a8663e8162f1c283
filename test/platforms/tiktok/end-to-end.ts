// TikTok end to end through the worker, answered by the recorded API: connect, publish a video through
// the engine (creator info, init, the file PUT from R2, the post status), then sync its counts.
import { expect } from "vitest";
import { mp4Bytes } from "../../media/support";
import { expectSameBytes } from "../../support/bytes";
import {
  accountOf,
  json,
  platformServer,
  publishPost,
  type Scenario,
  syncPost,
  uploadMedia,
} from "../live/harness";
import { ACCESS, HANDLE, POST_ID, RECORDED, UPLOAD_URL } from "./recorded";

const API = "https://open.tiktokapis.com/v2";

/** Every reply is built when asked: a Response made in the test's context cannot be read in the worker's. */
const tiktokServer = () =>
  platformServer([
    { method: "POST", url: `${API}/oauth/token/`, reply: () => json(RECORDED.token) },
    { method: "GET", url: `${API}/user/info/`, reply: () => json(RECORDED.identity) },
    {
      method: "POST",
      url: `${API}/post/publish/creator_info/query/`,
      reply: () => json(RECORDED.creatorInfo),
    },
    { method: "POST", url: `${API}/post/publish/video/init/`, reply: () => json(RECORDED.videoInit) },
    { method: "PUT", url: UPLOAD_URL, reply: () => new Response(null, { status: 201 }) },
    {
      method: "POST",
      url: `${API}/post/publish/status/fetch/`,
      reply: () => new Response(RECORDED.statusComplete, { headers: { "content-type": "application/json" } }),
    },
    { method: "POST", url: `${API}/video/query/`, reply: () => json(RECORDED.videoQuery) },
  ]);

export const scenario: Scenario = {
  it: "connects, publishes a video streamed from the library, and syncs its counts",
  server: tiktokServer,
  connect: { scopes: ["video.publish", "video.list"] },
  run: async (connected, server) => {
    expect(await accountOf(connected)).toMatchObject({ platform: "tiktok", username: HANDLE });

    const video = mp4Bytes(64 * 1024);
    const mediaId = await uploadMedia(connected, "clip.mp4", "video/mp4", video);
    const shown = await publishPost(connected, {
      content: [{ text: "Our launch, in fifteen seconds", media: [mediaId] }],
      settings: { tiktok: { privacy_level: "MUTUAL_FOLLOW_FRIENDS", disable_comment: true } },
    });
    expect(shown.platforms[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: POST_ID,
      post_url: `https://www.tiktok.com/@${HANDLE}/video/${POST_ID}`,
      error: null,
    });

    const [init] = server.requests(`${API}/post/publish/video/init/`);
    expect(JSON.parse(init!.body)).toEqual({
      post_info: {
        title: "Our launch, in fifteen seconds",
        privacy_level: "MUTUAL_FOLLOW_FRIENDS",
        disable_comment: true,
        disable_duet: false,
        disable_stitch: true,
        brand_content_toggle: false,
        brand_organic_toggle: false,
        is_aigc: false,
      },
      source_info: {
        source: "FILE_UPLOAD",
        video_size: video.length,
        chunk_size: video.length,
        total_chunk_count: 1,
      },
    });
    const [put] = server.requests(UPLOAD_URL);
    expect(put!.headers.get("content-range")).toBe(`bytes 0-${video.length - 1}/${video.length}`);
    // The bytes stored in R2 arrived intact.
    await expectSameBytes(put!.bytes, video);
    for (const seen of server.requests(`${API}/post/`)) {
      expect(seen.headers.get("authorization")).toBe(`Bearer ${ACCESS}`);
    }

    const synced = await syncPost(connected, shown.id);
    expect(synced.platforms[0].analytics).toEqual({
      impressions: 5400,
      likes: 120,
      comments: 14,
      shares: 9,
      quotes: 0,
      saves: 0,
      engagement_rate: 2.65,
    });
    // TikTok lists no comments to apps.
    expect(synced.comments).toEqual([]);
  },
};
