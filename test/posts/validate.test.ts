// The dry run of a post create (POST /api/v1/posts/validate): create's own 422 errors, by the same paths;
// per account, whether it would publish and every problem (expiry, text, media by type, size and count,
// threads, settings); nothing written. Then each platform's check (src/platforms/<platform>/rules.ts,
// through the registry) against the real adapters: a draft the rules pass must get past each adapter's own checks, and one they refuse must be
// refused by the adapter before any call, wherever the adapter checks it.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Platform } from "../../src/db/enums";
import { checkPost, SPECS } from "../../src/platforms/catalog";
import { CAROUSEL_MAX as INSTAGRAM_CAROUSEL } from "../../src/platforms/instagram/publish";
import { COMMENT_MAX } from "../../src/platforms/linkedin/rules";
import { CAROUSEL_MAX as PINTEREST_CAROUSEL } from "../../src/platforms/pinterest/publish";
import type { CheckedItem } from "../../src/platforms/rules";
import { PLATFORM_SETTINGS } from "../../src/platforms/settings";
import { MAX_VIDEO_BYTES } from "../../src/platforms/tiktok/rules";
import { MAX_MEDIA_PER_POST } from "../../src/platforms/twitter/media";
import { type DraftMedia, PlatformError } from "../../src/platforms/types";
import { accountProblems } from "../../src/posts/validate";
import { adapterFor } from "../platforms/replay";
import { call } from "../support/client";
import { expectDocumented } from "../support/contract";
import { insertMedia } from "../support/db";
import { createAccount, createTenant, inMinutes } from "../support/seed";

const MB = 1024 * 1024;
const ROUTE = "/api/v1/posts/validate";
type Tenant = Awaited<ReturnType<typeof createTenant>>;

const validate = (t: Tenant, body: Record<string, unknown>) =>
  call("POST", ROUTE, { key: t.key, body: { workspace_id: t.workspace.id, ...body } });
const create = (t: Tenant, body: Record<string, unknown>) =>
  call("POST", "/api/v1/posts", { key: t.key, body: { workspace_id: t.workspace.id, ...body } });

/** Rows of the tenant's posts and platform rows, to prove the dry run writes nothing. */
const written = async (t: Tenant) =>
  env.DB.prepare(
    "SELECT (SELECT count(*) FROM posts WHERE workspace_id = ?1) AS posts, (SELECT count(*) FROM post_platforms WHERE account_id IN (SELECT id FROM accounts WHERE workspace_id = ?1)) AS rows_",
  )
    .bind(t.workspace.id)
    .first();
const usernameOf = async (id: number) =>
  (await env.DB.prepare("SELECT username FROM accounts WHERE id = ?").bind(id).first<{ username: string }>())!
    .username;

let t: Tenant;
const on: Partial<Record<Platform, number>> = {};
const image = (fields: Record<string, unknown> = {}) => insertMedia(t.workspace.id, fields);
const video = (fields: Record<string, unknown> = {}) =>
  insertMedia(t.workspace.id, {
    name: "clip.mp4",
    mime_type: "video/mp4",
    type: "video",
    size: MB,
    ...fields,
  });

