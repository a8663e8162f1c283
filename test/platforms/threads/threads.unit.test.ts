// The Threads adapter against recorded answers: exactly what it sends for each kind of post, the
// thread chain, find, insights, comments, reply, the long-lived token and every failure class.
import { describe, expect, it } from "vitest";
import { createAdapter } from "../../../src/platforms/adapter";
import { SPECS } from "../../../src/platforms/catalog";
import { threadsPublishing } from "../../../src/platforms/threads";
import type { DraftItem, Fetch } from "../../../src/platforms/types";
import { adapterFor, CREDENTIALS, json, mediaOf, replay } from "../replay";
import { HANDLE, LONG_LIVED, RECORDED, USER_ID } from "./recorded";

const GRAPH = "https://graph.threads.net/v1.0";
const account = { handle: HANDLE, platformUserId: USER_ID, accessToken: LONG_LIVED };
const SETTINGS = { reply_control: "everyone", topic_tag: null };
const draft = (items: DraftItem[], settings: Record<string, unknown> = SETTINGS) => ({
  items,
  settings,
  fingerprint: "sp-7-1",
});
const image = (fill = 1) =>
  mediaOf(
    { mime: "image/jpeg", kind: "image", url: `https://api.example.test/media/${fill}.jpg?sig=s` },
    fill,
  ).media;
const video = () =>
  mediaOf({ mime: "video/mp4", kind: "video", url: "https://api.example.test/media/v.mp4?sig=s" }, 9).media;

/** The adapter with container polling made instant and bounded to three checks. */
const quick = (fetch: Fetch) =>
  createAdapter(
    { ...SPECS.threads, publishing: (context) => threadsPublishing({ ...context, sleep: async () => {} }) },
    { credentials: CREDENTIALS, fetch },
  );

const form = async (request: Request) =>
  Object.fromEntries(new URLSearchParams(await request.clone().text()));
const query = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);
const path = (request: Request) => request.url.split("?")[0];

/** Every Graph call carries the token as a Bearer header, never in the URL. */
function expectAuthorized(requests: Request[]) {
  for (const request of requests) {
    expect(request.headers.get("authorization")).toBe(`Bearer ${LONG_LIVED}`);
    expect(request.url).not.toContain(LONG_LIVED);
  }
}

async function expectContainer(request: Request, fields: Record<string, string>) {
  expect(request.method).toBe("POST");
  expect(request.url).toBe(`${GRAPH}/${USER_ID}/threads`);
  expect(request.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
  expect(await form(request)).toEqual(fields);
}

async function expectPublish(request: Request, creationId: string) {
  expect(request.method).toBe("POST");
  expect(request.url).toBe(`${GRAPH}/${USER_ID}/threads_publish`);
  expect(await form(request)).toEqual({ creation_id: creationId });
}

function expectStatus(request: Request, containerId: string) {
  expect(request.method).toBe("GET");
  expect(path(request)).toBe(`${GRAPH}/${containerId}`);
  expect(query(request)).toEqual({ fields: "status,error_message" });
}

describe("threads connect and tokens", () => {
  it("asks a connect for publishing, insights and replies", async () => {
    const url = new URL(
      await adapterFor("threads", replay().fetch).authorizeUrl({
        redirectUri: "https://api.example.test/api/oauth/delegate/callback",
        state: "s",
        purpose: "connect",
      }),
    );
    expect(url.searchParams.get("scope")).toBe(
      "threads_basic,threads_content_publish,threads_manage_insights,threads_read_replies,threads_manage_replies,threads_delete",
    );
  });

  it("swaps a connect's short-lived token for a long-lived one that is also its refresh token", async () => {
    const { fetch, requests } = replay(json(RECORDED.shortLived), json(RECORDED.longLived));
    const token = await adapterFor("threads", fetch).exchangeCode({
      code: "the-code",
      redirectUri: "https://api.example.test/cb",
      purpose: "connect",
    });
    expect(token).toEqual({
      accessToken: LONG_LIVED,
      refreshToken: LONG_LIVED,
      userId: USER_ID,
      expiresIn: 5183944,
    });
    const exchange = requests[1]!;
    expect(exchange.method).toBe("GET");
    expect(path(exchange)).toBe("https://graph.threads.net/access_token");
    expect(query(exchange)).toEqual({
      grant_type: "th_exchange_token",
      client_secret: CREDENTIALS.clientSecret,
      access_token: RECORDED.shortLived.access_token,
    });
  });

  it("keeps a delegation's short-lived token as it is", async () => {
    const { fetch, requests } = replay(json(RECORDED.shortLived));
    const token = await adapterFor("threads", fetch).exchangeCode({
      code: "c",
      redirectUri: "https://x.test/cb",
    });
    expect(token.accessToken).toBe(RECORDED.shortLived.access_token);
    expect(requests).toHaveLength(1);
  });

  it("refreshes the long-lived token with th_refresh_token; a refused one is invalid_grant", async () => {
    const { fetch, requests } = replay(json(RECORDED.refreshed), json(RECORDED.errors.expiredToken, 400));
    const adapter = adapterFor("threads", fetch);
    expect(await adapter.refreshToken(LONG_LIVED)).toEqual({
      accessToken: RECORDED.refreshed.access_token,
      refreshToken: RECORDED.refreshed.access_token,
      expiresIn: 5183944,
    });
    expect(path(requests[0]!)).toBe("https://graph.threads.net/refresh_access_token");
    expect(query(requests[0]!)).toEqual({ grant_type: "th_refresh_token", access_token: LONG_LIVED });
    const refused = await adapter.refreshToken("old").catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: "permanent", code: "invalid_grant" });
    expect(String(refused)).not.toContain("old");
  });

  it("has no revocation endpoint to call", async () => {
    const { fetch, requests } = replay();
    expect(await adapterFor("threads", fetch).revoke(account)).toBe(false);
    expect(requests).toHaveLength(0);
  });
});

