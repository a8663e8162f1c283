// Wake-ups: a scheduled post reaches the platform within 5 s of its time through a delayed queue
// message (no cron needed, as under `wrangler dev`). The real queue and real delays are used for the
// timing (a post due a second or two ahead); the claim's rules (moved, deleted, early, far ahead) are
// driven by hand, on the consumer's injected clock (`deps.now`, `deps.sleep`: src/publishing/deps.ts).
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_DELAY_SECONDS, sendWakeUps, wakeUpDelay } from "../../src/publishing/messages";
import { call } from "../support/client";
import { createPost, createTenant } from "../support/seed";
import { waitFor } from "../support/wait";
import { deliver, fakePlatform, postOf, rowsOf, sandboxPosts, setStatus, settled } from "./support";

afterEach(() => {
  vi.restoreAllMocks();
});

const sentBodies = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.flatMap(([messages]) =>
    [...(messages as Array<{ body: unknown; delaySeconds?: number }>)].map((m) => ({
      ...(m.body as object),
      delaySeconds: m.delaySeconds,
    })),
  );

type WakeUpSent = { body: { post_id: number; due: number }; arrives: number };

/**
 * Swallows what is sent to the publish queue, each message with the moment Queues would hand it to the
 * consumer (when it was sent plus its delay), to be delivered then on the consumer's clock.
 */
function captureWakeUps() {
  const sent: WakeUpSent[] = [];
  vi.spyOn(env.PUBLISH_QUEUE, "sendBatch").mockImplementation(async (messages) => {
    const at = Date.now();
    for (const m of messages) {
      sent.push({ body: m.body as WakeUpSent["body"], arrives: at + (m.delaySeconds ?? 0) * 1000 });
    }
    return undefined as never;
  });
  return sent;
}

/** The consumer's clock, starting at `start`: its pause moves the time on instead of waiting it out. */
function clockAt(start: number) {
  const clock = {
    at: start,
    now: () => clock.at,
    sleep: vi.fn(async (ms: number) => {
      clock.at += ms;
    }),
  };
  return clock;
}

/** Delivers a captured wake-up the moment it arrives, on the consumer's clock (and the real platform). */
const arriving = (wakeUp: WakeUpSent) => {
  const clock = clockAt(wakeUp.arrives);
  return deliver([wakeUp.body], { deps: { now: clock.now, sleep: clock.sleep } });
};

describe("sending wake-ups", () => {
  it("holds a wake-up until its time, in whole seconds rounded down, never past Queues' 12-hour limit", () => {
    expect(wakeUpDelay(10_999, 1_000)).toBe(9);
    expect(wakeUpDelay(1_000, 5_000)).toBe(0);
    expect(wakeUpDelay(1_000 + 30 * 3600_000, 1_000)).toBe(MAX_DELAY_SECONDS);
    expect(MAX_DELAY_SECONDS).toBe(43_200);
  });

  it("sends one on create, a new one on reschedule, none for an unchanged schedule or a draft", async () => {
    const t = await createTenant();
    const sent = vi.spyOn(env.PUBLISH_QUEUE, "sendBatch");
    const at = Date.now() + 3_600_000;
    const post = await createPost(t, { scheduled_at: new Date(at).toISOString() });
    const later = at + 600_000;
    await call("PUT", `/api/v1/posts/${post.id}`, {
      key: t.key,
      body: { scheduled_at: new Date(later).toISOString() },
    });
    await call("PUT", `/api/v1/posts/${post.id}`, { key: t.key, body: { content: [{ text: "Edited" }] } });
    await call("PUT", `/api/v1/posts/${post.id}`, { key: t.key, body: { scheduled_at: null } });
    expect(sentBodies(sent)).toEqual([
      { post_id: post.id, due: at, delaySeconds: expect.toSatisfy((d: number) => d >= 3590 && d <= 3600) },
      { post_id: post.id, due: later, delaySeconds: expect.toSatisfy((d: number) => d >= 4190 && d <= 4200) },
    ]);
  });
});