/** The problems of the only account of a dry run on `platform`. */
async function problemsOn(platform: Platform, body: Record<string, unknown>) {
  const res = await validate(t, { accounts: [on[platform]], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectDocumented("POST", ROUTE, res);
  expect(res.body.errors).toEqual({});
  const [account] = res.body.accounts;
  expect(account.will_publish).toBe(account.problems.length === 0);
  expect(res.body.valid).toBe(account.will_publish);
  return account.problems;
}

beforeAll(async () => {
  t = await createTenant();
  on.twitter = t.accounts[0]!.id;
  on.linkedin = t.accounts[1]!.id;
  for (const platform of ["instagram", "facebook", "threads", "tiktok", "youtube", "pinterest"] as const)
    on[platform] = (await createAccount(t.workspace.id, platform)).id;
});

describe("POST /api/v1/posts/validate", () => {
  it("answers a valid post: every account would publish, nothing is written, and create agrees", async () => {
    const body = {
      accounts: [on.twitter, on.linkedin, on.pinterest],
      content: [{ text: "Launch day", media: [await image()] }],
      scheduled_at: inMinutes(60),
      settings: { pinterest: { board_id: "board-1" } },
    };
    const before = await written(t);
    const res = await validate(t, body);
    expect(res.status).toBe(200);
    expectDocumented("POST", ROUTE, res);
    const report = async (id: number, platform: string) => ({
      account_id: id,
      platform,
      username: await usernameOf(id),
      will_publish: true,
      problems: [],
    });
    expect(res.body).toEqual({
      valid: true,
      accounts: [
        await report(on.twitter!, "twitter"),
        await report(on.linkedin!, "linkedin"),
        await report(on.pinterest!, "pinterest"),
      ],
      errors: {},
      scheduled_at: expect.any(String),
    });
    expect(await written(t)).toEqual(before);
    const created = await create(t, body);
    expect(created.status).toBe(201);
    // The time it names is the one create keeps, written the same way.
    expect(created.body.scheduled_at).toBe(res.body.scheduled_at);
  });

  it("answers create's own 422 errors, by the same paths, and writes nothing", async () => {
    const other = await createTenant();
    const failed = await image({ state: "failed" });
    const body = {
      accounts: [on.twitter, other.accounts[0]!.id],
      content: [
        { text: "x".repeat(281), media: [await insertMedia(other.workspace.id)] },
        { text: "ok", media: [failed] },
      ],
      scheduled_at: new Date(Date.now() - 60_000).toISOString(),
    };
    const before = await written(t);
    const res = await validate(t, body);
    expect(res.status).toBe(200);
    expectDocumented("POST", ROUTE, res);
    const refused = await create(t, body);
    expect(refused.status).toBe(422);
    expect(res.body.errors).toEqual(refused.body.errors);
    expect(Object.keys(res.body.errors).sort()).toEqual([
      "accounts.1",
      "content.0.media.0",
      "content.0.text",
      "content.1.media.0",
      "scheduled_at",
    ]);
    expect(res.body.valid).toBe(false);
    // Another tenant's account is named by index only: neither its platform nor its handle.
    expect(res.body.accounts[1]).toEqual({
      account_id: other.accounts[0]!.id,
      platform: null,
      username: null,
      will_publish: false,
      problems: [{ field: "accounts.1", message: "The selected accounts.1 is invalid." }],
    });
    expect(res.body.accounts[0]).toMatchObject({
      will_publish: false,
      problems: [
        {
          field: "content.0.text",
          message: "The content.0.text field must not be greater than 280 characters on twitter.",
        },
      ],
    });
    expect(await written(t)).toEqual(before);
  });

  it("answers a malformed body with create's 422 and an inaccessible workspace with its 404", async () => {
    const body = { accounts: [on.twitter], content: [] };
    const res = await validate(t, body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual((await create(t, body)).body);
    const other = await createTenant();
    const foreign = await call("POST", ROUTE, {
      key: t.key,
      body: { workspace_id: other.workspace.id, accounts: [other.accounts[0]!.id], content: [{ text: "x" }] },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Workspace not found." });
  });

  it("reports text over one platform's limit on that platform's accounts only", async () => {
    const res = await validate(t, {
      accounts: [on.twitter, on.threads],
      content: [{ text: "é".repeat(300) }],
    });
    expect(res.body.errors).toEqual({
      "content.0.text": ["The content.0.text field must not be greater than 280 characters on twitter."],
    });
    expect(res.body.accounts.map((a: any) => a.problems)).toEqual([
      [
        {
          field: "content.0.text",
          message: "The content.0.text field must not be greater than 280 characters on twitter.",
        },
      ],
      [],
    ]);
    // The post cannot be created, so neither account would publish.
    expect(res.body.accounts.map((a: any) => a.will_publish)).toEqual([false, false]);
  });

  it("reports an expired account, and only on that account", async () => {
    const { id } = await createAccount(t.workspace.id, "threads");
    await env.DB.prepare("UPDATE accounts SET expired_at = ? WHERE id = ?").bind(Date.now(), id).run();
    const res = await validate(t, { accounts: [on.threads, id], content: [{ text: "Hi" }] });
    expect(res.body.errors).toEqual({});
    expect(res.body.valid).toBe(false);
    expect(res.body.accounts.map((a: any) => [a.will_publish, a.problems])).toEqual([
      [true, []],
      [
        false,
        [
          {
            field: "accounts.1",
            message: "The selected accounts.1 has expired: reconnect it to publish with it.",
          },
        ],
      ],
    ]);
  });

  it("reports media X refuses: count, size by kind, a video or GIF beside other media", async () => {
    const small = await Promise.all([1, 2, 3, 4].map(() => image()));
    const problems = await problemsOn("twitter", {
      content: [
        { text: "a", media: [await image({ size: 5 * MB + 1 }), ...small] },
        { text: "b", media: [await video({ size: 513 * MB }), await image({ size: 1000 })] },
        { text: "c", media: [await image({ mime_type: "image/gif", size: 16 * MB })] },
      ],
    });
    expect(problems).toEqual([
      {
        field: "content.0.media",
        message: "The content.0.media field must not have more than 4 items on twitter.",
      },
      {
        field: "content.0.media.0",
        message: "The content.0.media.0 field must not be greater than 5 MB for an image on twitter.",
      },
      {
        field: "content.1.media",
        message: "The content.1.media field must not mix a video or a GIF with other media on twitter.",
      },
      {
        field: "content.1.media.0",
        message: "The content.1.media.0 field must not be greater than 512 MB for a video on twitter.",
      },
      {
        field: "content.2.media.0",
        message: "The content.2.media.0 field must not be greater than 15 MB for a GIF on twitter.",
      },
    ]);
  });

  it("reports a poll beside media on X", async () => {
    const poll = { enabled: true, options: ["Yes", "No"], duration_minutes: 60 };
    expect(
      await problemsOn("twitter", {
        content: [{ text: "Vote", media: [await image()] }],
        settings: { twitter: { poll } },
      }),
    ).toEqual([
      {
        field: "settings.twitter.poll",
        message:
          "The settings.twitter.poll field is prohibited when the first content item has media on twitter.",
      },
    ]);
  });

  it("reports what Instagram refuses: text alone, a photo not JPEG or over 8 MB, a comment with media, a story of two", async () => {
    expect(await problemsOn("instagram", { content: [{ text: "Just words" }] })).toEqual([
      {
        field: "content.0.media",
        message: "The content.0.media field is required on instagram: it publishes no text-only posts.",
      },
    ]);
    const large = await image({ mime_type: "image/jpeg", size: 9 * MB });
    expect(
      await problemsOn("instagram", {
        content: [
          { text: "a", media: [large] },
          { text: " ", media: [await image()] },
        ],
      }),
    ).toEqual([
      {
        field: "content.0.media.0",
        message: "The content.0.media.0 field must not be greater than 8 MB for an image on instagram.",
      },
      {
        field: "content.1.media",
        message:
          "The content.1.media field is prohibited on instagram: item 2 becomes a comment, which carries text only.",
      },
      {
        field: "content.1.text",
        message: "The content.1.text field is required on instagram: item 2 becomes a comment.",
      },
    ]);
    expect(
      await problemsOn("instagram", {
        content: [{ text: "a", media: [await image(), await image()] }],
        settings: { instagram: { post_type: "story" } },
      }),
    ).toEqual([
      {
        field: "content.0.media",
        message: "The content.0.media field must hold exactly one photo or video for a story on instagram.",
      },
    ]);
  });

  it("refuses a non-JPEG image on Instagram on create too (a 422 saying to convert it), in a post or a carousel", async () => {
    const jpeg =
      "The content.0.media.1 field must be a file of type image/jpeg on instagram: Instagram publishes only JPEG images; convert the image to JPEG.";
    for (const mime of ["image/png", "image/webp", "image/gif"]) {
      const body = {
        accounts: [on.instagram, on.twitter],
        content: [{ text: "a", media: [await image(), await image({ mime_type: mime })] }],
        scheduled_at: inMinutes(60),
      };
      const res = await validate(t, body);
      expect(res.status).toBe(200);
      expect(res.body.errors).toEqual({ "content.0.media.1": [jpeg] });
      expect(res.body.accounts[0]).toMatchObject({
        platform: "instagram",
        will_publish: false,
        problems: [{ field: "content.0.media.1", message: jpeg }],
      });
      const created = await create(t, body);
      expect(created.status).toBe(422);
      expect(created.body.errors).toEqual({ "content.0.media.1": [jpeg] });
    }
    // The same image elsewhere is fine; on Instagram as JPEG too.
    const png = await image({ mime_type: "image/png" });
    expect(
      (
        await create(t, {
          accounts: [on.twitter],
          content: [{ text: "a", media: [png] }],
          scheduled_at: inMinutes(60),
        })
      ).status,
    ).toBe(201);
    const ok = await create(t, {
      accounts: [on.instagram],
      content: [{ text: "a", media: [await image()] }],
      scheduled_at: inMinutes(60),
    });
    expect(ok.status).toBe(201);
    // An update bringing a PNG to a post on Instagram is refused the same way.
    const edited = await call("PUT", `/api/v1/posts/${ok.body.id}`, {
      key: t.key,
      body: { content: [{ text: "a", media: [await image(), png] }] },
    });
    expect(edited.status).toBe(422);
    expect(edited.body.errors).toEqual({ "content.0.media.1": [jpeg] });
  });

  it("reports a thread and a photo type TikTok refuses", async () => {
    expect(
      await problemsOn("tiktok", {
        content: [{ text: "a", media: [await image({ mime_type: "image/png" })] }, { text: "b" }],
        settings: { tiktok: { privacy_level: "SELF_ONLY" } },
      }),
    ).toEqual([
      {
        field: "content.0.media.0",
        message: "The content.0.media.0 field must be a file of type image/jpeg, image/webp on tiktok.",
      },
      {
        field: "content",
        message: "The content field must not have more than 1 item on tiktok: it publishes no threads.",
      },
    ]);
  });

  it("requires TikTok's privacy_level (no default), saying the account's creator_info decides; create refuses it with a 422", async () => {
    const body = {
      accounts: [on.tiktok, on.twitter],
      content: [{ text: "a", media: [await image()] }],
      scheduled_at: inMinutes(60),
    };
    const message =
      "The settings.tiktok.privacy_level field is required on tiktok: choose one of the privacy_level_options TikTok's creator_info offers the account (an app TikTok has not audited may post only SELF_ONLY).";
    const res = await validate(t, body);
    expect(res.status).toBe(200);
    expectDocumented("POST", ROUTE, res);
    expect(res.body.errors).toEqual({ "settings.tiktok.privacy_level": [message] });
    expect(res.body.accounts[0]).toMatchObject({
      platform: "tiktok",
      will_publish: false,
      problems: [{ field: "settings.tiktok.privacy_level", message }],
    });
    expect(res.body.accounts[1]).toMatchObject({ platform: "twitter", problems: [] });
    const created = await create(t, body);
    expect(created.status).toBe(422);
    expect(created.body.errors).toEqual({ "settings.tiktok.privacy_level": [message] });
    // An explicit null is no choice either; a chosen level is accepted.
    const none = await create(t, { ...body, settings: { tiktok: { privacy_level: null } } });
    expect(none.status).toBe(422);
    const chosen = await create(t, { ...body, settings: { tiktok: { privacy_level: "SELF_ONLY" } } });
    expect(chosen.status).toBe(201);
    // An update adding the TikTok account, or giving it settings without a level, is refused the same way.
    const twitterOnly = await create(t, { ...body, accounts: [on.twitter] });
    const id = twitterOnly.body.id;
    const added = await call("PUT", `/api/v1/posts/${id}`, {
      key: t.key,
      body: { accounts: [on.twitter, on.tiktok] },
    });
    expect(added.status).toBe(422);
    expect(added.body.errors).toEqual({ "settings.tiktok.privacy_level": [message] });
  });

  it("reports a YouTube post without a video and angle brackets, and needs no title", async () => {
    expect(
      await problemsOn("youtube", {
        content: [{ text: "Use <b>", media: [await image()] }],
        settings: { youtube: { title: "A > B" } },
      }),
    ).toEqual([
      { field: "content.0.media", message: "The content.0.media field must include a video on youtube." },
      { field: "content.0.text", message: "The content.0.text field must not contain < or > on youtube." },
      {
        field: "settings.youtube.title",
        message: "The settings.youtube.title field must not contain < or > on youtube.",
      },
    ]);
    // The adapter makes a title from the text (or the file's name) when none is set.
    expect(await problemsOn("youtube", { content: [{ text: "", media: [await video()] }] })).toEqual([]);
  });

  it("reports a Pinterest Pin without a board or with more than 5 images", async () => {
    const six = await Promise.all([1, 2, 3, 4, 5, 6].map(() => image()));
    expect(await problemsOn("pinterest", { content: [{ text: "a", media: six }] })).toEqual([
      {
        field: "content.0.media",
        message: "The content.0.media field must not have more than 5 images on pinterest.",
      },
      {
        field: "settings.pinterest.board_id",
        message: "The settings.pinterest.board_id field is required on pinterest.",
      },
    ]);
  });

  it("reports LinkedIn's one video, its smallest video, and comments that carry media or long text", async () => {
    expect(
      await problemsOn("linkedin", {
        content: [
          { text: "a", media: [await video({ size: 50 * 1024 }), await video()] },
          { text: "x".repeat(1251), media: [await image()] },
        ],
      }),
    ).toEqual([
      {
        field: "content.0.media",
        message: "The content.0.media field must not have more than 1 video on linkedin.",
      },
      {
        field: "content.0.media.0",
        message: "The content.0.media.0 field must be at least 75 KB for a video on linkedin.",
      },
      {
        field: "content.1.media",
        message:
          "The content.1.media field is prohibited on linkedin: item 2 becomes a comment, which carries text only.",
      },
      {
        field: "content.1.text",
        message:
          "The content.1.text field must not be greater than 1250 characters on linkedin: item 2 becomes a comment.",
      },
    ]);
  });

  it("reports Facebook's link beside media, a comment with a video, and a reel without a video", async () => {
    expect(
      await problemsOn("facebook", {
        content: [
          { text: "a", media: [await image()] },
          { text: "b", media: [await video()] },
        ],
        settings: { facebook: { link: "https://example.com" } },
      }),
    ).toEqual([
      {
        field: "content.1.media",
        message: "The content.1.media field must not include a video on facebook: item 2 becomes a comment.",
      },
      {
        field: "settings.facebook.link",
        message:
          "The settings.facebook.link field is prohibited when the first content item has media on facebook.",
      },
    ]);
    expect(
      await problemsOn("facebook", {
        content: [{ text: "a", media: [await image()] }],
        settings: { facebook: { post_type: "reel" } },
      }),
    ).toEqual([
      {
        field: "content.0.media",
        message: "The content.0.media field must hold exactly one video for a reel on facebook.",
      },
    ]);
  });

  it("checks an item still importing by its announced type and size (Threads)", async () => {
    const gif = await image({ mime_type: "image/gif" });
    const big = await video({ size: 1025 * MB, state: "processing", progress: 10 });
    expect(await problemsOn("threads", { content: [{ text: "a", media: [gif, big] }] })).toEqual([
      {
        field: "content.0.media.0",
        message: "The content.0.media.0 field must be a file of type image/jpeg, image/png on threads.",
      },
      {
        field: "content.0.media.1",
        message: "The content.0.media.1 field must not be greater than 1 GB for a video on threads.",
      },
    ]);
  });
});

describe("an account's problems", () => {
  const items: CheckedItem[] = [{ text: "Hi", media: [] }];
  it("names a platform the service cannot publish to", () => {
    const account = { platform: "threads" as const, expiredAt: null };
    expect(accountProblems(2, account, items, {}, { configured: () => false })).toEqual([
      {
        field: "accounts.2",
        message: "The selected accounts.2 cannot publish: threads is not configured on this service.",
      },
    ]);
    expect(accountProblems(2, account, items, {}, { configured: () => true })).toEqual([]);
  });
});

/** A file for the adapters; never opened, since every refusal comes before a byte is sent. */
const file = (kind: "image" | "video", mime: string, size: number): DraftMedia => ({
  url: "https://api.example.test/media/1?expires=1&sig=s",
  mime,
  kind,
  size,
  name: kind === "video" ? "clip.mp4" : "photo.jpg",
  open: () => Promise.reject(new Error("opened")),
});
const JPEG = (size = 100_000) => file("image", "image/jpeg", size);
const MP4 = (size = MB) => file("video", "video/mp4", size);
const GIF = (size = MB) => file("image", "image/gif", size);
const times = (n: number, make: () => DraftMedia) => Array.from({ length: n }, make);

const PLATFORM_USER: Partial<Record<Platform, string>> = { linkedin: "urn:li:person:abc" };

/** The refusal of the platform's real adapter before it sends anything (permanent), else null. */
async function adapterRefusal(
  platform: Platform,
  items: Array<{ text: string; media: DraftMedia[] }>,
  settings: object,
) {
  let calls = 0;
  const adapter = adapterFor(platform, async () => {
    calls++;
    throw new Error("no network here");
  });
  const account = {
    handle: "handle",
    platformUserId: PLATFORM_USER[platform] ?? "123",
    accessToken: "token",
  };
  try {
    await adapter.publish(account, {
      items,
      settings: settings as Record<string, unknown>,
      fingerprint: "sp-1-1",
    });
  } catch (error) {
    return calls === 0 && error instanceof PlatformError && error.kind === "permanent" ? error : null;
  }
  throw new Error(`${platform} published without a network`);
}

/** Whether the platform's real adapter refuses the draft for good before sending anything. */
const adapterRefuses = async (...args: Parameters<typeof adapterRefusal>) =>
  (await adapterRefusal(...args)) !== null;

/** The platform's check on the same draft: what the dry run reports, with the codes publishing uses. */
function checked(platform: Platform, items: Array<{ text: string; media: DraftMedia[] }>, settings: object) {
  const draftItems: CheckedItem[] = items.map((item) => ({
    text: item.text,
    media: item.media.map(({ mime, kind, size }) => ({ mime, kind, size })),
  }));
  const draft = { items: draftItems, settings: settings as Record<string, unknown> };
  // The dry run's answers are the check's, without the codes.
  expect(checkPost(platform, draft)).toEqual(
    SPECS[platform].check(draft).map(({ field, message }) => ({ field, message })),
  );
  return SPECS[platform].check(draft);
}

/** Whether the dry run refuses the same draft on `platform`. */
const rulesRefuse = (...args: Parameters<typeof checked>) => checked(...args).length > 0;

const FIRST_MEDIA: DraftMedia[][] = [
  [],
  [JPEG()],
  [JPEG(), JPEG()],
  times(5, JPEG),
  times(6, JPEG),
  times(11, JPEG),
  // More than the schema's 20 per item: only the adapters' own limits (LinkedIn, Threads) can show here.
  times(21, JPEG),
  [MP4()],
  [MP4(), MP4()],
  [MP4(), JPEG()],
  [JPEG(), MP4()],
  [...times(6, JPEG), MP4()],
];
const NEXT_ITEMS = [
  [],
  [{ text: "more", media: [] }],
  [{ text: " ", media: [JPEG()] }],
  [{ text: "x".repeat(1300), media: [] }],
  [{ text: "b", media: [MP4()] }],
  [{ text: "b", media: [JPEG(), JPEG()] }],
];
const SETTINGS: Record<Platform, object[]> = {
  twitter: [{}, { poll: { enabled: true, options: ["a", "b"], duration_minutes: 60 } }],
  linkedin: [{}],
  instagram: [{ post_type: "post" }, { post_type: "reel" }, { post_type: "story" }],
  facebook: [
    { post_type: "post" },
    { post_type: "reel" },
    { post_type: "story" },
    { link: "https://example.com" },
  ],
  threads: [{}],
  tiktok: [{ privacy_level: "SELF_ONLY" }, {}],
  youtube: [{}],
  pinterest: [{ board_id: "board-1" }, {}],
};

describe("publishing refuses by the platform's check", () => {
  for (const platform of Object.keys(SETTINGS) as Platform[]) {
    it(`refuses, on ${platform}, before any call, exactly the drafts its check refuses, with its first problem`, async () => {
      const disagreements: string[] = [];
      const seen = { refused: 0, accepted: 0 };
      for (const given of SETTINGS[platform]) {
        const settings = PLATFORM_SETTINGS[platform].parse(given);
        for (const media of FIRST_MEDIA) {
          for (const next of NEXT_ITEMS) {
            const items = [{ text: "a", media }, ...next];
            const refusal = await adapterRefusal(platform, items, settings);
            const [problem] = checked(platform, items, settings);
            const adapter = refusal !== null;
            seen[adapter ? "refused" : "accepted"]++;
            if (refusal && problem) {
              // The refusal is the check's first problem: its code, its message after the platform's name.
              expect({ code: refusal.code, message: refusal.message }).toEqual({
                code: problem.code,
                message: `${SPECS[platform].label}: ${problem.message}`,
              });
            }
            if (adapter !== (problem !== undefined)) {
              const shape = items.map((i) => `${i.text.length}:${i.media.map((m) => m.kind[0]).join("")}`);
              disagreements.push(
                `${JSON.stringify(given)} ${shape.join(" | ")}: adapter ${adapter ? "refuses" : "accepts"}`,
              );
            }
          }
        }
      }
      expect(disagreements).toEqual([]);
      // Both outcomes occur: the oracle is not stuck on one answer.
      expect(seen.refused).toBeGreaterThan(0);
      expect(seen.accepted).toBeGreaterThan(0);
    });
  }

  it("sizes and places X's files as its adapter does", async () => {
    const drafts = [
      [JPEG(5 * MB)],
      [JPEG(5 * MB + 1)],
      [GIF(15 * MB)],
      [GIF(15 * MB + 1)],
      [MP4(512 * MB)],
      [MP4(512 * MB + 1)],
      [GIF(), JPEG()],
      times(4, JPEG),
    ];
    const settings = PLATFORM_SETTINGS.twitter.parse({});
    for (const media of drafts) {
      const items = [{ text: "a", media }];
      expect(rulesRefuse("twitter", items, settings)).toBe(await adapterRefuses("twitter", items, settings));
    }
  });

  it("takes TikTok's photo types as its adapter does", async () => {
    const settings = PLATFORM_SETTINGS.tiktok.parse({ privacy_level: "SELF_ONLY" });
    for (const mime of ["image/jpeg", "image/webp", "image/png", "image/gif"]) {
      const items = [{ text: "a", media: [file("image", mime, 1000)] }];
      expect(rulesRefuse("tiktok", items, settings)).toBe(await adapterRefuses("tiktok", items, settings));
    }
  });

  it("shares the adapters' limits", () => {
    expect(SPECS.twitter.media.post.maxMedia).toBe(MAX_MEDIA_PER_POST);
    expect(SPECS.instagram.media.post.maxMedia).toBe(INSTAGRAM_CAROUSEL);
    expect(SPECS.pinterest.media.post.maxImages).toBe(PINTEREST_CAROUSEL);
    expect(SPECS.tiktok.media.post.maxBytes?.video).toBe(MAX_VIDEO_BYTES);
    expect(SPECS.linkedin.media.comment?.maxText).toBe(COMMENT_MAX);
  });
});