describe("threads publish", () => {
  it("publishes a text post: a TEXT container, then threads_publish, then its permalink", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.container("c-1")),
      json(RECORDED.published("1234567")),
      json(RECORDED.permalink("1234567")),
    );
    const post = await adapterFor("threads", fetch).publish(
      account,
      draft([{ text: "Hello Threads", media: [] }]),
    );
    expect(post).toEqual({ id: "1234567", url: `https://www.threads.net/@${HANDLE}/post/abcdefg` });
    await expectContainer(requests[0]!, {
      media_type: "TEXT",
      text: "Hello Threads",
      reply_control: "everyone",
    });
    await expectPublish(requests[1]!, "c-1");
    expect(path(requests[2]!)).toBe(`${GRAPH}/1234567`);
    expect(query(requests[2]!)).toEqual({ fields: "permalink,shortcode" });
    expectAuthorized(requests);
  });

  it("sends the reply control and the topic tag from the settings", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.container("c-1")),
      json(RECORDED.published("1")),
      json({ id: "1", shortcode: "xyz" }),
    );
    const post = await adapterFor("threads", fetch).publish(
      account,
      draft([{ text: "Tagged", media: [] }], { reply_control: "mentioned_only", topic_tag: "Cooking" }),
    );
    await expectContainer(requests[0]!, {
      media_type: "TEXT",
      text: "Tagged",
      reply_control: "mentioned_only",
      topic_tag: "Cooking",
    });
    // No permalink (a flagged post): the shortcode still names the post.
    expect(post.url).toBe(`https://www.threads.com/@${HANDLE}/post/xyz`);
  });

  it("publishes an image by URL once its container is FINISHED", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.container("c-img")),
      json(RECORDED.finished),
      json(RECORDED.published("55")),
      json(RECORDED.permalink("55")),
    );
    await adapterFor("threads", fetch).publish(account, draft([{ text: "Look", media: [image()] }]));
    await expectContainer(requests[0]!, {
      media_type: "IMAGE",
      image_url: "https://api.example.test/media/1.jpg?sig=s",
      text: "Look",
      reply_control: "everyone",
    });
    expectStatus(requests[1]!, "c-img");
    await expectPublish(requests[2]!, "c-img");
  });

  it("waits for a video container to finish processing, then publishes it", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.container("c-vid")),
      json(RECORDED.inProgress),
      json(RECORDED.inProgress),
      json(RECORDED.finished),
      json(RECORDED.published("56")),
      json(RECORDED.permalink("56")),
    );
    const media = video();
    await quick(fetch).publish(account, draft([{ text: "", media: [media] }]));
    // A media-only item sends no text.
    await expectContainer(requests[0]!, {
      media_type: "VIDEO",
      video_url: media.url,
      reply_control: "everyone",
    });
    for (const request of requests.slice(1, 4)) expectStatus(request, "c-vid");
    await expectPublish(requests[4]!, "c-vid");
  });

  it("publishes several media as a carousel of item containers", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.container("child-1")),
      json(RECORDED.finished),
      json(RECORDED.container("child-2")),
      json(RECORDED.finished),
      json(RECORDED.container("carousel")),
      json(RECORDED.finished),
      json(RECORDED.published("57")),
      json(RECORDED.permalink("57")),
    );
    const media = video();
    await adapterFor("threads", fetch).publish(account, draft([{ text: "Album", media: [image(1), media] }]));
    await expectContainer(requests[0]!, {
      media_type: "IMAGE",
      image_url: "https://api.example.test/media/1.jpg?sig=s",
      is_carousel_item: "true",
    });
    expectStatus(requests[1]!, "child-1");
    await expectContainer(requests[2]!, {
      media_type: "VIDEO",
      video_url: media.url,
      is_carousel_item: "true",
    });
    expectStatus(requests[3]!, "child-2");
    await expectContainer(requests[4]!, {
      media_type: "CAROUSEL",
      children: "child-1,child-2",
      text: "Album",
      reply_control: "everyone",
    });
    expectStatus(requests[5]!, "carousel");
    await expectPublish(requests[6]!, "carousel");
  });

  it("refuses a carousel of more than 20 media before any call", async () => {
    const { fetch, requests } = replay();
    const media = Array.from({ length: 21 }, (_, i) => image(i));
    await expect(
      adapterFor("threads", fetch).publish(account, draft([{ text: "x", media }])),
    ).rejects.toMatchObject({
      kind: "permanent",
      code: "too_many_media",
    });
    expect(requests).toHaveLength(0);
  });

  it("publishes a thread as a chain: each next item replies to the one before", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.container("c-1")),
      json(RECORDED.published("100")),
      json(RECORDED.container("c-2")),
      json(RECORDED.published("101")),
      json(RECORDED.container("c-3")),
      json(RECORDED.published("102")),
      json(RECORDED.permalink("100", "root")),
    );
    const post = await adapterFor("threads", fetch).publish(
      account,
      draft(
        [
          { text: "One", media: [] },
          { text: "Two", media: [] },
          { text: "Three", media: [] },
        ],
        { reply_control: "accounts_you_follow", topic_tag: "Books" },
      ),
    );
    expect(post).toEqual({ id: "100", url: `https://www.threads.net/@${HANDLE}/post/root` });
    await expectContainer(requests[0]!, {
      media_type: "TEXT",
      text: "One",
      reply_control: "accounts_you_follow",
      topic_tag: "Books",
    });
    await expectContainer(requests[2]!, {
      media_type: "TEXT",
      text: "Two",
      reply_control: "accounts_you_follow",
      reply_to_id: "100",
    });
    await expectContainer(requests[4]!, {
      media_type: "TEXT",
      text: "Three",
      reply_control: "accounts_you_follow",
      reply_to_id: "101",
    });
    expect(path(requests[6]!)).toBe(`${GRAPH}/100`);
  });

  it("fails for good when Threads cannot process the media, and publishes nothing", async () => {
    const { fetch, requests } = replay(json(RECORDED.container("c-vid")), json(RECORDED.failed));
    const failure = await adapterFor("threads", fetch)
      .publish(account, draft([{ text: "v", media: [video()] }]))
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: "permanent", code: "media_processing_failed" });
    expect(String(failure)).toContain("FAILED_DOWNLOADING_VIDEO");
    expect(requests).toHaveLength(2);
  });

  it("ends the attempt after a bounded wait (still processing): the next attempt resumes, even mid-thread", async () => {
    const stuck = replay(
      json(RECORDED.container("c")),
      ...Array.from({ length: 20 }, () => json(RECORDED.inProgress)),
    );
    await expect(
      quick(stuck.fetch).publish(account, draft([{ text: "v", media: [video()] }])),
    ).rejects.toMatchObject({ kind: "transient", code: "still_processing", retryAfterSeconds: 60 });
    expect(stuck.requests).toHaveLength(21);

    const midThread = replay(
      json(RECORDED.container("c-1")),
      json(RECORDED.published("100")),
      json(RECORDED.container("c-2")),
      ...Array.from({ length: 20 }, () => json(RECORDED.inProgress)),
    );
    const items = [
      { text: "One", media: [] },
      { text: "Two", media: [video()] },
    ];
    // The first post is out and recorded: the attempt ends still processing, and the next one goes on
    // with the second item's container (find answers nothing while the thread is incomplete).
    await expect(quick(midThread.fetch).publish(account, draft(items))).rejects.toMatchObject({
      kind: "transient",
      code: "still_processing",
    });
  });
});

