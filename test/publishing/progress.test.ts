// What the platform hands out before a publication's final call is kept on the row (ARCHITECTURE
// "Publishing"): recorded as it exists, seen by the next attempt's find and publish, scoped to its
// publication, refused to an attempt that lost its lease, forgotten when the post's content changes. A
// post the platform accepted before giving its public id is PUBLISHED at once and resolved by a
// follow-up read.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SyncDeps } from "../../src/analytics/sync";
import { memoryProgress, stillProcessing } from "../../src/platforms/progress";
import {
  type PlatformAdapter,
  PlatformError,
  type PublishDraft,
  type PublishedPost,
} from "../../src/platforms/types";
import { FOLLOW_UP_DELAY_SECONDS } from "../../src/publishing/follow-up";
import { ATTEMPT_BUDGET_MS } from "../../src/publishing/lease";
import { deliver as deliverSync } from "../analytics/queue";
import { call } from "../support/client";
import { createTenant } from "../support/seed";
import {
  deliver,
  fakePlatform,
  postOf,
  publishingPost,
  rowsOf,
  seedProgress,
  storedProgress,
} from "./support";

afterEach(() => {
  vi.restoreAllMocks();
});

const progressOf = async (rowId: number) => {
  const row = await env.DB.prepare("SELECT progress, awaiting_public_id FROM post_platforms WHERE id = ?")
    .bind(rowId)
    .first<{ progress: string | null; awaiting_public_id: number }>();
  return {
    progress: await storedProgress(rowId),
    raw: row?.progress ?? null,
    awaiting: row?.awaiting_public_id,
  };
};

