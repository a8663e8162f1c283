// The inbox's actions end to end on the five other platforms with comment calls (X's own cases:
// actions.test.ts), through the routes and the real adapters on the emulators: a follower's comment
// played on a published post, synced, offers the platform's actions; the reply is published under it and
// listed once after the next sync, with no comment.received; hide and unhide, and delete, reach the
// platform or answer the 422 with its sentence. Then the lost answer of a reply to a reply on LinkedIn,
// which files it under the thread's top comment, adopted by the sync and by the retry, and the delete of
// such a reply, which names that top comment's collection; and TikTok's stored comment, whose every
// action is a 422.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Platform } from "../../src/db/enums";
import { deliver as deliverSync } from "../analytics/queue";
import { mp4Bytes } from "../media/support";
import { uploadMedia } from "../platforms/live/harness";
import { adapterFor, type Connected, connected, emulatedDeps, follow, published } from "../sandbox/support";
import { call } from "../support/client";
import { insertComment, insertMedia } from "../support/db";
import { createAccount, createPost, createTenant } from "../support/seed";

type Listed = Record<string, any>;

/** What the post needs on each platform (a photo on Instagram, a public video on YouTube). */
async function postOn(
  platform: Platform,
  account: Connected,
  text: string,
): Promise<Record<string, unknown>> {
  if (platform === "instagram") {
    const photo = await insertMedia(account.workspace.id, { mime_type: "image/jpeg" });
    return { content: [{ text, media: [photo] }] };
  }
  if (platform === "youtube") {
    const clip = await uploadMedia(
      { accountId: account.accountId, tenant: { key: account.key, workspace: account.workspace } } as never,
      "clip.mp4",
      "video/mp4",
      mp4Bytes(64 * 1024),
    );
    return { content: [{ text, media: [clip] }], settings: { youtube: { privacy_status: "public" } } };
  }
  return { content: [{ text }] };
}

/**
 * A published post of a fresh account of `platform` with Fan One's comment on it (and, with `nested`,
 * fan_two's answer to it), synced into the inbox. The account's handle and id are the stored ones (a
 * Facebook Page's own, not its user's).
 */
async function commented(platform: Platform, nested = false) {
  const owner = await connected(platform);
  const stored = (await env.DB.prepare("SELECT username, platform_user_id FROM accounts WHERE id = ?")
    .bind(owner.accountId)
    .first<{ username: string; platform_user_id: string }>())!;
  const account = { ...owner, handle: stored.username, platformId: stored.platform_user_id };
  const fields = await postOn(platform, account, `Ask me anything ${crypto.randomUUID()}`);
  const { rows } = await published(account, fields, 1, emulatedDeps());
  const row = rows[0]!;
  expect(row.status).toBe("PUBLISHED");
  const fan = await follow(platform, account.handle, {
    post_id: row.platform_post_id!,
    text: "When is the next one?",
    author: { name: "Fan One", username: "fan_one" },
  });
  expect(fan.status, JSON.stringify(fan.body)).toBe(201);
  const answer = nested
    ? await follow(platform, account.handle, {
        post_id: row.platform_post_id!,
        text: "Me too",
        author: "fan_two",
        parent_id: fan.body.id,
      })
    : undefined;
  if (answer) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  expect((await deliverSync([row.id])).retryMessages).toEqual([]);
  const listed = await inbox(account);
  const comment = listed.find((c) => c.platform_comment_id === fan.body.id)!;
  expect(comment, JSON.stringify(listed)).toBeDefined();
  const nestedComment = answer ? listed.find((c) => c.platform_comment_id === answer.body.id) : undefined;
  return { account, row, comment, nested: nestedComment };
}

async function inbox(account: Connected): Promise<Listed[]> {
  const listed = await call("GET", `/api/v1/comments?account_id=${account.accountId}&per_page=100`, {
    key: account.key,
  });
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  return listed.body.data;
}

const reply = (account: Connected, id: number, text: string) =>
  call("POST", `/api/v1/comments/${id}/replies`, { key: account.key, body: { text } });
const act = (account: Connected, id: number, action: "hide" | "unhide" | "delete") =>
  action === "delete"
    ? call("DELETE", `/api/v1/comments/${id}`, { key: account.key })
    : call("POST", `/api/v1/comments/${id}/${action}`, { key: account.key });

/** The post's comments as the platform answers them, through the real adapter. */
async function onPlatform(platform: Platform, account: Connected, postId: string) {
  const { adapter, auth } = await adapterFor(platform, account);
  return adapter.comments!(auth, postId);
}

const rowsOf = async (postId: number) =>
  (
    await env.DB.prepare(
      "SELECT id, platform_comment_id, parent_id, is_own, content, deleted_at FROM comments WHERE post_id = ?",
    )
      .bind(postId)
      .all<Record<string, any>>()
  ).results;

