// The sandbox's insights and comments: deterministic from (post id, whole minutes since publication),
// never decreasing. Time is driven through the SandboxStore's `now` parameter.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Platform } from "../../src/db/enums";
import type { PostMetrics } from "../../src/platforms/types";
import { metricsAt, PLATEAU_MINUTES, postSeed } from "../../src/sandbox/metrics";
import { accountOf, adapterFor, draftOf, freshFingerprint, freshHandle } from "./support";

const MINUTE = 60_000;
const COUNTS = ["impressions", "likes", "comments", "shares", "quotes", "saves"] as const;

const store = (platform: Platform) => env.SANDBOX_STORE.getByName(platform);

/** A post published straight into the store at `at`. */
async function publishedAt(platform: Platform, at: number, handle = freshHandle("metrics")) {
  const attempt = await store(platform).publish(
    { handle, fingerprint: freshFingerprint(), items: [{ text: "Measured", media: [] }] },
    at,
  );
  if (attempt.kind !== "publish") throw new Error(`not published: ${attempt.kind}`);
  return { id: attempt.id, handle };
}

async function insightsAt(platform: Platform, id: string, handle: string, now: number): Promise<PostMetrics> {
  const result = await store(platform).insights(platform, id, handle, now);
  if (result.kind !== "ok") throw new Error(`no insights: ${result.kind}`);
  return result.value;
}

const rateOf = (m: PostMetrics) =>
  Math.round(((m.likes + m.comments + m.shares + m.quotes + m.saves) / m.impressions) * 10_000) / 100;

describe("sandbox insights", () => {
  it("are deterministic per (post, minute) and never decrease over time", async () => {
    const t0 = Date.parse("2026-03-01T12:00:00Z");
    const { id, handle } = await publishedAt("twitter", t0);
    const minutes = [0, 1, 2, 3, 5, 10, 30, 60, 120, 600, 1440, 4000, PLATEAU_MINUTES, PLATEAU_MINUTES + 500];
    let previous: PostMetrics | null = null;
    for (const minute of minutes) {
      const now = t0 + minute * MINUTE;
      const metrics = await insightsAt("twitter", id, handle, now);
      // The same minute, later in it, or asked again: the same numbers.
      expect(await insightsAt("twitter", id, handle, now + 59_999)).toEqual(metrics);
      expect(metrics.impressions).toBeGreaterThan(0);
      expect(metrics.engagement_rate).toBe(rateOf(metrics));
      expect(metrics.likes).toBeLessThanOrEqual(metrics.impressions);
      if (previous)
        for (const count of COUNTS) expect(metrics[count]).toBeGreaterThanOrEqual(previous[count]);
      previous = metrics;
    }
    const first = await insightsAt("twitter", id, handle, t0);
    expect(previous!.impressions).toBeGreaterThan(first.impressions);
    // Before publication (clock skew) counts as minute 0.
    expect(await insightsAt("twitter", id, handle, t0 - 5 * MINUTE)).toEqual(first);
    // Levels off after a week.
    expect(await insightsAt("twitter", id, handle, t0 + (PLATEAU_MINUTES + 9000) * MINUTE)).toEqual(previous);
  });

  it("never decrease minute by minute over the first day, for many posts", async () => {
    for (let post = 0; post < 20; post++) {
      const seed = await postSeed("threads", String(100000000000000000 + post * 7919));
      let previous = metricsAt("threads", seed, 0);
      expect(previous.impressions).toBeGreaterThan(0);
      expect(previous.comments).toBeGreaterThanOrEqual(1);
      for (let minute = 1; minute <= 1440; minute++) {
        const metrics = metricsAt("threads", seed, minute);
        for (const count of COUNTS) expect(metrics[count]).toBeGreaterThanOrEqual(previous[count]);
        previous = metrics;
      }
    }
  });

  it("differ between posts; only twitter and threads have quotes", async () => {
    const t0 = Date.now();
    const a = await publishedAt("linkedin", t0);
    const b = await publishedAt("linkedin", t0);
    const later = t0 + 600 * MINUTE;
    const first = await insightsAt("linkedin", a.id, a.handle, later);
    expect(await insightsAt("linkedin", b.id, b.handle, later)).not.toEqual(first);
    expect(first.quotes).toBe(0);
  });

  // On Threads: X runs on its emulator (test/sandbox/twitter.system.test.ts), not this legacy publisher.
  it("reach the adapter as the store computes them now", async () => {
    const adapter = adapterFor("threads");
    const account = accountOf(freshHandle());
    const post = await adapter.publish(account, draftOf(["Count me"]));
    const metrics = await adapter.insights(account, post.id);
    expect(metrics).toEqual(await insightsAt("threads", post.id, account.handle, Date.now()));
    expect(metrics.impressions).toBeGreaterThan(0);
    expect(Object.keys(metrics).sort()).toEqual(
      ["comments", "engagement_rate", "impressions", "likes", "quotes", "saves", "shares"].sort(),
    );
  });
});

describe("sandbox comments", () => {
  it("at least one from the first minute, stable across calls, with an author and a contact", async () => {
    const adapter = adapterFor("instagram");
    const account = accountOf(freshHandle());
    const post = await adapter.publish(account, draftOf(["Comment on me"]));
    const comments = await adapter.comments(account, post.id);
    expect(comments.length).toBeGreaterThanOrEqual(1);
    expect(await adapter.comments(account, post.id)).toEqual(comments);
    expect(comments.length).toBe((await adapter.insights(account, post.id)).comments);
    const [first] = comments;
    expect(first).toEqual({
      id: expect.stringMatching(/^\d{19}$/),
      content: expect.any(String),
      author_name: expect.any(String),
      created_at: expect.any(Date),
      contact: {
        name: first!.author_name,
        username: expect.stringMatching(/^[a-z_0-9]+$/),
        profile_url: `https://api.example.test/sandbox/instagram/accounts/${first!.contact!.username}/posts`,
      },
    });
    expect(first!.content.length).toBeGreaterThan(0);
    // Comments are public: another account reads the same ones.
    expect(await adapter.comments(accountOf(freshHandle()), post.id)).toEqual(comments);
  });

  it("grow over time, keeping the earlier ones as they were, never dated after they are seen", async () => {
    const t0 = Date.parse("2026-04-01T08:00:00Z");
    const { id } = await publishedAt("facebook", t0);
    let previous = await store("facebook").comments("facebook", id, t0);
    expect(previous).not.toBeNull();
    expect(previous!.length).toBeGreaterThanOrEqual(1);
    for (const minute of [1, 5, 60, 600, 3000, PLATEAU_MINUTES]) {
      const now = t0 + minute * MINUTE;
      const comments = (await store("facebook").comments("facebook", id, now))!;
      expect(comments.length).toBeGreaterThanOrEqual(previous!.length);
      for (const earlier of previous!) expect(comments).toContainEqual(earlier);
      expect(new Set(comments.map((c) => c.id)).size).toBe(comments.length);
      for (const comment of comments) {
        expect(comment.created_at).toBeGreaterThanOrEqual(t0);
        expect(comment.created_at).toBeLessThanOrEqual(now);
      }
      const count = (await insightsAt("facebook", id, (await store("facebook").post(id))!.handle, now))
        .comments;
      expect(comments.length).toBe(count);
      previous = comments;
    }
    expect(previous!.length).toBeGreaterThan(1);
  });
});
