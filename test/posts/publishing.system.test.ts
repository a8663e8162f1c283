// The posts API beside the publisher: PUT refuses a post being published (409) and can never race the
// publisher's claim; retry publishes only a FAILED post's failed rows again.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client";
import { updatePost } from "../../src/posts/save";
import { call } from "../support/client";
import { createPost, createTenant, inMinutes } from "../support/seed";
import { waitFor } from "../support/wait";

afterEach(() => {
  vi.restoreAllMocks();
});

const setStatus = (postId: number, status: string) =>
  env.DB.batch([
    env.DB.prepare("UPDATE posts SET status = ? WHERE id = ?").bind(status, postId),
    env.DB.prepare("UPDATE post_platforms SET status = ? WHERE post_id = ?").bind(status, postId),
  ]);

const rowsOf = async (postId: number) =>
  (
    await env.DB.prepare("SELECT * FROM post_platforms WHERE post_id = ? ORDER BY id")
      .bind(postId)
      .all<Record<string, unknown>>()
  ).results;

/** Swallows what the API sends to the publish queue; answers the bodies. */
const captureQueue = () => {
  const sent = vi.spyOn(env.PUBLISH_QUEUE, "sendBatch").mockResolvedValue(undefined as never);
  return () => sent.mock.calls.flatMap(([messages]) => [...messages].map((m) => m.body));
};

/** A database on which `change` runs right after the first batch (an update's read) answers. */
function changedAfterRead(change: () => Promise<unknown>) {
  const db = createDb(env.DB);
  const batch = db.batch.bind(db);
  let reads = 0;
  const wrapped = async (statements: Parameters<typeof batch>[0]) => {
    const results = await batch(statements);
    if (reads++ === 0) await change();
    return results;
  };
  db.batch = wrapped as unknown as typeof db.batch;
  return db;
}