const platformParentOf = async (id: number) =>
  (await env.DB.prepare("SELECT platform_parent_id AS parent FROM comments WHERE id = ?")
    .bind(id)
    .first<{ parent: string | null }>())!.parent;

const receivedFor = async (id: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM outbox WHERE type = 'comment.received' AND record_id = ?")
    .bind(id)
    .first<{ n: number }>())!.n;

type Case = {
  platform: Platform;
  /** The actions on a follower's top-level comment, and on the account's reply to it. */
  follower: string[];
  own: string[];
  /** The 422's sentence for hiding, and for deleting a follower's comment; null where allowed. */
  hide: string | null;
  deleteFollower: string | null;
};

const CASES: Case[] = [
  {
    platform: "facebook",
    follower: ["reply", "hide", "delete"],
    own: ["reply", "delete"],
    hide: null,
    deleteFollower: null,
  },
  {
    platform: "instagram",
    follower: ["reply", "hide", "delete"],
    // Instagram answers top-level comments only, and always shows the account's own.
    own: ["delete"],
    hide: null,
    deleteFollower: null,
  },
  {
    platform: "threads",
    follower: ["reply", "hide"],
    // Threads hides top-level replies only.
    own: ["reply", "delete"],
    hide: null,
    deleteFollower: "Threads deletes only the account's own posts and replies; hide this reply instead.",
  },
  {
    platform: "linkedin",
    follower: ["reply"],
    own: ["reply", "delete"],
    hide: "LinkedIn lets no app hide comments.",
    deleteFollower: "LinkedIn lets an app delete only the account's own comments.",
  },
  {
    platform: "youtube",
    follower: ["reply", "hide"],
    own: ["reply", "hide", "delete"],
    hide: null,
    deleteFollower: "YouTube lets only a comment's author delete it; hide the comment instead.",
  },
];

describe.each(CASES)("comment actions on $platform", ({ platform, follower, own, hide, deleteFollower }) => {
  it("offers the platform's actions, publishes a reply under the comment and lists it once after a sync", async () => {
    const { account, row, comment } = await commented(platform);
    expect(comment.actions).toEqual(follower);
    const answered = await reply(account, comment.id, "Next week!");
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
    const platformId = answered.body.platform_comment_id as string;
    expect(answered.body).toMatchObject({
      content: "Next week!",
      is_own: true,
      parent_id: comment.id,
      post_id: comment.post_id,
      actions: own,
    });
    const read = await onPlatform(platform, account, row.platform_post_id!);
    expect(read.filter((c) => c.content === "Next week!")).toMatchObject([
      { id: platformId, parent_id: comment.platform_comment_id, is_own: true },
    ]);
    // The next sync reads it back: one row, under its parent, and no comment.received.
    expect((await deliverSync([row.id])).retryMessages).toEqual([]);
    const listed = (await inbox(account)).filter((c) => c.platform_comment_id === platformId);
    expect(listed).toMatchObject([
      { id: answered.body.id, parent_id: comment.id, is_own: true, actions: own },
    ]);
    expect((await rowsOf(comment.post_id)).filter((r) => r.is_own)).toHaveLength(1);
    expect(await receivedFor(answered.body.id)).toBe(0);
  });

  it("hides and shows a follower's comment, or refuses; deletes the account's reply, and a follower's comment or refuses", async () => {
    const { account, row, comment } = await commented(platform);
    const postId = row.platform_post_id!;
    const hidden = await act(account, comment.id, "hide");
    if (hide === null) {
      expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
      expect(hidden.body).toMatchObject({ id: comment.id, hidden: true });
      expect(
        (await onPlatform(platform, account, postId)).find((c) => c.id === comment.platform_comment_id),
      ).toMatchObject({ hidden: true });
      // The sync keeps it hidden (from the platform's read, or where that says nothing, the inbox's).
      expect((await deliverSync([row.id])).retryMessages).toEqual([]);
      expect((await inbox(account)).find((c) => c.id === comment.id)).toMatchObject({ hidden: true });
      const shown = await act(account, comment.id, "unhide");
      expect(shown.status, JSON.stringify(shown.body)).toBe(200);
      expect(shown.body.hidden).toBe(false);
      expect(
        (await onPlatform(platform, account, postId)).find((c) => c.id === comment.platform_comment_id),
      ).toMatchObject({ hidden: false });
    } else {
      expect(hidden.status).toBe(422);
      expect(hidden.body.errors).toEqual({ action: [hide] });
      expect((await act(account, comment.id, "unhide")).body.errors).toEqual({ action: [hide] });
    }

    const answered = await reply(account, comment.id, "Oops, wrong thread");
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
    expect(await platformParentOf(answered.body.id)).toBe(comment.platform_comment_id);
    const deleted = await act(account, answered.body.id, "delete");
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const after = await onPlatform(platform, account, postId);
    expect(after.map((c) => c.id)).not.toContain(answered.body.platform_comment_id);
    expect((await inbox(account)).map((c) => c.id)).not.toContain(answered.body.id);

    const theirs = await act(account, comment.id, "delete");
    if (deleteFollower === null) {
      expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
      expect((await onPlatform(platform, account, postId)).map((c) => c.id)).not.toContain(
        comment.platform_comment_id,
      );
      expect((await inbox(account)).map((c) => c.id)).not.toContain(comment.id);
    } else {
      expect(theirs.status).toBe(422);
      expect(theirs.body.errors).toEqual({ action: [deleteFollower] });
      expect((await onPlatform(platform, account, postId)).map((c) => c.id)).toContain(
        comment.platform_comment_id,
      );
    }
  });
});

