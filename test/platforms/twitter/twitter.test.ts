// The X adapter's connect and publishing against X's documented answers: the consent scopes, the
// identity's profile fields, text posts, images and chunked videos streamed by range, threads as reply
// chains, every X setting, the media X would refuse, the auto-plug reply and the token revocation.
import { describe, expect, it } from "vitest";
import { pkceChallenge } from "../../../src/platforms/adapter";
import { CHUNK_BYTES, MAX_STATUS_POLLS } from "../../../src/platforms/twitter/media";
import { expectSameBytes } from "../../support/bytes";
import { adapterFor, json, mediaOf, replay } from "../replay";
import {
  appendedAnswer,
  created,
  finalizedImage,
  HANDLE,
  initialized,
  me,
  processing,
  revoked,
  TOKEN,
} from "./recorded";
import {
  account,
  adapterWithSleeps,
  appendOf,
  draftOf,
  expectXCall,
  failureOf,
  item,
  jsonOf,
} from "./support";

const TWEETS = "https://api.x.com/2/tweets";
const UPLOAD = "https://api.x.com/2/media/upload";

describe("X connect", () => {
  it("asks a connect for the publishing scopes and a refresh token; a delegation for identity only", async () => {
    const adapter = adapterFor("twitter", replay().fetch);
    const codeChallenge = await pkceChallenge("v".repeat(43));
    const base = { redirectUri: "https://api.example.test/cb", state: "s", codeChallenge };
    const connect = new URL(await adapter.authorizeUrl({ ...base, purpose: "connect" }));
    expect(connect.searchParams.get("scope")).toBe(
      "tweet.read tweet.write users.read media.write tweet.moderate.write offline.access",
    );
    const delegation = new URL(await adapter.authorizeUrl(base));
    expect(delegation.searchParams.get("scope")).toBe("tweet.read users.read");
  });

  it("reads the avatar and the verified badge with the identity", async () => {
    const { fetch, requests } = replay(json(me));
    expect(await adapterFor("twitter", fetch).identity({ accessToken: TOKEN })).toEqual({
      platform_id: "2244994945",
      handle: HANDLE,
      name: me.data.name,
      avatar: me.data.profile_image_url,
      verified: true,
    });
    expect(requests[0]!.url).toBe("https://api.x.com/2/users/me?user.fields=profile_image_url%2Cverified");
  });
});