describe("threads incomplete thread", () => {
  it("a later item refused for good leaves the first post published: an unknown outcome for find", async () => {
    const { fetch } = replay(
      json(RECORDED.container("c-1")),
      json(RECORDED.published("100")),
      json(RECORDED.errors.invalidParameter, 400),
    );
    const failure = await adapterFor("threads", fetch)
      .publish(
        account,
        draft([
          { text: "One", media: [] },
          { text: "Two", media: [] },
        ]),
      )
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: "unknown_outcome", code: "thread_incomplete" });
    expect(String(failure)).toContain("The parameter image_url is required.");
  });
});

describe("threads failures", () => {
  const publishText = (answers: Array<Response | Error>) => {
    const { fetch, requests } = replay(...answers);
    const outcome = adapterFor("threads", fetch)
      .publish(account, draft([{ text: "Hi", media: [] }]))
      .catch((e: unknown) => e);
    return { outcome, requests };
  };

  it("a refused content is permanent and quotes Threads' message", async () => {
    const { outcome } = publishText([json(RECORDED.errors.invalidParameter, 400)]);
    const failure = await outcome;
    expect(failure).toMatchObject({ kind: "permanent" });
    expect(String(failure)).toContain("The parameter image_url is required.");
  });

  it("a 5xx or a transient Meta code is transient", async () => {
    expect(await publishText([json({ error: { message: "boom" } }, 500)]).outcome).toMatchObject({
      kind: "transient",
      code: "server_error",
    });
    expect(await publishText([json(RECORDED.errors.temporary, 400)]).outcome).toMatchObject({
      kind: "transient",
    });
  });

  it("a timeout is an unknown outcome for a write and transient for a read", async () => {
    const timeout = () => new DOMException("The operation was aborted due to timeout", "TimeoutError");
    expect(await publishText([timeout()]).outcome).toMatchObject({
      kind: "unknown_outcome",
      code: "timeout",
    });
    const { fetch } = replay(timeout());
    await expect(adapterFor("threads", fetch).insights(account, "1")).rejects.toMatchObject({
      kind: "transient",
      code: "timeout",
    });
  });

  it("Meta's throttling codes and a 429 are rate limits with their wait", async () => {
    expect(await publishText([json(RECORDED.errors.rateLimited, 400)]).outcome).toMatchObject({
      kind: "rate_limited",
      code: "rate_limited",
      // Meta's shared reading (../meta.ts): without usage headers, a throttled app waits 5 minutes.
      retryAfterSeconds: 300,
    });
    const limited = new Response("{}", { status: 429, headers: { "retry-after": "120" } });
    expect(await publishText([limited]).outcome).toMatchObject({
      kind: "rate_limited",
      retryAfterSeconds: 120,
    });
  });

  it("an expired or revoked token (code 190) is an auth failure before anything is out", async () => {
    // Subcode 463: the session expired (Meta's shared reading names it token_expired).
    expect(await publishText([json(RECORDED.errors.expiredToken, 400)]).outcome).toMatchObject({
      kind: "auth",
      code: "token_expired",
    });
  });

  it("once a post is out, an auth failure is an unknown outcome (no second publish after a refresh)", async () => {
    const { outcome } = publishText([
      json(RECORDED.container("c-1")),
      json(RECORDED.published("100")),
      json(RECORDED.errors.expiredToken, 401),
    ]);
    expect(await outcome).toMatchObject({ kind: "unknown_outcome", code: "token_expired" });
  });

  it("an account without a token cannot publish", async () => {
    const { fetch, requests } = replay();
    await expect(
      adapterFor("threads", fetch).publish(
        { ...account, accessToken: null },
        draft([{ text: "x", media: [] }]),
      ),
    ).rejects.toMatchObject({ kind: "auth", code: "token_missing" });
    expect(requests).toHaveLength(0);
  });
});

