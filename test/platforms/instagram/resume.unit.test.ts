// Instagram publications resumed from what an earlier attempt recorded, against recorded answers: the
// recorded container is polled and published (no quota check, no new container), a container recorded as
// made and found PUBLISHED is reconciled without publishing, an expired one is replaced, and a container
// still IN_PROGRESS at the attempt's deadline ends the attempt with it kept.
import { describe, expect, it } from "vitest";
import { memoryProgress } from "../../../src/platforms/progress";
import { json, mediaOf, replay } from "../replay";
import { MEDIA_ID, RECORDED } from "./recorded";
import { account, draftOf, expectGet, expectPost, GRAPH, publishingWith } from "./support";

const image = (fill: number) => mediaOf({ mime: "image/jpeg", kind: "image" }, fill).media;
const status = { fields: "status_code,status" };

describe("instagram resume", () => {
  it("records the container at once; a later attempt polls and publishes the same one", async () => {
    const progress = memoryProgress();
    const first = replay(
      json(RECORDED.quota(2)),
      json(RECORDED.container("c1")),
      ...Array.from({ length: 12 }, () => json(RECORDED.status("c1", "IN_PROGRESS"))),
    );
    const failure = publishingWith(first.fetch).publishing.publish(account, {
      ...draftOf([{ text: "Slow", media: [image(1)] }]),
      progress,
    });
    await expect(failure).rejects.toMatchObject({ code: "still_processing", retryAfterSeconds: 60 });
    expect(progress.values.instagram).toMatchObject({ container: "c1" });

    const second = replay(
      json(RECORDED.status("c1", "FINISHED")),
      json(RECORDED.published),
      json(RECORDED.permalink),
    );
    const post = await publishingWith(second.fetch).publishing.publish(account, {
      ...draftOf([{ text: "Slow", media: [image(1)] }]),
      progress,
    });
    expect(post.id).toBe(MEDIA_ID);
    expectGet(second.requests[0]!, `${GRAPH}/c1`, status);
    await expectPost(second.requests[1]!, `${GRAPH}/${account.platformUserId}/media_publish`, {
      creation_id: "c1",
    });
    expect(progress.values.instagram).toMatchObject({ container: "c1", media: MEDIA_ID });
  });

  it("stops polling at the attempt's deadline", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.quota(2)),
      json(RECORDED.container("c2")),
      json(RECORDED.status("c2", "IN_PROGRESS")),
    );
    const failure = publishingWith(fetch).publishing.publish(account, {
      ...draftOf([{ text: "Late", media: [image(2)] }]),
      deadline: Date.now() - 1,
    });
    await expect(failure).rejects.toMatchObject({ code: "still_processing" });
    expect(requests).toHaveLength(3);
  });

  it("find: a recorded container PUBLISHED is the post (its media by caption); not published again", async () => {
    const progress = memoryProgress({ instagram: { container: "c3", at: Date.now() } });
    const { fetch, requests } = replay(
      json(RECORDED.status("c3", "PUBLISHED")),
      json({ data: [{ id: MEDIA_ID, caption: "Lost", permalink: "https://www.instagram.com/p/x/" }] }),
    );
    const found = await publishingWith(fetch).publishing.find(account, {
      fingerprint: "sp-9-1",
      text: "Lost",
      progress,
    });
    expect(found).toEqual({ id: MEDIA_ID, url: "https://www.instagram.com/p/x/" });
    expect(requests).toHaveLength(2);
    expect(progress.values.instagram).toMatchObject({ media: MEDIA_ID });
  });

  it("find: a recorded container not PUBLISHED answers none without any text search", async () => {
    const progress = memoryProgress({ instagram: { container: "c4" } });
    const { fetch, requests } = replay(json(RECORDED.status("c4", "IN_PROGRESS")));
    const found = await publishingWith(fetch).publishing.find(account, {
      fingerprint: "sp-9-1",
      text: "Lost",
      progress,
    });
    expect(found).toBeNull();
    expect(requests).toHaveLength(1);
  });

  it("an EXPIRED recorded container is replaced by a new one, which is published", async () => {
    const progress = memoryProgress({ instagram: { container: "old" } });
    const { fetch, requests } = replay(
      json(RECORDED.status("old", "EXPIRED")),
      json(RECORDED.container("new")),
      json(RECORDED.status("new", "FINISHED")),
      json(RECORDED.published),
      json(RECORDED.permalink),
    );
    await publishingWith(fetch).publishing.publish(account, {
      ...draftOf([{ text: "Again", media: [image(3)] }]),
      progress,
    });
    await expectPost(requests[3]!, `${GRAPH}/${account.platformUserId}/media_publish`, {
      creation_id: "new",
    });
    expect(progress.values.instagram).toMatchObject({ container: "new", media: MEDIA_ID });
  });

  it("a container just made and already reported EXPIRED ends the attempt, kept, instead of looping", async () => {
    const progress = memoryProgress();
    const { fetch, requests } = replay(
      json(RECORDED.quota(2)),
      json(RECORDED.container("c9")),
      json(RECORDED.status("c9", "EXPIRED")),
      json(RECORDED.container("c10")),
      json(RECORDED.status("c10", "EXPIRED")),
    );
    const failure = publishingWith(fetch).publishing.publish(account, {
      ...draftOf([{ text: "Odd", media: [image(4)] }]),
      progress,
    });
    await expect(failure).rejects.toMatchObject({ kind: "transient", code: "container_expired" });
    // One container made, none replaced within the attempt; the next attempt replaces it.
    expect(requests).toHaveLength(3);
    expect(progress.values.instagram).toMatchObject({ container: "c9" });
  });
});