describe("a wake-up arriving", () => {
  it("claims the post at its time and publishes it", async () => {
    const t = await createTenant();
    const post = await createPost(t, {
      accounts: t.accounts.map((a) => a.id),
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const due = Date.now() - 1000;
    await setStatus(post.id, "SCHEDULED", due);
    const fake = fakePlatform();
    const result = await deliver([{ post_id: post.id, due }], { deps: fake.deps });
    expect(result.acks).toBe(1);
    expect(fake.publishes()).toHaveLength(2);
    expect((await postOf(post.id))!.status).toBe("PUBLISHED");
  });

  it("does nothing for a post rescheduled since, or deleted", async () => {
    const t = await createTenant();
    const post = await createPost(t, { scheduled_at: new Date(Date.now() + 3_600_000).toISOString() });
    const due = Date.now() - 1000;
    await setStatus(post.id, "SCHEDULED", due + 60_000);
    const fake = fakePlatform();
    expect((await deliver([{ post_id: post.id, due }], { deps: fake.deps })).acks).toBe(1);
    expect((await postOf(post.id))!.status).toBe("SCHEDULED");
    expect((await rowsOf(post.id))[0]!.status).toBe("SCHEDULED");

    await setStatus(post.id, "SCHEDULED", due);
    await call("DELETE", `/api/v1/posts/${post.id}`, { key: t.key });
    expect((await deliver([{ post_id: post.id, due }], { deps: fake.deps })).acks).toBe(1);
    expect(fake.calls).toEqual([]);
  });

  it("does nothing for a draft, a published post, or an occurrence already settled", async () => {
    const t = await createTenant();
    const post = await createPost(t);
    const due = Date.now() - 1000;
    const fake = fakePlatform();
    for (const status of ["DRAFT", "PUBLISHED", "FAILED"]) {
      await setStatus(post.id, status, due);
      expect((await deliver([{ post_id: post.id, due }], { deps: fake.deps })).acks).toBe(1);
      expect((await postOf(post.id))!.status).toBe(status);
    }
    expect(fake.calls).toEqual([]);
  });

  it("publishes a post the cron already claimed for this time (PUBLISHING, same scheduled_at)", async () => {
    const t = await createTenant();
    const post = await createPost(t);
    const due = Date.now() - 1000;
    await setStatus(post.id, "PUBLISHING", due);
    const fake = fakePlatform();
    await deliver([{ post_id: post.id, due }], { deps: fake.deps });
    expect(fake.publishes()).toHaveLength(1);
  });

  it("waits out a wake-up that arrives a moment early, then claims", async () => {
    const t = await createTenant();
    const post = await createPost(t);
    const clock = clockAt(Date.now());
    const due = clock.now() + 1500;
    await setStatus(post.id, "SCHEDULED", due);
    const fake = fakePlatform();
    const { sleep } = clock;
    await deliver([{ post_id: post.id, due }], { deps: { ...fake.deps, now: clock.now, sleep } });
    expect(sleep).toHaveBeenCalledTimes(1);
    expect(sleep.mock.calls[0]![0]).toBeGreaterThan(1000);
    expect(clock.now()).toBeGreaterThanOrEqual(due);
    expect(fake.publishes()).toHaveLength(1);
  });

  it("sends a wake-up further ahead again for the rest of the wait, and drops a stale one", async () => {
    const t = await createTenant();
    const post = await createPost(t);
    const now = Date.now();
    const due = now + 20 * 3600_000;
    await setStatus(post.id, "SCHEDULED", due);
    const sent = vi.spyOn(env.PUBLISH_QUEUE, "sendBatch").mockResolvedValue(undefined as never);
    const fake = fakePlatform();
    const clock = { ...fake.deps, now: () => now };
    expect((await deliver([{ post_id: post.id, due }], { deps: clock })).acks).toBe(1);
    expect(sentBodies(sent)).toEqual([{ post_id: post.id, due, delaySeconds: MAX_DELAY_SECONDS }]);
    const eightHoursOn = { ...fake.deps, now: () => now + 12 * 3600_000 };
    await deliver([{ post_id: post.id, due }], { deps: eightHoursOn });
    expect(sentBodies(sent)[1]).toEqual({ post_id: post.id, due, delaySeconds: 8 * 3600 });
    await setStatus(post.id, "SCHEDULED", due + 1);
    await deliver([{ post_id: post.id, due }], { deps: clock });
    expect(sent).toHaveBeenCalledTimes(2);
    expect(fake.calls).toEqual([]);
    expect((await postOf(post.id))!.status).toBe("SCHEDULED");
  });
});

describe("on time, through the real queue", () => {
  it("publishes a scheduled post within 5 s after its time", async () => {
    const t = await createTenant();
    const at = Math.ceil((Date.now() + 1500) / 1000) * 1000;
    const post = await createPost(t, { scheduled_at: new Date(at).toISOString() });
    // Watched until it is published: the last time it was seen SCHEDULED is no earlier than half a second
    // before its time (it was still SCHEDULED then).
    let lastScheduled = 0;
    await waitFor(
      async () => {
        const asked = Date.now();
        const { status } = (await postOf(post.id))!;
        if (status === "SCHEDULED") lastScheduled = asked;
        return status === "PUBLISHED";
      },
      { timeout: at + 8_000 - Date.now(), what: `post ${post.id} PUBLISHED` },
    );
    expect(lastScheduled).toBeGreaterThanOrEqual(at - 500);
    const [published] = await sandboxPosts("twitter", t.accounts[0]!.id);
    const delay = Date.parse(published!.published_at) - at;
    expect(delay).toBeGreaterThanOrEqual(0);
    expect(delay).toBeLessThanOrEqual(5000);
  });

  it("publishes 100 posts due in the same second, each exactly once and within 5 s of its time", async () => {
    const t = await createTenant();
    const accountId = t.accounts[0]!.id;
    const due = Math.ceil((Date.now() + 1500) / 1000) * 1000;
    // Inserted straight in D1 (100 API calls would pass the per-user rate limit), in one batch, then
    // woken the way the API wakes a scheduled post.
    const inserted = await env.DB.batch(
      Array.from({ length: 100 }, (_, i) =>
        env.DB.prepare(
          "INSERT INTO posts (workspace_id, user_id, status, content, scheduled_at) VALUES (?, ?, 'SCHEDULED', ?, ?) RETURNING id",
        ).bind(t.workspace.id, t.user.id, JSON.stringify([`Post number ${i}`]), due),
      ),
    );
    const ids = inserted.map((result) => (result.results[0] as { id: number }).id);
    await env.DB.batch(
      ids.map((id) =>
        env.DB.prepare(
          "INSERT INTO post_platforms (post_id, account_id, platform, status, settings, analytics, posted_on) VALUES (?, ?, 'twitter', 'SCHEDULED', '{}', '{}', '[]')",
        ).bind(id, accountId),
      ),
    );
    expect(Date.now()).toBeLessThan(due);
    await sendWakeUps(
      env.PUBLISH_QUEUE,
      ids.map((postId) => ({ postId, due })),
    );

    await settled(ids.at(-1)!, due + 10_000 - Date.now());
    for (const id of ids) await settled(id, 5_000);
    const published = await sandboxPosts("twitter", accountId);
    expect(published).toHaveLength(100);
    expect(new Set(published.map((p) => p.text[0])).size).toBe(100);
    const delays = published.map((p) => Date.parse(p.published_at) - due);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThanOrEqual(5000);
  }, 30_000);
});

// The API's own wake-ups, captured and delivered at the moment Queues would deliver them, on the
// consumer's clock: what a reschedule or a delete leaves behind, without waiting out the delays.
describe("the API's wake-ups, arriving at their time", () => {
  it("follows a reschedule: the old wake-up does nothing, the new one publishes once", async () => {
    const t = await createTenant();
    const sent = captureWakeUps();
    const first = Date.now() + 2000;
    const post = await createPost(t, { scheduled_at: new Date(first).toISOString() });
    const second = Date.now() + 5000;
    const moved = await call("PUT", `/api/v1/posts/${post.id}`, {
      key: t.key,
      body: { scheduled_at: new Date(second).toISOString() },
    });
    expect(moved.status).toBe(200);
    const [old, rescheduled] = sent;
    expect([old!.body.due, rescheduled!.body.due]).toEqual([first, second]);
    await arriving(old!);
    expect((await postOf(post.id))!.status).toBe("SCHEDULED");
    await arriving(rescheduled!);
    const [row] = await settled(post.id, 8_000);
    const published = await sandboxPosts("twitter", t.accounts[0]!.id);
    expect(published).toHaveLength(1);
    // Published on the consumer's clock: the row's publication time, not the sandbox's wall clock.
    expect(row!.posted_on[0]).toBeGreaterThanOrEqual(second);
  });

  it("publishes nothing for a scheduled post deleted before its time", async () => {
    const t = await createTenant();
    const sent = captureWakeUps();
    const at = Date.now() + 1500;
    const post = await createPost(t, { scheduled_at: new Date(at).toISOString() });
    expect((await call("DELETE", `/api/v1/posts/${post.id}`, { key: t.key })).status).toBe(200);
    for (const wakeUp of sent) await arriving(wakeUp);
    expect(sent).toHaveLength(1);
    expect(await sandboxPosts("twitter", t.accounts[0]!.id)).toEqual([]);
  });
});
