// What a comment sync costs an account (docs/scaling.md, "A comment sync"): 10 published posts with 20
// comments each, synced once (every comment new) and again (nothing changed): the platform calls made
// (the adapter's insights and comments reads, one each per post) and the D1 rows written, as D1
// reports them (`meta.rows_written`, index entries included) for every statement and batch of the jobs.
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultSyncDeps, type SyncDeps } from "../../src/analytics/sync";
import { Meter, meteredD1 } from "../../src/http/meter";
import { publishingAdapter } from "../../src/platforms";
import type { PlatformAdapter, PlatformComment } from "../../src/platforms/types";
import { serverTiming } from "../support/client";
import { createTenant } from "../support/seed";
import { createWebhook, receiverUrl } from "../webhooks/support";
import { deliver } from "./queue";
import { metrics, postOn, publishFake } from "./support";

const POSTS = 10;
const COMMENTS = 20;

/** Adds up what D1 says each answer wrote. */
class WriteMeter extends Meter {
  written = 0;
  override rows(results: unknown) {
    super.rows(results);
    for (const result of Array.isArray(results) ? results : [results]) {
      const written = (result as { meta?: { rows_written?: unknown } } | null)?.meta?.rows_written;
      if (typeof written === "number") this.written += written;
    }
  }
}

const commentsOf = (postId: string): PlatformComment[] =>
  Array.from({ length: COMMENTS }, (_, k) => ({
    id: `${postId}-c${k}`,
    content: `Comment ${k} on ${postId}`,
    author_name: `Fan ${k}`,
    created_at: new Date(Date.UTC(2026, 10, 27, 9, k)),
    contact: { name: `Fan ${k}`, username: `fan${k}`, profile_url: null },
    // Every fifth answers the one before, as threads do.
    ...(k % 5 === 4 ? { parent_id: `${postId}-c${k - 1}` } : {}),
  }));

// The announcements are not delivered: the endpoint is there for the outbox rows the sync records.
beforeEach(() => {
  vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockResolvedValue(undefined as never);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("the cost of a comment sync", () => {
  it("reads each post once per sync and writes each new comment once; an unchanged sync writes no comment", async () => {
    const t = await createTenant();
    // A listening endpoint, so each new comment records its comment.received too.
    await createWebhook(t.key, {
      workspace_id: t.workspace.id,
      url: receiverUrl(),
      events: ["comment.received"],
    });
    const rows: number[] = [];
    for (let i = 0; i < POSTS; i++) {
      const post = await postOn(t);
      await publishFake(post.rows[0]!, metrics());
      rows.push(post.rows[0]!);
    }
    const calls = { insights: 0, comments: 0 };
    const deps: SyncDeps = {
      ...defaultSyncDeps,
      adapterFor: (e, platform) =>
        ({
          ...publishingAdapter(e, platform, "live"),
          insights: async () => {
            calls.insights++;
            return metrics({ comments: COMMENTS });
          },
          comments: async (_account, platformPostId) => {
            calls.comments++;
            return commentsOf(platformPostId);
          },
        }) satisfies PlatformAdapter,
    };
    const sync = async () => {
      const meter = new WriteMeter();
      await deliver(rows, { deps, env: { ...env, DB: meteredD1(env.DB, meter) } });
      return meter;
    };

    const first = await sync();
    const stored = await env.DB.prepare(
      `SELECT count(*) AS n FROM comments WHERE post_id IN (SELECT post_id FROM post_platforms WHERE id IN (${rows.join(",")}))`,
    ).first<{ n: number }>();
    expect(stored!.n).toBe(POSTS * COMMENTS);
    expect(calls).toEqual({ insights: POSTS, comments: POSTS });
    const second = await sync();
    expect(calls).toEqual({ insights: 2 * POSTS, comments: 2 * POSTS });
    // Measured (docs/scaling.md): 1,740 rows written and 2,070 read the first time (each comment's row
    // and its four index entries, its comment.received outbox row, the replies' parents resolved, the
    // platform row's metrics and the account's totals); 50 written and 798 read the second time (the
    // platform row's sync time and its index entry: no comment row is rewritten). D1 round trips: two per
    // post, each time. The bounds leave room for a column or an index more, not for a write per comment.
    const spent = (meter: WriteMeter) => ({
      ...serverTiming(new Headers({ "server-timing": meter.header() })),
      written: meter.written,
    });
    expect(spent(first)).toMatchObject({ dbTrips: 2 * POSTS });
    expect(spent(first).written).toBeGreaterThanOrEqual(POSTS * COMMENTS);
    expect(spent(first).written).toBeLessThanOrEqual(10 * POSTS * COMMENTS);
    expect(spent(second)).toMatchObject({ dbTrips: 2 * POSTS });
    expect(spent(second).written).toBeLessThanOrEqual(10 * POSTS);
  });
});