describe("PUT while the publisher is at work", () => {
  it("answers 409 for a PUBLISHING post and 422 on status for a PUBLISHED one, writing nothing", async () => {
    const t = await createTenant();
    const post = await createPost(t, { content: [{ text: "Original" }] });
    await setStatus(post.id, "PUBLISHING");
    const busy = await call("PUT", `/api/v1/posts/${post.id}`, {
      key: t.key,
      body: { content: [{ text: "x" }] },
    });
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({ message: "A post cannot be edited while it is being published." });
    await setStatus(post.id, "PUBLISHED");
    const done = await call("PUT", `/api/v1/posts/${post.id}`, {
      key: t.key,
      body: { content: [{ text: "x" }] },
    });
    expect(done.status).toBe(422);
    expect(done.body.errors).toEqual({ status: ["A published post cannot be edited."] });
    const stored = await env.DB.prepare("SELECT content FROM posts WHERE id = ?")
      .bind(post.id)
      .first<{ content: string }>();
    expect(JSON.parse(stored!.content)).toEqual(["Original"]);
  });

  it("rescheduling a partly published FAILED post leaves its published rows alone (no second publication)", async () => {
    const t = await createTenant();
    const post = await createPost(t, { accounts: t.accounts.map((a) => a.id) });
    const [published, failed] = await rowsOf(post.id);
    await env.DB.batch([
      env.DB.prepare("UPDATE posts SET status = 'FAILED' WHERE id = ?").bind(post.id),
      env.DB.prepare(
        "UPDATE post_platforms SET status = 'PUBLISHED', platform_post_id = '1', post_url = 'https://x.test/1' WHERE id = ?",
      ).bind(published!.id),
      env.DB.prepare("UPDATE post_platforms SET status = 'FAILED' WHERE id = ?").bind(failed!.id),
    ]);
    const res = await call("PUT", `/api/v1/posts/${post.id}`, {
      key: t.key,
      body: { scheduled_at: inMinutes(30) },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("SCHEDULED");
    expect(res.body.platforms.map((r: { status: string }) => r.status)).toEqual(["PUBLISHED", "SCHEDULED"]);
    expect(res.body.platforms[0].platform_post_id).toBe("1");
  });

  it("edits a FAILED post", async () => {
    const t = await createTenant();
    const post = await createPost(t);
    await setStatus(post.id, "FAILED");
    const at = inMinutes(30);
    const res = await call("PUT", `/api/v1/posts/${post.id}`, { key: t.key, body: { scheduled_at: at } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("SCHEDULED");
    expect(res.body.platforms[0].status).toBe("SCHEDULED");
  });

  it("answers 409 and writes nothing when the post is claimed between the check and the write", async () => {
    const t = await createTenant();
    const post = await createPost(t, { content: [{ text: "Original" }], scheduled_at: inMinutes(30) });
    // The publisher claims the post right after the update has read it.
    const db = changedAfterRead(() =>
      env.DB.batch([
        env.DB.prepare(
          "UPDATE posts SET status = 'PUBLISHING', updated_at = updated_at + 1 WHERE id = ?",
        ).bind(post.id),
        env.DB.prepare("UPDATE post_platforms SET status = 'PUBLISHING' WHERE post_id = ?").bind(post.id),
      ]),
    );
    const ctx = { env, origin: "https://api.example.test", queue: env.PUBLISH_QUEUE };
    const update = updatePost(
      db,
      { userId: t.user.id, mode: "live" },
      post.id,
      { content: [{ text: "Edited", media: [] }], scheduled_at: null },
      ctx,
    );
    await expect(update).rejects.toMatchObject({ status: 409 });
    const stored = await env.DB.prepare("SELECT content, status FROM posts WHERE id = ?")
      .bind(post.id)
      .first<{ content: string; status: string }>();
    expect(stored).toEqual({ content: JSON.stringify(["Original"]), status: "PUBLISHING" });
    expect((await rowsOf(post.id)).map((r) => r.status)).toEqual(["PUBLISHING"]);
  });

  it("answers 409 when another update changed the post in between, and 404 when it was deleted", async () => {
    const t = await createTenant();
    const post = await createPost(t, { scheduled_at: inMinutes(30) });
    const ctx = { env, origin: "https://api.example.test", queue: env.PUBLISH_QUEUE };
    for (const [change, status] of [
      ["UPDATE posts SET updated_at = updated_at + 1 WHERE id = ?", 409],
      ["DELETE FROM posts WHERE id = ?", 404],
    ] as const) {
      const db = changedAfterRead(() => env.DB.prepare(change).bind(post.id).run());
      await expect(
        updatePost(
          db,
          { userId: t.user.id, mode: "live" },
          post.id,
          { content: [{ text: "x", media: [] }] },
          ctx,
        ),
      ).rejects.toMatchObject({ status });
    }
  });
});

describe("POST /api/v1/posts/{id}/retry", () => {
  async function partlyFailed(t: Awaited<ReturnType<typeof createTenant>>) {
    const post = await createPost(t, { accounts: t.accounts.map((a) => a.id) });
    const [twitter, linkedin] = await rowsOf(post.id);
    await env.DB.batch([
      env.DB.prepare("UPDATE posts SET status = 'FAILED' WHERE id = ?").bind(post.id),
      env.DB.prepare(
        `UPDATE post_platforms SET status = 'FAILED', attempts = 1, error = '{"code":"content_rejected","message":"Too long."}' WHERE id = ?`,
      ).bind(twitter!.id),
      env.DB.prepare(
        "UPDATE post_platforms SET status = 'PUBLISHED', attempts = 1, platform_post_id = '55', post_url = 'https://li.example/55', posted_on = '[1000]' WHERE id = ?",
      ).bind(linkedin!.id),
    ]);
    return post.id as number;
  }

  it("publishes only the failed rows again: they and the post become PUBLISHING, the error stays, it is queued", async () => {
    const t = await createTenant();
    const id = await partlyFailed(t);
    const sent = captureQueue();
    const res = await call("POST", `/api/v1/posts/${id}/retry`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("PUBLISHING");
    expect(res.body.platforms).toMatchObject([
      {
        platform: "twitter",
        status: "PUBLISHING",
        error: { code: "content_rejected", message: "Too long." },
      },
      {
        platform: "linkedin",
        status: "PUBLISHED",
        platform_post_id: "55",
        post_url: "https://li.example/55",
        error: null,
      },
    ]);
    expect(sent()).toEqual([{ post_id: id }]);
  });

  it("ends with the retried row published by the engine and the published row untouched", async () => {
    const t = await createTenant();
    const id = await partlyFailed(t);
    expect((await call("POST", `/api/v1/posts/${id}/retry`, { key: t.key })).status).toBe(200);
    const body = await waitFor(
      async () => {
        const answer = (await call("GET", `/api/v1/posts/${id}`, { key: t.key })).body;
        return answer.status === "PUBLISHING" ? undefined : answer;
      },
      { interval: 100, what: `post ${id} no longer PUBLISHING` },
    );
    expect(body.status).toBe("PUBLISHED");
    expect(body.platforms[0]).toMatchObject({
      status: "PUBLISHED",
      error: null,
      platform_post_id: expect.stringMatching(/^\d+$/),
    });
    expect(body.platforms[1]).toMatchObject({ platform_post_id: "55", posted_on: [expect.any(String)] });
    const handle = (await env.DB.prepare("SELECT username FROM accounts WHERE id = ?")
      .bind(t.accounts[1]!.id)
      .first<{ username: string }>())!.username;
    expect((await call("GET", `/sandbox/linkedin/accounts/${handle}/posts`)).body.data).toEqual([]);
  });

  it("answers 409 when there is nothing to retry, and 404 for another tenant's post", async () => {
    const t = await createTenant();
    const sent = captureQueue();
    const post = await createPost(t);
    for (const status of ["DRAFT", "SCHEDULED", "PUBLISHED"]) {
      await setStatus(post.id, status);
      const res = await call("POST", `/api/v1/posts/${post.id}/retry`, { key: t.key });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        message: "Nothing to retry: only a FAILED post's failed platform rows are published again.",
      });
    }
    await setStatus(post.id, "PUBLISHING");
    const busy = await call("POST", `/api/v1/posts/${post.id}/retry`, { key: t.key });
    expect(busy.status).toBe(409);
    expect(busy.body.message).toMatch(/being published/);

    const other = await createTenant();
    const theirs = await partlyFailed(other);
    const res = await call("POST", `/api/v1/posts/${theirs}/retry`, { key: t.key });
    expect(res.status).toBe(404);
    expect((await rowsOf(theirs)).map((r) => r.status)).toEqual(["FAILED", "PUBLISHED"]);
    expect(sent()).toEqual([]);
  });
});
