// Bulk import rows whose media are URLs: accepted at upload by the media URL import's rule, imported
// by the first commit through the media URL import (its queue downloads them: the real local queue,
// with fake origins in place of the network), and created by the commit after every item settled, in
// row order; a failed download fails only its row; nothing is started or created twice.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  bytesResponse,
  freshHost,
  htmlResponse,
  Origins,
  pageWithMeta,
  pngBytes,
  settled,
} from "../media/support";
import { call } from "../support/client";
import { expectDocumented } from "../support/contract";
import { createAccount, createTenant } from "../support/seed";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const upload = (t: Tenant, posts: unknown[]) =>
  call("POST", "/api/v1/imports", { key: t.key, body: { workspace_id: t.workspace.id, posts } });
const commit = (t: Tenant, id: string) => call("POST", `/api/v1/imports/${id}/commit`, { key: t.key });
const postCount = async (t: Tenant) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM posts WHERE workspace_id = ?")
    .bind(t.workspace.id)
    .first<{ n: number }>())!.n;
/** The media items created from a URL, oldest first. */
const itemsFrom = async (t: Tenant, url: string) =>
  (
    await env.DB.prepare("SELECT id FROM media WHERE workspace_id = ? AND source_url = ? ORDER BY id")
      .bind(t.workspace.id, new URL(url).href)
      .all<{ id: number }>()
  ).results.map((r) => r.id);
const mediaOfPost = async (t: Tenant, postId: number) =>
  (
    (await call("GET", `/api/v1/posts/${postId}`, { key: t.key })).body.content as Array<{
      media: Array<{ id: number }>;
    }>
  ).map((item) => item.media.map((m) => m.id));

/**
 * An image at `url`: the commit's resolution reads its first bytes at once; the queue's download waits
 * until `release()` (so a test sees the import waiting for it), or fails with `status`.
 */
function image(origins: Origins, url: string, download: { status?: number } = {}) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let hits = 0;
  origins.on(url, async () => {
    if (hits++ === 0) return bytesResponse(pngBytes(3000), "image/png");
    await gate;
    return download.status
      ? new Response("gone", { status: download.status })
      : bytesResponse(pngBytes(3000), "image/png");
  });
  return { release };
}

