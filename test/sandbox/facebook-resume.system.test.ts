import { describe, expect, it } from "vitest";
import { deliver, handleOf, publishingPost, rowsOf } from "../publishing/support";
import { call } from "../support/client";
import { insertMedia } from "../support/db";
import { createAccount, createTenant } from "../support/seed";
import { emulatedDeps } from "./support";

async function pageTenant() {
  const t = await createTenant();
  const page = await createAccount(t.workspace.id, "facebook");
  return { ...t, accounts: [page, ...t.accounts] } as typeof t;
}

const sandbox = async (handle: string, what: "posts" | "stats") =>
  (await call("GET", `/sandbox/facebook/accounts/${encodeURIComponent(handle)}/${what}`)).body;

/** Delivers the post until its row is no longer PUBLISHING (a transient fault retries). */
async function deliveredUntilDone(postId: number) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    await deliver([{ post_id: postId }], { attempts: attempt });
    const [row] = await rowsOf(postId);
    if (row!.status !== "PUBLISHING") return { row: row!, attempts: attempt };
  }
  throw new Error("still publishing after 5 attempts");
}

describe("Facebook: what was uploaded is kept between attempts", () => {
  it("a multi-photo post whose feed post fails twice attaches the photos uploaded the first time", async () => {
    const t = await pageTenant();
    const a = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const b = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const id = await publishingPost(t, { content: [{ text: "Two views #sandbox-flaky", media: [a, b] }] });
    const done = await deliveredUntilDone(id);
    expect(done).toMatchObject({ row: { status: "PUBLISHED" }, attempts: 3 });
    const handle = await handleOf(t.accounts[0]!.id);
    const posts = await sandbox(handle, "posts");
    expect(posts.data).toHaveLength(1);
    expect(posts.data[0].media).toHaveLength(2);
    expect(await sandbox(handle, "stats")).toMatchObject({ publications: 1, media_uploads: 2 });
  });

  it("a reel whose finish fails twice finishes the upload session started the first time", async () => {
    const t = await pageTenant();
    const clip = await insertMedia(t.workspace.id, { mime_type: "video/mp4", type: "video" });
    const id = await publishingPost(t, {
      content: [{ text: "Reel #sandbox-flaky", media: [clip] }],
      settings: { facebook: { post_type: "reel" } },
    });
    const done = await deliveredUntilDone(id);
    expect(done).toMatchObject({ row: { status: "PUBLISHED" }, attempts: 3 });
    const handle = await handleOf(t.accounts[0]!.id);
    expect((await sandbox(handle, "posts")).data).toHaveLength(1);
    expect(await sandbox(handle, "stats")).toMatchObject({ publications: 1, media_uploads: 1 });
  });
});

const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : String(input));
const formOf = (init?: RequestInit) => new URLSearchParams(String(init?.body ?? ""));

/** Lets the request that `matches` reach Facebook, then loses its answer as a dropped connection would. */
const losingAnswerOf = (matches: (url: URL, form: URLSearchParams) => boolean) =>
  emulatedDeps({
    wrap: (inner) => async (input, init) => {
      const url = new URL(urlOf(input));
      if ((init?.method ?? "GET") !== "POST" || !matches(url, formOf(init))) return inner(input, init);
      await inner(input, init);
      throw new TypeError("Network connection lost.");
    },
  });

describe("Facebook: a lost final answer is reconciled by what was recorded", () => {
  it("a multi-photo post with no text whose feed post answer is lost is found by its photos, not mistaken for another", async () => {
    const t = await pageTenant();
    const a = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const b = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const id = await publishingPost(t, { content: [{ text: "", media: [a, b] }] });
    const lost = losingAnswerOf((url) => url.pathname.endsWith("/feed"));
    await deliver([{ post_id: id }], { attempts: 1, deps: lost });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING" });
    const handle = await handleOf(t.accounts[0]!.id);
    const [album] = (await sandbox(handle, "posts")).data;
    expect(album.media).toHaveLength(2);

    // Before the retry, another post with no text (a captionless photo) is published on the Page.
    const c = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const other = await publishingPost(t, { content: [{ text: "", media: [c] }] });
    await deliver([{ post_id: other }]);
    expect((await rowsOf(other))[0]).toMatchObject({ status: "PUBLISHED" });

    await deliver([{ post_id: id }], { attempts: 2 });
    const [row] = await rowsOf(id);
    const posts = (await sandbox(handle, "posts")).data;
    expect(posts).toHaveLength(2);
    expect(posts.filter((p: { media: unknown[] }) => p.media.length === 2)).toHaveLength(1);
    expect(row).toMatchObject({ status: "PUBLISHED", platform_post_id: album.id });
    expect(await sandbox(handle, "stats")).toMatchObject({ publications: 2, media_uploads: 3 });
  });

  it("a single photo with no caption whose post answer is lost is found by its recorded photo, published once", async () => {
    const t = await pageTenant();
    const a = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const id = await publishingPost(t, { content: [{ text: "", media: [a] }] });
    const lost = losingAnswerOf((url) => url.pathname.endsWith("/feed"));
    await deliver([{ post_id: id }], { attempts: 1, deps: lost });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING" });
    const handle = await handleOf(t.accounts[0]!.id);
    const [photo] = (await sandbox(handle, "posts")).data;

    // Before the retry, another captionless photo is published on the Page.
    const b = await insertMedia(t.workspace.id, { mime_type: "image/jpeg" });
    const other = await publishingPost(t, { content: [{ text: "", media: [b] }] });
    await deliver([{ post_id: other }]);
    expect((await rowsOf(other))[0]).toMatchObject({ status: "PUBLISHED" });

    await deliver([{ post_id: id }], { attempts: 2 });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: photo.id });
    expect((await rowsOf(other))[0]!.platform_post_id).not.toBe(photo.id);
    expect((await sandbox(handle, "posts")).data).toHaveLength(2);
  });

  it("a reel whose finish answer is lost is found by its session's video id, not by a post of the same text", async () => {
    const t = await pageTenant();
    const clip = await insertMedia(t.workspace.id, { mime_type: "video/mp4", type: "video" });
    const id = await publishingPost(t, {
      content: [{ text: "Kneading, in 30 seconds", media: [clip] }],
      settings: { facebook: { post_type: "reel" } },
    });
    const lost = losingAnswerOf(
      (url, form) => url.pathname.endsWith("/video_reels") && form.get("upload_phase") === "finish",
    );
    await deliver([{ post_id: id }], { attempts: 1, deps: lost });
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING" });
    const handle = await handleOf(t.accounts[0]!.id);
    const [reel] = (await sandbox(handle, "posts")).data;

    // Before the retry, a text post with the same words is published on the Page.
    const other = await publishingPost(t, { content: [{ text: "Kneading, in 30 seconds" }] });
    await deliver([{ post_id: other }]);
    expect((await rowsOf(other))[0]).toMatchObject({ status: "PUBLISHED" });

    await deliver([{ post_id: id }], { attempts: 2 });
    const [row] = await rowsOf(id);
    expect((await sandbox(handle, "posts")).data).toHaveLength(2);
    expect(row).toMatchObject({ status: "PUBLISHED", platform_post_id: reel.id });
    expect(await sandbox(handle, "stats")).toMatchObject({ publications: 2, media_uploads: 1 });
  });
});