describe("X publish", () => {
  it("publishes a text post: POST /2/tweets with the text and nothing else", async () => {
    const { fetch, requests } = replay(json(created("1880028106020515840"), 201));
    const post = await adapterFor("twitter", fetch).publish(account, draftOf([item("Hello")]));
    expect(post).toEqual({
      id: "1880028106020515840",
      url: "https://x.com/XDevelopers/status/1880028106020515840",
    });
    expect(requests).toHaveLength(1);
    expectXCall(requests[0]!, "POST", TWEETS);
    expect(requests[0]!.headers.get("content-type")).toBe("application/json");
    expect(await jsonOf(requests[0]!)).toEqual({ text: "Hello" });
  });

  it("uploads an image (initialize, one append, finalize) and attaches its media id", async () => {
    const photo = mediaOf({ mime: "image/jpeg", kind: "image", size: 1024, name: "cat.jpg" });
    const { fetch, requests } = replay(
      json(initialized("710511363345354753")),
      json(appendedAnswer),
      json(finalizedImage("710511363345354753")),
      json(created("1880028106020515841"), 201),
    );
    await adapterFor("twitter", fetch).publish(account, draftOf([item("A cat", [photo.media])]));
    const [init, append, finalize, tweet] = requests as [Request, Request, Request, Request];
    expectXCall(init, "POST", `${UPLOAD}/initialize`);
    expect(await jsonOf(init)).toEqual({
      media_type: "image/jpeg",
      total_bytes: 1024,
      media_category: "tweet_image",
    });
    expectXCall(append, "POST", `${UPLOAD}/710511363345354753/append`);
    const appended = await appendOf(append);
    expect(appended.segment).toBe("0");
    await expectSameBytes(appended.bytes, photo.bytes);
    expectXCall(finalize, "POST", `${UPLOAD}/710511363345354753/finalize`);
    expect(await finalize.text()).toBe("");
    expect(await jsonOf(tweet)).toEqual({ text: "A cat", media: { media_ids: ["710511363345354753"] } });
    expect(photo.opened).toEqual([{ offset: 0, length: 1024 }]);
  });

  it("streams a video in bounded ranges, then waits for X's processing before posting", async () => {
    const size = 2 * CHUNK_BYTES + 123;
    const clip = mediaOf({ mime: "video/mp4", kind: "video", size, name: "clip.mp4" });
    const id = "1880028106020515840";
    const { fetch, requests } = replay(
      json(initialized(id)),
      json(appendedAnswer),
      json(appendedAnswer),
      new Response(null, { status: 204 }),
      json(processing(id, "pending", 3)),
      json(processing(id, "in_progress", 1)),
      json(processing(id, "succeeded")),
      json(created("1880028106020515842"), 201),
    );
    const { adapter, sleeps } = adapterWithSleeps(fetch);
    await adapter.publish(account, draftOf([item("", [clip.media])]));

    expect(await jsonOf(requests[0]!)).toEqual({
      media_type: "video/mp4",
      total_bytes: size,
      media_category: "tweet_video",
    });
    const appends = await Promise.all(requests.slice(1, 4).map(appendOf));
    expect(appends.map((a) => a.segment)).toEqual(["0", "1", "2"]);
    const sent = new Uint8Array(size);
    let at = 0;
    for (const a of appends) {
      expect(a.bytes.byteLength).toBeLessThanOrEqual(CHUNK_BYTES);
      sent.set(a.bytes, at);
      at += a.bytes.byteLength;
    }
    expect(at).toBe(size);
    await expectSameBytes(sent, clip.bytes);
    expect(clip.opened).toEqual([
      { offset: 0, length: CHUNK_BYTES },
      { offset: CHUNK_BYTES, length: CHUNK_BYTES },
      { offset: 2 * CHUNK_BYTES, length: 123 },
    ]);
    expectXCall(requests[4]!, "POST", `${UPLOAD}/${id}/finalize`);
    for (const status of requests.slice(5, 7))
      expectXCall(status, "GET", `${UPLOAD}?command=STATUS&media_id=${id}`);
    expect(sleeps).toEqual([3000, 1000]);
    // A post of media alone sends no text.
    expect(await jsonOf(requests[7]!)).toEqual({ media: { media_ids: [id] } });
  });

  it("fails for good when X cannot process the video, and posts nothing", async () => {
    const clip = mediaOf({ mime: "video/mp4", kind: "video", size: 100 });
    const failed = processing("9", "failed", 0, {
      error: { code: 1, name: "InvalidMedia", message: "Unsupported video codec" },
    });
    const { fetch, requests } = replay(
      json(initialized("9")),
      json(appendedAnswer),
      json(processing("9", "in_progress", 2)),
      json(failed),
    );
    const error = await failureOf(
      adapterWithSleeps(fetch).adapter.publish(account, draftOf([item("x", [clip.media])])),
    );
    expect(error).toMatchObject({ kind: "permanent", code: "media_processing_failed" });
    expect(error.message).toContain("Unsupported video codec");
    expect(requests.filter((r) => r.url === TWEETS)).toHaveLength(0);
  });

  it("ends the attempt (still_processing, nothing posted) when the video outlasts the bounded polls", async () => {
    const clip = mediaOf({ mime: "video/mp4", kind: "video", size: 100 });
    const stuck = Array.from({ length: MAX_STATUS_POLLS }, () => json(processing("9", "in_progress", 5)));
    const { fetch, requests } = replay(
      json(initialized("9")),
      json(appendedAnswer),
      json(processing("9", "pending", 5)),
      ...stuck,
    );
    const { adapter, sleeps } = adapterWithSleeps(fetch);
    const error = await failureOf(adapter.publish(account, draftOf([item("x", [clip.media])])));
    // The next attempt polls the same media again (it is recorded on the row), after check_after_secs.
    expect(error).toMatchObject({ kind: "transient", code: "still_processing", retryAfterSeconds: 5 });
    expect(sleeps).toHaveLength(MAX_STATUS_POLLS);
    expect(sleeps.every((ms) => ms === 5000)).toBe(true);
    expect(requests.filter((r) => r.url === TWEETS)).toHaveLength(0);
  });

  it("uploads a GIF as tweet_gif", async () => {
    const gif = mediaOf({ mime: "image/gif", kind: "image", size: 10 });
    const { fetch, requests } = replay(
      json(initialized("5")),
      json(appendedAnswer),
      json(finalizedImage("5")),
      json(created("6"), 201),
    );
    await adapterFor("twitter", fetch).publish(account, draftOf([item("gif", [gif.media])]));
    expect((await jsonOf(requests[0]!)).media_category).toBe("tweet_gif");
  });

  it.each([
    [
      "five images",
      () => Array.from({ length: 5 }, (_, i) => mediaOf({ mime: "image/png", kind: "image" }, i).media),
      /must not have more than 4 items/,
    ],
    [
      "a video with an image",
      () => [
        mediaOf({ mime: "video/mp4", kind: "video" }).media,
        mediaOf({ mime: "image/png", kind: "image" }).media,
      ],
      /must not mix a video or a GIF with other media/,
    ],
    [
      "an image over 5 MB",
      () => [mediaOf({ mime: "image/png", kind: "image", size: 5 * 1024 * 1024 + 1 }).media],
      /5 MB/,
    ],
  ])("refuses %s before uploading anything", async (_, media, message) => {
    const { fetch, requests } = replay();
    const error = await failureOf(
      adapterFor("twitter", fetch).publish(account, draftOf([item("x", media())])),
    );
    expect(error).toMatchObject({ kind: "permanent", code: "media_rejected" });
    expect(error.message).toMatch(message);
    expect(requests).toHaveLength(0);
  });

  it("publishes a thread as a reply chain and answers the first post", async () => {
    const { fetch, requests } = replay(
      json(created("101"), 201),
      json(created("102"), 201),
      json(created("103"), 201),
    );
    const post = await adapterFor("twitter", fetch).publish(
      account,
      draftOf([item("One"), item("Two"), item("Three")]),
    );
    expect(post).toEqual({ id: "101", url: "https://x.com/XDevelopers/status/101" });
    expect(await Promise.all(requests.map(jsonOf))).toEqual([
      { text: "One" },
      { text: "Two", reply: { in_reply_to_tweet_id: "101" } },
      { text: "Three", reply: { in_reply_to_tweet_id: "102" } },
    ]);
  });

  it("keeps a later item's transient failure transient once the first is published (the next attempt continues)", async () => {
    const { fetch } = replay(json(created("101"), 201), json({ title: "Service Unavailable" }, 503));
    const error = await failureOf(
      adapterFor("twitter", fetch).publish(account, draftOf([item("One"), item("Two")])),
    );
    expect(error).toMatchObject({ kind: "transient", code: "server_error" });
  });

  it("maps every X setting: the first post takes them all, the later ones who-may-reply and super followers", async () => {
    const settings = {
      reply_settings: "following",
      quote_tweet_id: "1346889436626259968",
      reply: { in_reply_to_tweet_id: "1346889436626259000" },
      poll: { enabled: true, options: ["Yes", "No"], duration_minutes: 60 },
      for_super_followers_only: true,
      community_id: "1146654567674912769",
      share_with_followers: true,
      text: "Shorter for X",
    };
    const { fetch, requests } = replay(json(created("201"), 201), json(created("202"), 201));
    await adapterFor("twitter", fetch).publish(
      account,
      draftOf([item("The long text"), item("Two")], settings),
    );
    expect(await Promise.all(requests.map(jsonOf))).toEqual([
      {
        text: "Shorter for X",
        reply_settings: "following",
        for_super_followers_only: true,
        reply: { in_reply_to_tweet_id: "1346889436626259000" },
        quote_tweet_id: "1346889436626259968",
        poll: { options: ["Yes", "No"], duration_minutes: 60 },
        community_id: "1146654567674912769",
        share_with_followers: true,
      },
      {
        text: "Two",
        reply_settings: "following",
        for_super_followers_only: true,
        reply: { in_reply_to_tweet_id: "201" },
      },
    ]);
  });

  it("sends share_with_followers only with a community, and no reply_settings for everyone", async () => {
    const { fetch, requests } = replay(json(created("301"), 201));
    await adapterFor("twitter", fetch).publish(
      account,
      draftOf([item("Hi")], { share_with_followers: true, reply_settings: "everyone" }),
    );
    expect(await jsonOf(requests[0]!)).toEqual({ text: "Hi" });
  });

  it("refuses a poll with media, and settings that are not X's, before any call", async () => {
    const photo = mediaOf({ mime: "image/png", kind: "image" });
    const poll = { poll: { enabled: true, options: ["a", "b"], duration_minutes: 5 } };
    const { fetch, requests } = replay();
    const adapter = adapterFor("twitter", fetch);
    expect(
      await failureOf(adapter.publish(account, draftOf([item("x", [photo.media])], poll))),
    ).toMatchObject({
      kind: "permanent",
      code: "poll_with_media",
    });
    expect(
      await failureOf(adapter.publish(account, draftOf([item("x")], { privacy_level: "SELF_ONLY" }))),
    ).toMatchObject({
      kind: "permanent",
      code: "invalid_settings",
    });
    expect(requests).toHaveLength(0);
  });

  it("replies under a post (the auto-plug)", async () => {
    const { fetch, requests } = replay(json(created("401"), 201));
    const reply = await adapterFor("twitter", fetch).reply!(
      account,
      "1346889436626259968",
      "Grab the guide",
      "sp-plug-7",
    );
    expect(reply).toEqual({ id: "401", url: "https://x.com/XDevelopers/status/401" });
    expectXCall(requests[0]!, "POST", TWEETS);
    expect(await jsonOf(requests[0]!)).toEqual({
      text: "Grab the guide",
      reply: { in_reply_to_tweet_id: "1346889436626259968" },
    });
  });
});