let origins: Origins;
beforeEach(() => {
  origins = new Origins();
  origins.install();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("media URLs in an import", () => {
  it("are valid at upload when the media URL import accepts them; a private address is refused", async () => {
    const t = await createTenant();
    const [twitter] = t.accounts.map((a) => a.id);
    const res = await upload(t, [
      { accounts: [twitter], content: [{ media: [`${freshHost()}/a.png`] }] },
      { accounts: [twitter], content: [{ text: "x", media: ["http://10.0.0.7/a.png"] }] },
      { accounts: [twitter], content: [{ text: "x", media: ["http://[::1]/a.png"] }] },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(
      res.body.rows.map((r: { problems: Array<{ field: string; code: string }> }) => r.problems),
    ).toEqual([
      [],
      [expect.objectContaining({ field: "content.0.media.0", code: "media_url_refused" })],
      [expect.objectContaining({ field: "content.0.media.0", code: "media_url_refused" })],
    ]);
    // Nothing fetched at upload.
    expect(origins.requested).toEqual([]);
  });

  it("stand in for the media a platform needs until the commit checks the real ones", async () => {
    const t = await createTenant();
    const instagram = (await createAccount(t.workspace.id, "instagram")).id;
    const res = await upload(t, [
      { accounts: [instagram], content: [{ media: [`${freshHost()}/a.jpg`] }] },
      { accounts: [instagram], content: [{ text: "no media" }] },
      { accounts: [instagram], content: [{ text: 5, media: [`${freshHost()}/a.jpg`] }] },
    ]);
    const problems = res.body.rows.map((r: { problems: Array<{ field: string }> }) =>
      r.problems.map((p) => p.field),
    );
    expect(problems[0]).toEqual([]);
    expect(problems[1]).toContain("content.0.media");
    expect(problems[2]).toEqual(["content.0.text"]);
  });

  it("are imported by the commit, which then creates the posts with them, in row order", async () => {
    const t = await createTenant();
    const [twitter] = t.accounts.map((a) => a.id);
    const url = `${freshHost()}/photo.png`;
    const origin = image(origins, url);
    const res = await upload(t, [
      { accounts: [twitter], content: [{ text: "first" }] },
      { accounts: [twitter], content: [{ text: "with media", media: [url] }] },
      { accounts: [twitter], content: [{ text: "third" }] },
    ]);
    expect(res.body).toMatchObject({ valid: 3, invalid: 0 });
    const before = await postCount(t);

    const first = await commit(t, res.body.id);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expectDocumented("POST", "/api/v1/imports/{id}/commit", first);
    expect(first.body).toMatchObject({
      status: "importing_media",
      remaining: 3,
      created: [],
      media: { ready: 0, failed: 0, pending: 1 },
    });
    const [item] = await itemsFrom(t, url);
    const got = await call("GET", `/api/v1/imports/${res.body.id}`, { key: t.key });
    expectDocumented("GET", "/api/v1/imports/{id}", got);
    expect(got.body).toMatchObject({ status: "importing_media", media: { pending: 1 } });
    // Asked again while the download runs: the same answer, nothing created.
    expect((await commit(t, res.body.id)).body.status).toBe("importing_media");
    expect(await postCount(t)).toBe(before);

    origin.release();
    await settled([item!]);
    const done = await commit(t, res.body.id);
    expect(done.body).toMatchObject({ status: "committed", remaining: 0, failed: [], media: { ready: 1 } });
    expect(done.body.created.map((c: { row: number }) => c.row)).toEqual([1, 2, 3]);
    const ids = done.body.created.map((c: { post_id: number }) => c.post_id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(await mediaOfPost(t, ids[1])).toEqual([[item]]);
    expect(await postCount(t)).toBe(before + 3);
  });

  it("fail only their own row when a download fails or a URL gives no media", async () => {
    const t = await createTenant();
    const [twitter] = t.accounts.map((a) => a.id);
    const host = freshHost();
    const good = image(origins, `${host}/good.png`);
    const bad = image(origins, `${host}/bad.png`, { status: 404 });
    const page = `${host}/post`;
    origins.on(page, () =>
      htmlResponse(
        pageWithMeta([
          ["og:image", `${host}/second.png`],
          ["og:image", `${host}/third.png`],
        ]),
      ),
    );
    origins.on(`${host}/second.png`, () => bytesResponse(pngBytes(1000), "image/png"));
    origins.on(`${host}/third.png`, () => bytesResponse(pngBytes(1200), "image/png"));
    const res = await upload(t, [
      { accounts: [twitter], content: [{ text: "good", media: [`${host}/good.png`] }] },
      { accounts: [twitter], content: [{ text: "bad", media: [`${host}/bad.png`] }] },
      { accounts: [twitter], content: [{ text: "nothing there", media: [`${host}/missing.png`] }] },
      { accounts: [twitter], content: [{ text: "a page", media: [page] }] },
      { accounts: [twitter], content: [{ text: "good again", media: [`${host}/good.png`] }] },
    ]);
    expect(res.body).toMatchObject({ valid: 5 });
    const first = await commit(t, res.body.id);
    expect(first.body).toMatchObject({ status: "importing_media", media: { failed: 1 } });
    good.release();
    bad.release();
    // A URL named by two rows is imported once; a page gives its images in document order.
    const [goodItem, ...again] = await itemsFrom(t, `${host}/good.png`);
    expect(again).toEqual([]);
    const second = (await itemsFrom(t, `${host}/second.png`))[0]!;
    const third = (await itemsFrom(t, `${host}/third.png`))[0]!;
    const badItem = (await itemsFrom(t, `${host}/bad.png`))[0]!;
    await settled([goodItem!, second, third, badItem]);
    const done = await commit(t, res.body.id);
    expect(done.body).toMatchObject({ status: "committed", media: { ready: 3, failed: 2, pending: 0 } });
    expect(done.body.created.map((c: { row: number }) => c.row)).toEqual([1, 4, 5]);
    const [one, four, five] = done.body.created.map((c: { post_id: number }) => c.post_id);
    expect(await mediaOfPost(t, one)).toEqual([[goodItem]]);
    expect(await mediaOfPost(t, four)).toEqual([[second, third]]);
    expect(await mediaOfPost(t, five)).toEqual([[goodItem]]);
    expect(done.body.failed).toEqual([
      {
        row: 2,
        problems: [expect.objectContaining({ field: "content.0.media.0", code: "media_import_failed" })],
      },
      {
        row: 3,
        problems: [expect.objectContaining({ field: "content.0.media.0", code: "media_import_failed" })],
      },
    ]);
    expect(done.body.failed[0].problems[0].message).toContain("origin answered 404");
  });

  it("in a CSV row: a URL that gives nothing fails its row at once, the others are created", async () => {
    const t = await createTenant();
    const [twitter] = t.accounts.map((a) => a.id);
    const url = `${freshHost()}/gone.png`;
    const res = await call("POST", `/api/v1/imports?workspace_id=${t.workspace.id}`, {
      key: t.key,
      rawBody: `accounts,text,media\n${twitter},plain,\n${twitter},,${url}\n`,
      headers: { "content-type": "text/csv" },
    });
    expect(res.body).toMatchObject({ valid: 2, invalid: 0 });
    // Nothing to wait for: the first commit goes straight on.
    const done = await commit(t, res.body.id);
    expect(done.body).toMatchObject({
      status: "committed",
      created: [{ row: 1 }],
      failed: [{ row: 2, problems: [{ field: "media", code: "media_import_failed" }] }],
      media: { ready: 0, failed: 1, pending: 0 },
    });
  });

  it("are started once by racing commits, and by a commit taking over one that died", async () => {
    const t = await createTenant();
    const [twitter] = t.accounts.map((a) => a.id);
    const url = `${freshHost()}/race.png`;
    const origin = image(origins, url);
    const res = await upload(t, [{ accounts: [twitter], content: [{ text: "raced", media: [url] }] }]);
    const before = await postCount(t);
    const answers = await Promise.all([commit(t, res.body.id), commit(t, res.body.id)]);
    for (const a of answers) expect(a.body.status, JSON.stringify(a.body)).toBe("importing_media");
    expect(await itemsFrom(t, url)).toHaveLength(1);

    // A commit that died holding the claim after recording the items: the next one takes over (after
    // the lease) and starts nothing again.
    await env.DB.prepare("UPDATE imports SET status = 'committing', claimed_at = 0 WHERE id = ?")
      .bind(res.body.id)
      .run();
    expect((await commit(t, res.body.id)).body.status).toBe("importing_media");
    expect(await itemsFrom(t, url)).toHaveLength(1);

    origin.release();
    await settled(await itemsFrom(t, url));
    const done = await Promise.all([commit(t, res.body.id), commit(t, res.body.id)]);
    for (const a of done) expect(a.body).toMatchObject({ status: "committed", created: [{ row: 1 }] });
    expect(await postCount(t)).toBe(before + 1);
    // One resolution, one download.
    expect(origins.hits(url)).toBe(2);
  });
});