describe("a reply to an answer whose platform answer was lost, on LinkedIn (one level of nesting)", () => {
  it("is adopted by the sync and by the retry, although LinkedIn files it under the thread's top comment", async () => {
    const { account, row, comment, nested } = await commented("linkedin", true);
    expect(nested).toMatchObject({ parent_id: comment.id, actions: ["reply"] });
    const postId = row.platform_post_id!;
    const mine = (text: string) =>
      onPlatform("linkedin", account, postId).then((read) => read.filter((c) => c.content === text));

    // Lost, then a sync: the pending row takes the platform's id, under the answer it replied to.
    const text = "Lost on the way #sandbox-lost";
    const lost = await reply(account, nested!.id, text);
    expect(lost.status, JSON.stringify(lost.body)).toBe(409);
    const [published] = await mine(text);
    expect(published).toMatchObject({ parent_id: comment.platform_comment_id, is_own: true });
    const pending = (await rowsOf(comment.post_id)).filter((r) => r.is_own && r.platform_comment_id === null);
    expect(pending).toHaveLength(1);
    expect((await deliverSync([row.id])).retryMessages).toEqual([]);
    expect((await rowsOf(comment.post_id)).filter((r) => r.content === text)).toMatchObject([
      { id: pending[0]!.id, platform_comment_id: published!.id, parent_id: nested!.id },
    ]);
    expect(await receivedFor(pending[0]!.id)).toBe(0);

    // Lost, then the same reply again: it finds the published one instead of publishing a second.
    const text2 = "Lost again #sandbox-lost";
    expect((await reply(account, nested!.id, text2)).status).toBe(409);
    const retried = await reply(account, nested!.id, text2);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    const again = await mine(text2);
    expect(again).toHaveLength(1);
    expect(retried.body).toMatchObject({ platform_comment_id: again[0]!.id, parent_id: nested!.id });
    // Stored where LinkedIn filed it (its delete names that collection), still listed under the answer.
    expect(await platformParentOf(retried.body.id)).toBe(comment.platform_comment_id);
    expect((await deliverSync([row.id])).retryMessages).toEqual([]);
    expect((await rowsOf(comment.post_id)).filter((r) => r.content === text2)).toHaveLength(1);
    expect(await receivedFor(retried.body.id)).toBe(0);
  });

  it("deletes the account's reply to an answer where LinkedIn filed it, before any sync", async () => {
    const { account, row, comment, nested } = await commented("linkedin", true);
    const answered = await reply(account, nested!.id, "Wrong thread");
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
    expect(await platformParentOf(answered.body.id)).toBe(comment.platform_comment_id);
    const deleted = await act(account, answered.body.id, "delete");
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const after = await onPlatform("linkedin", account, row.platform_post_id!);
    expect(after.map((c) => c.id)).not.toContain(answered.body.platform_comment_id);
    expect(after.map((c) => c.id)).toContain(comment.platform_comment_id);
  });
});

describe("a comment on a platform with no comment management (TikTok)", () => {
  it("offers no action, and each is a 422 that says so", async () => {
    const t = await createTenant();
    const tiktok = await createAccount(t.workspace.id, "tiktok");
    const post = await createPost(t, {
      accounts: [tiktok.id],
      content: [{ text: "Dance" }],
      settings: { tiktok: { privacy_level: "SELF_ONLY" } },
    });
    // TikTok has no comment read either: the row is stored directly.
    const id = await insertComment(post.id, {
      platform: "tiktok",
      account_id: tiktok.id,
      platform_comment_id: "7301",
    });
    const listed = await call("GET", `/api/v1/comments?account_id=${tiktok.id}`, { key: t.key });
    expect(listed.body.data).toMatchObject([{ id, platform: "tiktok", actions: [] }]);
    const account = { key: t.key } as Connected;
    for (const [answer, verb] of [
      [await reply(account, id, "Thanks!"), "answer"],
      [await act(account, id, "hide"), "hide"],
      [await act(account, id, "unhide"), "hide"],
      [await act(account, id, "delete"), "delete"],
    ] as const) {
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toEqual({ action: [`TikTok lets no app ${verb} comments.`] });
    }
  });
});
