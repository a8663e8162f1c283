// Auto-plug: the reply is published once on the sandbox post, however often the threshold is seen
// reached, a job is delivered, or consumers race; a lost or refused reply is reconciled by fingerprint
// after the lease, never published twice; a plug failure never fails the sync.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PLUG_LEASE_MS, plugFingerprint } from "../../src/analytics/plug";
import { defaultSyncDeps, type SyncDeps } from "../../src/analytics/sync";
import { publishingAdapter } from "../../src/platforms";
import { createTenant } from "../support/seed";
import { deliver } from "./queue";
import { authOf, postOn, publishOnSandbox, readRow, sandboxAccount, sandboxPost } from "./support";

const PLUG = "Grab the guide: https://example.com/guide";

/** A post with an auto-plug, published on the sandbox, and its row. */
async function plugged(autoPlug: Record<string, unknown>) {
  const t = await createTenant();
  const post = await postOn(t, [t.accounts[0]!.id], { auto_plug: autoPlug });
  const rowId = post.rows[0]!;
  const published = await publishOnSandbox(rowId, sandboxAccount(t));
  return { t, postId: post.id, rowId, published };
}

/** The sandbox starts every post with impressions > 0: a threshold of 1 is reached at the first sync. */
const reachable = (text = PLUG) => ({ text, metric: "impressions", threshold: 1 });

const later = (ms: number): SyncDeps => ({ ...defaultSyncDeps, now: () => Date.now() + ms });

describe("auto-plug", () => {
  it("replies once when the threshold is reached, and not again at later syncs or redeliveries", async () => {
    const { rowId, published } = await plugged(reachable());
    expect((await deliver([rowId])).explicitAcks).toHaveLength(1);

    const row = await readRow(rowId);
    expect(row.plugged_at).toBeGreaterThan(0);
    const replies = (await sandboxPost(published.url)).replies;
    expect(replies).toEqual([expect.objectContaining({ id: row.plug_post_id, text: PLUG })]);

    // The threshold is reached again at each later sync; the job is redelivered; time passes the lease.
    await deliver([rowId]);
    await deliver([rowId, rowId]);
    await deliver([rowId], { deps: later(2 * PLUG_LEASE_MS) });
    expect((await sandboxPost(published.url)).replies).toHaveLength(1);
    expect((await readRow(rowId)).plug_post_id).toBe(row.plug_post_id);
  });

  it("replies once when two consumers race on the same row", async () => {
    const { rowId, published } = await plugged(reachable());
    const results = await Promise.all([deliver([rowId]), deliver([rowId]), deliver([rowId, rowId])]);
    expect(results.flatMap((r) => r.explicitAcks)).toHaveLength(4);
    expect((await sandboxPost(published.url)).replies).toHaveLength(1);
    expect((await readRow(rowId)).plug_post_id).toBe((await sandboxPost(published.url)).replies[0]!.id);
  });

  it("does not reply below the threshold, or without an auto-plug", async () => {
    const below = await plugged({ text: PLUG, metric: "likes", threshold: 1_000_000_000 });
    const none = await plugged(null as never);
    await deliver([below.rowId, none.rowId]);
    for (const { rowId, published } of [below, none]) {
      expect((await readRow(rowId)).plugged_at).toBeNull();
      expect((await sandboxPost(published.url)).replies).toEqual([]);
    }
  });

  it("reconciles a reply whose answer was lost, by its fingerprint, after the lease, without replying again", async () => {
    const { t, rowId, published } = await plugged(reachable(`${PLUG} #sandbox-lost`));
    // The sandbox accepts the reply and loses the answer: the sync itself succeeds.
    const first = await deliver([rowId]);
    expect(first.explicitAcks).toHaveLength(1);
    const claimed = await readRow(rowId);
    expect(claimed.plugged_at).toBeGreaterThan(0);
    expect(claimed.plug_post_id).toBeNull();
    expect((await sandboxPost(published.url)).replies).toHaveLength(1);

    // Within the lease the claim is left to its (maybe still running) owner.
    await deliver([rowId]);
    expect((await readRow(rowId)).plug_post_id).toBeNull();

    // After it, the retried attempt finds the reply by its fingerprint.
    await deliver([rowId], { deps: later(PLUG_LEASE_MS + 60_000) });
    const replies = (await sandboxPost(published.url)).replies;
    expect(replies).toHaveLength(1);
    expect((await readRow(rowId)).plug_post_id).toBe(replies[0]!.id);
    // X keeps no fingerprint: the adapter finds the reply by its text among the replies to the post.
    const found = await publishingAdapter(env, "twitter", "live").find(authOf(sandboxAccount(t)), {
      fingerprint: plugFingerprint(rowId),
      text: `${PLUG} #sandbox-lost`,
      replyTo: published.id,
    });
    expect(found?.id).toBe(replies[0]!.id);
  });

  it("retries a refused reply after the lease, when the platform has none, and stores it once", async () => {
    const { rowId, published } = await plugged(reachable(`${PLUG} #sandbox-ratelimit`));
    const first = await deliver([rowId]);
    // The plug failed (429) but the sync did not.
    expect(first.explicitAcks).toHaveLength(1);
    expect((await readRow(rowId)).analytics.impressions).toBeGreaterThan(0);
    expect((await sandboxPost(published.url)).replies).toEqual([]);

    await deliver([rowId], { deps: later(PLUG_LEASE_MS + 60_000) });
    const replies = (await sandboxPost(published.url)).replies;
    expect(replies).toHaveLength(1);
    expect((await readRow(rowId)).plug_post_id).toBe(replies[0]!.id);
  });
});

describe("auto-plug refused for good", () => {
  it("records a permanent refusal and never tries again, at later syncs or after the lease", async () => {
    const { rowId, published } = await plugged(reachable(`${PLUG} #sandbox-fail`));
    const first = await deliver([rowId]);
    // The sync itself succeeds; the plug is refused and recorded.
    expect(first.explicitAcks).toHaveLength(1);
    const refused = await readRow(rowId);
    expect(refused.plug_post_id).toBeNull();
    expect(JSON.parse(refused.plug_error)).toEqual({
      code: expect.any(String),
      message: expect.stringContaining("#sandbox-fail"),
    });
    expect((await sandboxPost(published.url)).replies).toEqual([]);

    for (const ms of [0, PLUG_LEASE_MS + 60_000, 10 * PLUG_LEASE_MS])
      await deliver([rowId], { deps: later(ms) });
    const after = await readRow(rowId);
    // No new claim: the plug ended with the refusal.
    expect(after.plugged_at).toBe(refused.plugged_at);
    expect(after.plug_error).toBe(refused.plug_error);
    expect((await sandboxPost(published.url)).replies).toEqual([]);
  });
});
