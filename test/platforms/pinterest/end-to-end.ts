// Pinterest end to end through the worker: connect (consent with the Pin scopes, token exchange with
// Basic auth, identity), publish an image Pin and a video Pin through the engine (the image pulled by
// Pinterest from the signed link, the video streamed from R2 to storage), then sync the Pin's
// analytics, all answered by recorded answers.
import { expect } from "vitest";
import { bytesOf, fetchLink, mp4Bytes, pngBytes } from "../../media/support";
import { expectSameBytes } from "../../support/bytes";
import {
  accountOf,
  type Connected,
  json,
  platformServer,
  publishPost,
  type Scenario,
  syncPost,
  uploadMedia,
} from "../live/harness";
import * as R from "./recorded";

const API = "https://api.pinterest.com/v5";
const server = platformServer([
  { method: "POST", url: `${API}/oauth/token`, reply: () => json(R.token) },
  { method: "GET", url: `${API}/user_account`, reply: () => json(R.userAccount) },
  { method: "POST", url: `${API}/media`, reply: () => json(R.registered, 201) },
  { method: "POST", url: R.UPLOAD_URL, reply: () => new Response(null, { status: 204 }) },
  { method: "GET", url: `${API}/media/${R.MEDIA_ID}`, reply: () => json(R.mediaStatus("succeeded")) },
  { method: "POST", url: `${API}/pins`, reply: () => json(R.pin("Launch day"), 201) },
  { method: "GET", url: `${API}/pins/${R.PIN_ID}/analytics?`, reply: () => json(R.analytics) },
]);

const settings = {
  pinterest: { board_id: R.BOARD_ID, title: "Launch day", link: "https://www.example.com/launch" },
};

async function imagePin(connected: Connected) {
  expect(await accountOf(connected)).toMatchObject({ platform: "pinterest", username: "examplestudio" });
  const [exchange] = server.requests(`${API}/oauth/token`);
  expect(exchange!.headers.get("authorization")).toBe(`Basic ${btoa("client-123:secret-456")}`);

  const png = pngBytes(4096);
  const mediaId = await uploadMedia(connected, "launch.png", "image/png", png);
  const post = await publishPost(connected, {
    content: [{ text: "Launch day", media: [mediaId] }],
    settings,
  });
  expect(post.platforms[0]).toMatchObject({
    status: "PUBLISHED",
    platform_post_id: R.PIN_ID,
    post_url: `https://www.pinterest.com/pin/${R.PIN_ID}/`,
  });

  const [create] = server.requests(`${API}/pins`);
  expect(create!.headers.get("authorization")).toBe(`Bearer ${R.token.access_token}`);
  const body = JSON.parse(create!.body);
  expect(body).toMatchObject({
    board_id: R.BOARD_ID,
    description: "Launch day",
    title: "Launch day",
    link: "https://www.example.com/launch",
    media_source: { source_type: "image_url" },
  });
  // Pinterest pulls the image from the signed link, which serves the stored bytes.
  const pulled = await fetchLink(body.media_source.url);
  expect(pulled.status).toBe(200);
  await expectSameBytes(await bytesOf(pulled), png);

  const synced = await syncPost(connected, post.id);
  expect(synced.platforms[0].analytics).toMatchObject({
    impressions: 240,
    saves: 20,
    comments: 2,
    likes: 12,
  });
  expect(synced.comments).toEqual([]);
}

async function videoPin(connected: Connected) {
  const mp4 = mp4Bytes(50_000);
  const mediaId = await uploadMedia(connected, "clip.mp4", "video/mp4", mp4);
  const post = await publishPost(connected, {
    content: [{ text: "Launch day", media: [mediaId] }],
    settings,
  });
  expect(post.platforms[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: R.PIN_ID });

  const [stored] = server.requests(R.UPLOAD_URL);
  expect(stored!.headers.get("authorization")).toBeNull();
  const form = await new Request(stored!.url, {
    method: "POST",
    headers: stored!.headers,
    body: stored!.bytes,
  }).formData();
  expect(form.get("key")).toBe(R.registered.upload_parameters.key);
  await expectSameBytes(new Uint8Array(await (form.get("file") as File).arrayBuffer()), mp4);
  const [create] = server.requests(`${API}/pins`);
  expect(JSON.parse(create!.body).media_source).toEqual({
    source_type: "video_id",
    media_id: R.MEDIA_ID,
    cover_image_key_frame_time: 1,
  });
}

/** Each test starts with no request seen. */
const fresh = () => {
  server.seen.length = 0;
  return server;
};

export const scenario: Scenario[] = [
  {
    it: "connects, publishes an image Pin through the engine and syncs its analytics",
    server: fresh,
    connect: { scopes: ["pins:write", "boards:read"] },
    run: imagePin,
  },
  {
    it: "publishes a video Pin: the bytes go from R2 to Pinterest's storage, then the Pin names the media",
    server: fresh,
    run: videoPin,
  },
];
