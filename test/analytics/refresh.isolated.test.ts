// The cron's scheduled refresh: which rows are due (by the age of their publication and their last
// sync), only for owners with a syncing subscription, claimed once, bounded per run, on the sync index.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  claimDueRows,
  dueRows,
  REFRESH_LIMIT,
  refreshAnalytics,
  refreshInterval,
} from "../../src/analytics/refresh";
import { createDb } from "../../src/db/client";
import type { Tenant } from "../support/contract";
import { createTenant } from "../support/seed";
import { metrics, postOn, publishFake, readRow, setRow, subscribe } from "./support";

afterEach(() => {
  vi.restoreAllMocks();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A published row of the tenant, `age` ms after publication, last synced `since` ms ago (null: never). */
async function row(t: Tenant, now: number, age: number, since: number | null) {
  const post = await postOn(t);
  const id = post.rows[0]!;
  await publishFake(id, metrics());
  await setRow(id, { posted_on: [now - age], analytics_synced_at: since === null ? null : now - since });
  return id;
}

/** What the cron runs every minute (called directly: the cron's other half is the publishing sweep). */
const runCron = (at: number) => refreshAnalytics(env, new Date(at));

function captureQueue() {
  const sent = vi.spyOn(env.ANALYTICS_SYNC_QUEUE, "sendBatch").mockResolvedValue(undefined as never);
  return () => sent.mock.calls.flatMap(([messages]) => [...messages].map((m) => (m.body as any).row_id));
}

describe("refreshAnalytics", () => {
  it("enqueues the rows whose last sync is older than their age's interval, once", async () => {
    const t = await createTenant();
    await subscribe(t.user.id);
    const now = Date.now();
    const due = [
      await row(t, now, 2 * HOUR, 20 * MINUTE), // first day: every 15 minutes
      await row(t, now, 3 * DAY, 25 * HOUR), // then daily
      await row(t, now, 29 * DAY, 25 * HOUR), // up to 30 days
      await row(t, now, 40 * DAY, null), // never synced, whatever its age: read once
    ];
    const fresh = [
      await row(t, now, 2 * HOUR, 5 * MINUTE),
      await row(t, now, 3 * DAY, 2 * HOUR),
      await row(t, now, 10 * DAY, 5 * HOUR),
      await row(t, now, 31 * DAY, 36 * HOUR), // past 30 days: never again
    ];
    // Not published, or published without a platform post.
    const draft = (await postOn(t)).rows[0]!;
    const noPlatformPost = await row(t, now, HOUR, null);
    await setRow(noPlatformPost, { platform_post_id: null });
    const sent = captureQueue();

    await Promise.all([runCron(now), runCron(now)]);
    expect(sent().sort((a, b) => a - b)).toEqual(due);
    for (const id of due) expect((await readRow(id)).analytics_synced_at).toBe(now);
    for (const id of [...fresh, draft, noPlatformPost]) expect(due).not.toContain(id);

    // Claimed: the next minute's run does not enqueue them again.
    await runCron(now + MINUTE);
    expect(sent()).toHaveLength(due.length);
  });

  it.each(["canceled", "none", null])(
    "leaves the rows of an owner whose subscription is %s",
    async (status) => {
      const t = await createTenant();
      await subscribe(t.user.id, status);
      const now = Date.now();
      const id = await row(t, now, HOUR, null);
      const sent = captureQueue();
      await runCron(now);
      expect(sent()).not.toContain(id);
      expect((await readRow(id)).analytics_synced_at).toBeNull();
    },
  );

  it.each(["active", "trialing", "grace_period"])(
    "refreshes the rows of an owner who is %s",
    async (status) => {
      const t = await createTenant();
      await subscribe(t.user.id, status);
      const now = Date.now();
      const id = await row(t, now, HOUR, null);
      const sent = captureQueue();
      await runCron(now);
      expect(sent()).toContain(id);
    },
  );

  it("claims at most its limit per run, the longest-unsynced first", async () => {
    const t = await createTenant();
    await subscribe(t.user.id);
    const now = Date.now() + 365 * DAY;
    const db = createDb(env.DB);
    // Rows of the other tests of this file are due too by then: claim them out of the way first.
    await claimDueRows(db, now, 10_000);
    const rows = [];
    for (const since of [2 * DAY, 5 * DAY, 3 * DAY, null]) rows.push(await row(t, now, 20 * DAY, since));
    // Never synced first, then the oldest sync.
    expect(await claimDueRows(db, now, 2)).toEqual([rows[1], rows[3]].sort((a, b) => a! - b!));
    expect(await claimDueRows(db, now, 2)).toEqual([rows[0], rows[2]].sort((a, b) => a! - b!));
    expect(await claimDueRows(db, now, 2)).toEqual([]);
    expect(REFRESH_LIMIT).toBeLessThanOrEqual(100);
  });

  it("claims but does not enqueue a row past its platform's insights lifetime", async () => {
    const t = await createTenant();
    await subscribe(t.user.id);
    const now = Date.now() + 400 * DAY;
    const db = createDb(env.DB);
    await claimDueRows(db, now, 10_000);
    const dead = await row(t, now, 2 * DAY, 25 * HOUR);
    const alive = await row(t, now, 12 * HOUR, 20 * MINUTE);
    // Insights for a day after publication, as Instagram gives a story's.
    const lifetimeOf = () => ({ insightsLifetime: () => 86_400 });
    expect(await claimDueRows(db, now, 10_000, {}, lifetimeOf)).toEqual([alive]);
    // Claimed all the same: it waits its interval instead of filling every run's limit.
    expect((await readRow(dead)).analytics_synced_at).toBe(now);
    // Without a lifetime (every platform but the stories of Instagram and Facebook): read as before.
    expect(await claimDueRows(db, now + 2 * DAY, 10_000)).toEqual(expect.arrayContaining([dead, alive]));
  });

  it("picks the rows through post_platforms_sync_idx, in its order", async () => {
    const query = dueRows(createDb(env.DB), Date.now(), REFRESH_LIMIT).toSQL();
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    const plan = results.map((r) => r.detail).join("\n");
    expect(plan).toMatch(/post_platforms USING INDEX post_platforms_sync_idx/);
    // The owner's subscription is two key lookups per candidate row; nothing is scanned or sorted.
    expect(plan).toMatch(/SEARCH subscriptions USING INDEX subscriptions_user_id_unique/);
    expect(plan).not.toMatch(/\bSCAN\b|TEMP B-TREE/);
  });

  it("reads the rows due, not the rows published: rows synced within their interval cost nothing", async () => {
    const t = await createTenant();
    await subscribe(t.user.id);
    const now = Date.now();
    const rowsRead = async () => {
      const query = dueRows(createDb(env.DB), now, REFRESH_LIMIT).toSQL();
      const { meta } = await env.DB.prepare(query.sql)
        .bind(...query.params)
        .all();
      return meta.rows_read;
    };
    const before = await rowsRead();
    // Ten days old, synced two hours ago: not due for another 22 hours.
    for (let i = 0; i < 30; i++) await row(t, now, 10 * DAY, 2 * HOUR);
    expect(await rowsRead()).toBe(before);
  });

  it("is due exactly when the interval of its age has passed, across a tier's end", async () => {
    const t = await createTenant();
    await subscribe(t.user.id);
    const db = createDb(env.DB);
    const now = Date.now() + 500 * DAY;
    await claimDueRows(db, now, 10_000);
    // Synced ten minutes before its first day ended: at 16 minutes past, its interval is a day.
    const id = await row(t, now, DAY + 6 * MINUTE, 16 * MINUTE);
    expect(await claimDueRows(db, now, 10_000)).toEqual([]);
    expect(await claimDueRows(db, now + DAY - 16 * MINUTE, 10_000)).toEqual([]);
    expect(await claimDueRows(db, now + DAY - 16 * MINUTE + 1, 10_000)).toEqual([id]);
  });

  it("passes a lapsed owner's due rows over: they wait their interval instead of being read every run", async () => {
    const t = await createTenant();
    await subscribe(t.user.id, "canceled");
    const db = createDb(env.DB);
    const now = Date.now() + 600 * DAY;
    const id = await row(t, now, 10 * DAY, 2 * DAY);
    const sent = captureQueue();
    await runCron(now);
    expect(sent()).not.toContain(id);
    expect(await readRow(id)).toMatchObject({ analytics_synced_at: now - 2 * DAY, sync_skipped_at: now });
    // Subscribed again: read at its next interval (a day after the pass-over), as if it had synced.
    await subscribe(t.user.id);
    expect(await claimDueRows(db, now + HOUR, 10_000)).not.toContain(id);
    expect(await claimDueRows(db, now + DAY + 1, 10_000)).toContain(id);
  });

  it("documents its intervals: 15 minutes the first day, daily up to 30 days, then none", () => {
    expect([0, DAY - 1, DAY, 7 * DAY, 30 * DAY - 1, 30 * DAY, 400 * DAY].map(refreshInterval)).toEqual([
      15 * MINUTE,
      15 * MINUTE,
      DAY,
      DAY,
      DAY,
      null,
      null,
    ]);
  });

  it("follows a post's age as the cron's clock moves: soon in its first hour, daily at 3 days, never past 30", async () => {
    const t = await createTenant();
    await subscribe(t.user.id);
    const db = createDb(env.DB);
    const start = Date.now() + 700 * DAY;
    await claimDueRows(db, start, 10_000);
    const dueAt = async (id: number) =>
      (await env.DB.prepare("SELECT sync_due_at FROM post_platforms WHERE id = ?")
        .bind(id)
        .first("sync_due_at")) as number | null;
    // Each synced just now, by the cron's clock.
    const young = await row(t, start, 20 * MINUTE, 0);
    const threeDays = await row(t, start, 3 * DAY, 0);
    const old = await row(t, start, 31 * DAY, 0);
    expect([await dueAt(young), await dueAt(threeDays), await dueAt(old)]).toEqual([
      start + 15 * MINUTE + 1,
      start + DAY + 1,
      null,
    ]);
    // The cron, a minute at a time where it matters: the young post is claimed 15 minutes on, the
    // three-day-old one a day on, the 31-day-old one never, a year on.
    const tick = (at: number) => claimDueRows(db, at, 10_000);
    expect(await tick(start + 15 * MINUTE)).toEqual([]);
    expect(await tick(start + 16 * MINUTE)).toEqual([young]);
    expect(await tick(start + DAY)).toEqual([young]);
    expect(await tick(start + DAY + MINUTE)).toEqual([threeDays]);
    expect(await tick(start + 365 * DAY)).toEqual([young, threeDays]);
    expect(await tick(start + 730 * DAY)).toEqual([]);
    expect(await dueAt(old)).toBeNull();
  });
});
