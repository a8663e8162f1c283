// Facebook Page publications retried after a fault (ARCHITECTURE "Publishing"), on the emulator through
// the real queue consumer: what Facebook hands out before the final call (the unpublished photos of a
// multi-photo post, a reel's upload session) is recorded as it exists, and the next attempt attaches the
// same photos and finishes the same session: uploaded once, published once.
import { describe, expect, it } from "vitest";
import { deliver, handleOf, publishingPost, rowsOf } from "../publishing/support";
import { call } from "../support/client";
import { insertMedia } from "../support/db";
import { createAccount, createTenant } from "../support/seed";

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