describe("progress kept between attempts", () => {
  it("records what the platform handed out at once, and the next attempt's find and publish see it", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const [row] = await rowsOf(id);
    const seen: unknown[] = [];
    const fake = fakePlatform([
      async (draft: PublishDraft) => {
        await draft.progress!.set("upload", "m-1");
        // Written through before the next call: a crash here would leave it on the row.
        const stored = await progressOf(row!.id);
        expect(stored.progress).toEqual({ fingerprint: `sp-${row!.id}-1`, upload: "m-1" });
        // Sealed in D1: a value that is a credential while it lasts (an upload URL) is not readable there.
        expect(stored.raw).not.toContain("m-1");
        throw stillProcessing("The video is still processing.", 30);
      },
      async (draft: PublishDraft) => {
        seen.push(draft.progress!.get("upload"));
        return { id: "p-1", url: "https://x.example/p-1" };
      },
    ]);
    const first = await deliver([{ post_id: id }], { deps: fake.deps });
    // Still processing: a retry after the time the adapter asked for; nothing failed.
    expect(first).toMatchObject({ acks: 0, retries: 1, delays: [30] });
    expect((await rowsOf(id))[0]).toMatchObject({
      status: "PUBLISHING",
      error: { code: "still_processing" },
    });

    const found: unknown[] = [];
    const adapter = fake.adapter;
    const find = adapter.find.bind(adapter);
    adapter.find = async (account, lookup) => {
      found.push(lookup.progress?.get("upload"));
      return find(account, lookup);
    };
    await deliver([{ post_id: id }], { deps: fake.deps, attempts: 2 });
    expect(found).toEqual(["m-1"]);
    expect(seen).toEqual(["m-1"]);
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHED", platform_post_id: "p-1" });
  });

  it("hands the adapter a deadline within the attempt's budget", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    let deadline: number | undefined;
    const fake = fakePlatform([
      async (draft: PublishDraft) => {
        deadline = draft.deadline;
        return { id: "p-2", url: "https://x.example/p-2" };
      },
    ]);
    const before = Date.now();
    await deliver([{ post_id: id }], { deps: fake.deps });
    expect(deadline).toBeGreaterThanOrEqual(before + ATTEMPT_BUDGET_MS);
    expect(deadline).toBeLessThanOrEqual(Date.now() + ATTEMPT_BUDGET_MS);
  });

  it("belongs to one publication: what another occurrence recorded is not seen", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const [row] = await rowsOf(id);
    await seedProgress(row!.id, `sp-${row!.id}-9`, { upload: "old" });
    let seen: unknown = "unset";
    const fake = fakePlatform([
      async (draft: PublishDraft) => {
        seen = draft.progress!.get("upload");
        return { id: "p-3", url: "https://x.example/p-3" };
      },
    ]);
    await deliver([{ post_id: id }], { deps: fake.deps });
    expect(seen).toBeUndefined();
  });

  it("an attempt that lost its lease cannot record anything: its write is refused and nothing is kept", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const [row] = await rowsOf(id);
    let refused: unknown;
    const fake = fakePlatform([
      async (draft: PublishDraft) => {
        // Another consumer takes the row over (this attempt outlived its lease).
        await env.DB.prepare("UPDATE post_platforms SET attempt_id = 'other' WHERE id = ?")
          .bind(row!.id)
          .run();
        refused = await draft.progress!.set("container", "c-1").catch((error) => error);
        throw refused;
      },
    ]);
    await deliver([{ post_id: id }], { deps: fake.deps });
    expect(refused).toMatchObject({ kind: "unknown_outcome", code: "lease_lost" });
    expect((await progressOf(row!.id)).progress).toBeNull();
    expect((await rowsOf(id))[0]).toMatchObject({ status: "PUBLISHING", attempt_id: "other" });
  });

  it("is cleared when the row settles, published or failed, in the write that settles it", async () => {
    const t = await createTenant();
    const published = await publishingPost(t);
    const failed = await publishingPost(t);
    const record = (draft: PublishDraft) => draft.progress!.set("upload", "m-5");
    const ok = fakePlatform([
      async (draft) => {
        await record(draft);
        return { id: "p-5", url: "https://x.example/p-5" };
      },
    ]);
    await deliver([{ post_id: published }], { deps: ok.deps });
    const refused = fakePlatform([
      async (draft) => {
        await record(draft);
        throw new PlatformError("Refused.", { kind: "permanent", code: "refused" });
      },
    ]);
    await deliver([{ post_id: failed }], { deps: refused.deps });
    const [done] = await rowsOf(published);
    const [gaveUp] = await rowsOf(failed);
    expect([done!.status, gaveUp!.status]).toEqual(["PUBLISHED", "FAILED"]);
    expect((await progressOf(done!.id)).raw).toBeNull();
    expect((await progressOf(gaveUp!.id)).raw).toBeNull();
  });

  it("is bound to its row: a sealed value copied onto another row is not opened there", async () => {
    const t = await createTenant();
    const source = await publishingPost(t);
    const target = await publishingPost(t);
    const [from] = await rowsOf(source);
    const [to] = await rowsOf(target);
    const recording = fakePlatform([
      async (draft) => {
        await draft.progress!.set("upload", "secret-upload-url");
        throw stillProcessing("Still processing.", 30);
      },
    ]);
    await deliver([{ post_id: source }], { deps: recording.deps });
    const raw = JSON.parse((await progressOf(from!.id)).raw!) as { fingerprint: string };
    // Copied with the target's own fingerprint, as someone with write access to D1 could.
    await env.DB.prepare("UPDATE post_platforms SET progress = ? WHERE id = ?")
      .bind(JSON.stringify({ ...raw, fingerprint: `sp-${to!.id}-1` }), to!.id)
      .run();
    let seen: unknown = "unset";
    const reading = fakePlatform([
      async (draft) => {
        seen = draft.progress!.get("upload");
        return { id: "p-6", url: "https://x.example/p-6" };
      },
    ]);
    await deliver([{ post_id: target }], { deps: reading.deps });
    expect(seen).toBeUndefined();
  });

  it("new content makes it stale: editing a failed post forgets it", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const [row] = await rowsOf(id);
    await seedProgress(row!.id, `sp-${row!.id}-1`, { upload: "m-9" });
    await env.DB.batch([
      env.DB.prepare("UPDATE posts SET status = 'FAILED' WHERE id = ?").bind(id),
      env.DB.prepare("UPDATE post_platforms SET status = 'FAILED' WHERE post_id = ?").bind(id),
    ]);
    const labelsOnly = await call("PUT", `/api/v1/posts/${id}`, { key: t.key, body: { labels: [] } });
    expect(labelsOnly.status, JSON.stringify(labelsOnly.body)).toBe(200);
    expect((await progressOf(row!.id)).progress).toMatchObject({ upload: "m-9" });
    const edited = await call("PUT", `/api/v1/posts/${id}`, {
      key: t.key,
      body: { content: [{ text: "Something else" }] },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await progressOf(row!.id)).progress).toBeNull();
  });

  it("memoryProgress keeps what one call records and forgets an undefined value", async () => {
    const progress = memoryProgress({ a: 1 });
    await progress.set("b", { id: "x" });
    await progress.set("a", undefined);
    expect(progress.get("a")).toBeUndefined();
    expect(progress.get("b")).toEqual({ id: "x" });
  });
});

