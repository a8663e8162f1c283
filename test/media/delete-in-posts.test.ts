// Deleting a media item that posts use (DELETE /api/v1/media/{id}): a published post keeps showing what
// it published; a post not yet published (SCHEDULED, PUBLISHING) makes the delete a 409; a draft loses it.
import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { d1Of, insertMedia, publishRows } from "../support/db";
import { createPost, createTenant, inMinutes } from "../support/seed";
import { fetchLink } from "./support";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const getPost = async (t: Tenant, id: number) =>
  (await call("GET", `/api/v1/posts/${id}`, { key: t.key })).body;
const summaries = (post: { content: Array<{ media: Array<Record<string, unknown>> }> }) =>
  post.content.map((item) => item.media.map(({ url: _url, ...summary }) => summary));

describe("deleting a media item used by posts", () => {
  it("keeps it in a published post; a draft loses it", async () => {
    const t = await createTenant();
    const mediaId = await insertMedia(t.workspace.id, { name: "launch.jpg", size: 4321 });
    const content = [{ text: "Launch", media: [mediaId] }];
    const published = await createPost(t, { content });
    await publishRows(published.id, { impressions: 10 }, Date.UTC(2026, 10, 20, 9));
    const draft = await createPost(t, { content });
    const before = await getPost(t, published.id);
    expect(summaries(before)).toEqual([
      [{ id: mediaId, name: "launch.jpg", type: "image/jpeg", size: 4321 }],
    ]);

    const res = await call("DELETE", `/api/v1/media/${mediaId}`, { key: t.key });
    expect(res.status).toBe(200);

    const after = await getPost(t, published.id);
    expect(summaries(after)).toEqual(summaries(before));
    expect({ ...after, content: null }).toEqual({ ...before, content: null });
    // Its link no longer serves.
    expect((await fetchLink(after.content[0].media[0].url)).status).toBe(404);
    expect(summaries(await getPost(t, draft.id))).toEqual([[]]);
    // The item is gone from the library.
    expect((await call("DELETE", `/api/v1/media/${mediaId}`, { key: t.key })).status).toBe(404);
  });

  it("refuses (409) while a scheduled or publishing post uses it, and changes nothing", async () => {
    const t = await createTenant();
    const mediaId = await insertMedia(t.workspace.id);
    const content = [{ text: "Soon", media: [mediaId] }];
    const scheduled = await createPost(t, { content, scheduled_at: inMinutes(60) });
    const shown = await getPost(t, scheduled.id);

    const res = await call("DELETE", `/api/v1/media/${mediaId}`, { key: t.key });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/scheduled or publishing; remove it/);
    expect(await getPost(t, scheduled.id)).toEqual(shown);

    // Being published: also a 409.
    const d1 = d1Of(t.workspace.id);
    await d1.batch([
      d1.prepare("UPDATE posts SET status = 'PUBLISHING' WHERE id = ?").bind(scheduled.id),
      d1.prepare("UPDATE post_platforms SET status = 'PUBLISHING' WHERE post_id = ?").bind(scheduled.id),
    ]);
    expect((await call("DELETE", `/api/v1/media/${mediaId}`, { key: t.key })).status).toBe(409);

    // Published: the delete goes through, and the post keeps it.
    await publishRows(scheduled.id, {}, Date.now());
    const published = await getPost(t, scheduled.id);
    expect((await call("DELETE", `/api/v1/media/${mediaId}`, { key: t.key })).status).toBe(200);
    expect(summaries(await getPost(t, scheduled.id))).toEqual(summaries(published));
  });
});