describe("threads find, insights, comments, reply", () => {
  it("finds an earlier attempt by its exact text among the 25 latest threads", async () => {
    const { fetch, requests } = replay(json(RECORDED.threadsList), json(RECORDED.threadsList));
    const adapter = adapterFor("threads", fetch);
    expect(await adapter.find(account, { fingerprint: "sp-7-1", text: "Launch day" })).toEqual({
      id: "1234568",
      url: `https://www.threads.net/@${HANDLE}/post/hijklmn`,
    });
    expect(path(requests[0]!)).toBe(`${GRAPH}/${USER_ID}/threads`);
    expect(query(requests[0]!)).toEqual({
      fields: "id,text,permalink,shortcode,username,is_reply_owned_by_me",
      limit: "25",
    });
    expect(await adapter.find(account, { fingerprint: "sp-7-1", text: "Launch" })).toBeNull();
    expectAuthorized(requests);
  });

  it("finds a reply only among the account's own replies to the post", async () => {
    const { fetch, requests } = replay(json(RECORDED.replies), json(RECORDED.replies));
    const adapter = adapterFor("threads", fetch);
    const lookup = { fingerprint: "sp-plug-7", replyTo: "1234567" };
    expect(await adapter.find(account, { ...lookup, text: "Thanks for reading!" })).toEqual({
      id: "2000002",
      url: `https://www.threads.net/@${HANDLE}/post/plugged`,
    });
    expect(path(requests[0]!)).toBe(`${GRAPH}/1234567/replies`);
    expect(query(requests[0]!)).toMatchObject({ reverse: "true" });
    // Someone else's reply with the same text is not ours.
    expect(await adapter.find(account, { ...lookup, text: "Launch day" })).toBeNull();
  });

  it("maps insights: views are impressions, replies comments, reposts and shares shares", async () => {
    const { fetch, requests } = replay(json(RECORDED.insights));
    expect(await adapterFor("threads", fetch).insights(account, "1234567")).toEqual({
      impressions: 4523,
      likes: 187,
      comments: 42,
      shares: 28,
      quotes: 8,
      saves: 0,
      engagement_rate: 5.86,
    });
    expect(path(requests[0]!)).toBe(`${GRAPH}/1234567/insights`);
    expect(query(requests[0]!)).toEqual({ metric: "views,likes,replies,reposts,quotes,shares" });
  });

  it("an engagement rate is 0 without views", async () => {
    const { fetch } = replay(json({ data: [{ name: "likes", values: [{ value: 3 }] }] }));
    expect(await adapterFor("threads", fetch).insights(account, "1")).toMatchObject({
      likes: 3,
      impressions: 0,
      engagement_rate: 0,
    });
  });

  it("reads the conversation newest first across pages, leaving out the account's own thread, keeping its answers", async () => {
    const [first, second] = RECORDED.conversation;
    // The account's answer to a follower's reply is a comment of its own.
    const answer = {
      id: "3000004",
      text: "Thanks!",
      username: HANDLE,
      timestamp: "2024-05-02T11:00:00+0000",
      is_reply_owned_by_me: true,
      replied_to: { id: "3000003" },
    };
    const { fetch, requests } = replay(json({ ...first, data: [answer, ...first!.data] }), json(second));
    const comments = await adapterFor("threads", fetch).comments!(account, "1234567");
    expect(comments).toEqual([
      expect.objectContaining({ id: "3000004", parent_id: "3000003", is_own: true }),
      {
        id: "3000003",
        content: "Love it",
        author_name: "fan_one",
        created_at: new Date("2024-05-02T10:15:00Z"),
        contact: { name: "fan_one", username: "fan_one", profile_url: "https://www.threads.com/@fan_one" },
        parent_id: "3000001",
        url: "https://www.threads.com/@fan_one/post/C9xLoveIt",
        is_own: false,
        hidden: false,
      },
      {
        id: "3000001",
        content: "First!",
        author_name: "fan_two",
        created_at: new Date("2024-05-01T09:00:00Z"),
        contact: { name: "fan_two", username: "fan_two", profile_url: "https://www.threads.com/@fan_two" },
        parent_id: null,
        url: null,
        is_own: false,
        hidden: true,
      },
    ]);
    expect(path(requests[0]!)).toBe(`${GRAPH}/1234567/conversation`);
    expect(query(requests[0]!)).toEqual({
      fields: "id,text,username,timestamp,is_reply_owned_by_me,permalink,replied_to,hide_status",
      reverse: "true",
    });
    expect(query(requests[1]!)).toMatchObject({ after: "AFTER_1" });
    expect(requests).toHaveLength(2);
  });

  it("stops reading comments at 100", async () => {
    const page = (n: number) => ({
      data: Array.from({ length: 40 }, (_, i) => ({ id: `${n}-${i}`, text: "x", username: "u" })),
      paging: { cursors: { after: `A${n}` }, next: "https://graph.threads.net/next" },
    });
    const { fetch, requests } = replay(json(page(1)), json(page(2)), json(page(3)), json(page(4)));
    expect(await adapterFor("threads", fetch).comments!(account, "1")).toHaveLength(100);
    expect(requests).toHaveLength(3);
  });

  it("replies under a post with reply_to_id", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.container("c-r")),
      json(RECORDED.published("2000002")),
      json(RECORDED.permalink("2000002", "plugged")),
    );
    expect(
      await adapterFor("threads", fetch).reply!(account, "1234567", "Thanks for reading!", "sp-plug-7"),
    ).toEqual({
      id: "2000002",
      url: `https://www.threads.net/@${HANDLE}/post/plugged`,
    });
    await expectContainer(requests[0]!, {
      media_type: "TEXT",
      text: "Thanks for reading!",
      reply_to_id: "1234567",
    });
    await expectPublish(requests[1]!, "c-r");
  });
});
