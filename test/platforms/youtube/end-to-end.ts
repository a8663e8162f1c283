// YouTube end to end through the worker: connect (consent with offline access, token exchange, channel
// identity, the one channel taken without a picker), publish a video through the engine (resumable
// upload streamed from R2), then sync its statistics and comments, all answered by recorded answers.
import { expect } from "vitest";
import { mp4Bytes } from "../../media/support";
import { expectSameBytes } from "../../support/bytes";
import { waitFor } from "../../support/wait";
import {
  accountOf,
  type Connected,
  disconnect,
  json,
  platformServer,
  publishPost,
  type Scenario,
  syncPost,
  uploadMedia,
} from "../live/harness";
import * as R from "./recorded";

const API = "https://www.googleapis.com/youtube/v3";
const server = platformServer([
  { method: "POST", url: "https://oauth2.googleapis.com/token", reply: () => json(R.token) },
  { method: "GET", url: `${API}/channels?part=snippet&mine=true`, reply: () => json(R.channels) },
  {
    method: "POST",
    url: "https://www.googleapis.com/upload/youtube/v3/videos?",
    reply: () => new Response(null, { status: 200, headers: { location: R.SESSION_URL } }),
  },
  { method: "PUT", url: R.SESSION_URL, reply: () => json(R.inserted, 201) },
  { method: "GET", url: `${API}/videos?part=statistics`, reply: () => json(R.statistics) },
  { method: "POST", url: R.REVOKE_URL, reply: () => new Response("", { status: 200 }) },
  {
    method: "GET",
    url: `${API}/commentThreads?`,
    reply: () =>
      json(R.threads([R.thread("Ugx1", "Great video!"), R.thread("Ugx2", "Thanks", "@bob", "UCbob")])),
  },
]);

async function run(connected: Connected) {
  const account = await accountOf(connected);
  expect(account).toMatchObject({
    platform: "youtube",
    username: "googledevelopers",
    avatar: "https://yt3.ggpht.com/ytc/example=s240-c-k-c0x00ffffff-no-rj",
  });

  const bytes = mp4Bytes(4096);
  const mediaId = await uploadMedia(connected, "launch.mp4", "video/mp4", bytes);
  const post = await publishPost(connected, {
    content: [{ text: "Launch day\nWe shipped it.", media: [mediaId] }],
    settings: { youtube: { privacy_status: "unlisted", tags: ["launch"] } },
  });
  expect(post.platforms[0]).toMatchObject({
    status: "PUBLISHED",
    platform_post_id: R.VIDEO_ID,
    post_url: `https://www.youtube.com/watch?v=${R.VIDEO_ID}`,
  });

  const [start] = server.requests("https://www.googleapis.com/upload/");
  expect(start!.headers.get("authorization")).toBe(`Bearer ${R.token.access_token}`);
  const metadata = JSON.parse(start!.body);
  expect(metadata.status.privacyStatus).toBe("unlisted");
  expect(metadata.snippet.title).toBe("Launch day");
  expect(metadata.snippet.tags).toEqual(["launch", expect.stringMatching(/^sp-\d+-1$/)]);
  const [upload] = server.seen.filter((r) => r.method === "PUT");
  await expectSameBytes(upload!.bytes, bytes);
  expect(upload!.headers.get("content-range")).toBe(`bytes 0-${bytes.length - 1}/${bytes.length}`);

  const synced = await syncPost(connected, post.id);
  expect(synced.platforms[0].analytics).toMatchObject({ impressions: 1000, likes: 40, comments: 10 });
  expect(synced.comments.map((c: { content: string }) => c.content).sort()).toEqual([
    "Great video!",
    "Thanks",
  ]);
  expect(synced.comments.find((c: { content: string }) => c.content === "Thanks")).toMatchObject({
    author_name: "@bob",
    platform: "youtube",
    contact: { name: "@bob", username: "bob", profile_url: "http://www.youtube.com/@bob" },
  });

  // Disconnecting revokes the grant at Google (after the answer), through its refresh token.
  expect((await disconnect(connected)).status).toBe(200);
  await waitFor(() => server.requests(R.REVOKE_URL).length > 0, { what: "the revoke call" });
  expect(server.requests(R.REVOKE_URL)).toHaveLength(1);
  expect(server.requests(R.REVOKE_URL)[0]!.body).toBe(`token=${encodeURIComponent(R.token.refresh_token)}`);
}

export const scenario: Scenario = {
  it: "connects a channel, publishes a video through the engine and syncs its statistics and comments",
  // Each test starts with no request seen.
  server: () => {
    server.seen.length = 0;
    return server;
  },
  connect: { scopes: ["youtube.upload", "youtube.force-ssl"] },
  run,
};