describe("X revoke", () => {
  it("revokes the access token with the client's Basic credentials", async () => {
    const { fetch, requests } = replay(json(revoked));
    expect(await adapterFor("twitter", fetch).revoke(account)).toBe(true);
    const [request] = requests as [Request];
    expect(request.method).toBe("POST");
    expect(request.url).toBe("https://api.x.com/2/oauth2/revoke");
    expect(request.headers.get("authorization")).toBe(`Basic ${btoa("client-123:secret-456")}`);
    expect(request.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(await request.formData())).toEqual({
      token: TOKEN,
      token_type_hint: "access_token",
    });
  });

  it("revokes the refresh token too, each with its token_type_hint, so no new access token can be minted", async () => {
    const { fetch, requests } = replay(json(revoked), json(revoked));
    const withRefresh = { ...account, refreshToken: "x-refresh-token" };
    expect(await adapterFor("twitter", fetch).revoke(withRefresh)).toBe(true);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST https://api.x.com/2/oauth2/revoke",
      "POST https://api.x.com/2/oauth2/revoke",
    ]);
    const forms = await Promise.all(requests.map(async (r) => Object.fromEntries(await r.formData())));
    expect(forms).toEqual([
      { token: "x-refresh-token", token_type_hint: "refresh_token" },
      { token: TOKEN, token_type_hint: "access_token" },
    ]);
    for (const request of requests)
      expect(request.headers.get("authorization")).toBe(`Basic ${btoa("client-123:secret-456")}`);
    // One refused, the other still sent, and the refusal reported without the token.
    const second = replay(
      json({ error: "invalid_request", error_description: "bad x-refresh-token" }, 400),
      json(revoked),
    );
    const error = await failureOf(adapterFor("twitter", second.fetch).revoke(withRefresh));
    expect(second.requests).toHaveLength(2);
    expect(error.message).not.toContain("x-refresh-token");
  });

  it("fails with a PlatformError that does not echo the token when X refuses", async () => {
    const { fetch } = replay(
      json({ error: "invalid_request", error_description: `bad token ${TOKEN}` }, 400),
    );
    const error = await failureOf(adapterFor("twitter", fetch).revoke(account));
    expect(error.kind).toBe("permanent");
    expect(error.message).not.toContain(TOKEN);
  });
});