describe("published before the public id (a follow-up read fills it in)", () => {
  /** A platform whose publish is accepted for good with a provisional id; its resolve plays `answers`. */
  function awaitingPlatform(answers: Array<PublishedPost | null>) {
    const fake = fakePlatform([{ id: "pub-1", url: null, awaiting: true }]);
    const resolved: string[] = [];
    const read: string[] = [];
    const adapter = fake.adapter as PlatformAdapter;
    adapter.resolve = async (_account, postId) => {
      resolved.push(postId);
      return answers.shift() ?? null;
    };
    adapter.insights = async (_account, postId) => {
      read.push(postId);
      return { comments: 0, likes: 2, shares: 0, impressions: 10, quotes: 0, saves: 0, engagement_rate: 20 };
    };
    adapter.comments = async () => [];
    const syncDeps: SyncDeps = { adapterFor: () => adapter, now: () => Date.now() };
    return { ...fake, resolved, read, syncDeps };
  }

  it("PUBLISHED at once with the id so far, no URL; the follow-up is queued, then resolves id and URL", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const [row] = await rowsOf(id);
    const sent = vi.spyOn(env.ANALYTICS_SYNC_QUEUE, "send");
    const platform = awaitingPlatform([null, { id: "7001", url: "https://x.example/7001" }]);

    await deliver([{ post_id: id }], { deps: platform.deps });
    expect((await rowsOf(id))[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: "pub-1",
      post_url: null,
    });
    expect((await postOf(id))!.status).toBe("PUBLISHED");
    expect((await progressOf(row!.id)).awaiting).toBe(1);
    expect(sent).toHaveBeenCalledWith({ row_id: row!.id }, { delaySeconds: FOLLOW_UP_DELAY_SECONDS });

    // Not public yet: the job is retried later, the row unchanged, nothing read.
    const early = await deliverSync([row!.id], { deps: platform.syncDeps });
    expect(early.retryMessages).toHaveLength(1);
    expect((await rowsOf(id))[0]).toMatchObject({ platform_post_id: "pub-1", post_url: null });
    expect(platform.read).toEqual([]);

    // Public: the row takes the id and URL, and its metrics are read by the new id.
    const later = await deliverSync([row!.id], { deps: platform.syncDeps });
    expect(later.explicitAcks).toHaveLength(1);
    expect((await rowsOf(id))[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: "7001",
      post_url: "https://x.example/7001",
    });
    expect((await progressOf(row!.id)).awaiting).toBe(0);
    expect(platform.resolved).toEqual(["pub-1", "pub-1"]);
    expect(platform.read).toEqual(["7001"]);

    // A redelivered follow-up resolves nothing again.
    await deliverSync([row!.id], { deps: platform.syncDeps });
    expect(platform.resolved).toHaveLength(2);
  });

  it("a post that turns out never to be public keeps its id, with no URL and nothing to read", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    const [row] = await rowsOf(id);
    vi.spyOn(env.ANALYTICS_SYNC_QUEUE, "send");
    const platform = awaitingPlatform([{ id: "pub-1", url: null }]);
    await deliver([{ post_id: id }], { deps: platform.deps });
    const done = await deliverSync([row!.id], { deps: platform.syncDeps });
    expect(done.explicitAcks).toHaveLength(1);
    expect((await rowsOf(id))[0]).toMatchObject({ platform_post_id: "pub-1", post_url: null });
    expect((await progressOf(row!.id)).awaiting).toBe(0);
    expect(platform.read).toEqual([]);
    await deliverSync([row!.id], { deps: platform.syncDeps });
    expect(platform.resolved).toHaveLength(1);
  });
});
