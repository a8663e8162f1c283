// The safety nets: the cron's sweep (missed wake-ups, and the watchdog re-driving posts stuck in
// PUBLISHING through the same message and lease) and the dead-letter consumer failing what ran out of
// retries.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { STUCK_AFTER_MS, sweepPublishing, WAKE_UP_GRACE_MS } from "../../src/publishing/sweep";
import { call } from "../support/client";
import { createPost, createTenant, inMinutes } from "../support/seed";
import { deliver, postOf, publishingPost, rowsOf, sandboxPosts, setStatus } from "./support";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs `work` with the real publish queue swallowed; answers the messages it sent. */
async function sentBy(work: () => Promise<unknown>) {
  const sent = vi.spyOn(env.PUBLISH_QUEUE, "sendBatch").mockResolvedValue(undefined as never);
  await work();
  const bodies = sent.mock.calls.flatMap(([messages]) => [...messages].map((m) => m.body));
  sent.mockRestore();
  return bodies as Array<{ post_id: number }>;
}

/** Runs the sweep with the real queue swallowed; answers the messages it sent. */
const sweep = (now = Date.now()) => sentBy(() => sweepPublishing(env, new Date(now)));

const age = (postId: number, ms: number) =>
  env.DB.batch([
    env.DB.prepare("UPDATE post_platforms SET updated_at = ? WHERE post_id = ?").bind(
      Date.now() - ms,
      postId,
    ),
    env.DB.prepare("UPDATE posts SET updated_at = ? WHERE id = ?").bind(Date.now() - ms, postId),
  ]);

const mine = (bodies: Array<{ post_id: number }>, ids: number[]) =>
  bodies.filter((b) => ids.includes(b.post_id)).map((b) => b.post_id);

describe("the sweep", () => {
  it("claims a scheduled post whose wake-up was missed, and leaves one just due to its wake-up", async () => {
    const t = await createTenant();
    const missed = (await createPost(t)).id;
    const justDue = (await createPost(t)).id;
    await setStatus(missed, "SCHEDULED", Date.now() - 60_000);
    await setStatus(justDue, "SCHEDULED", Date.now() - WAKE_UP_GRACE_MS / 2);
    expect(mine(await sweep(), [missed, justDue])).toEqual([missed]);
    expect((await postOf(missed))!.status).toBe("PUBLISHING");
    expect((await postOf(justDue))!.status).toBe("SCHEDULED");
  });

  it('never claims a due post waiting for approval (ARCHITECTURE "Approvals")', async () => {
    const t = await createTenant();
    const waiting = (await createPost(t)).id;
    await setStatus(waiting, "PENDING_APPROVAL", Date.now() - 60_000);
    expect(mine(await sweep(), [waiting])).toEqual([]);
    expect((await postOf(waiting))!.status).toBe("PENDING_APPROVAL");
    expect((await rowsOf(waiting)).map((row) => row.status)).toEqual(["PENDING_APPROVAL"]);
  });

  it("re-drives a post stuck in PUBLISHING with no lease (as before the engine), once per deadline; the lease then publishes it once", async () => {
    const t = await createTenant();
    const id = await publishingPost(t, { accounts: t.accounts.map((a) => a.id) });
    await age(id, STUCK_AFTER_MS + 60_000);
    expect(mine(await sweep(), [id])).toEqual([id]);
    expect(mine(await sweep(), [id])).toEqual([]);
    await Promise.all([deliver([{ post_id: id }]), deliver([{ post_id: id }])]);
    expect((await postOf(id))!.status).toBe("PUBLISHED");
    expect(await sandboxPosts("twitter", t.accounts[0]!.id)).toHaveLength(1);
    expect(await sandboxPosts("linkedin", t.accounts[1]!.id)).toHaveLength(1);
  });

  it("re-drives a row whose attempt died (a stale lease), and leaves rows with recent progress alone", async () => {
    const t = await createTenant();
    const stuck = await publishingPost(t);
    await age(stuck, STUCK_AFTER_MS + 1000);
    await env.DB.prepare(
      "UPDATE post_platforms SET attempt_id = 'dead', attempt_started_at = ?, attempts = 1 WHERE post_id = ?",
    )
      .bind(Date.now() - STUCK_AFTER_MS - 1000, stuck)
      .run();
    const fresh = await publishingPost(t);
    await age(fresh, 60_000);
    expect(mine(await sweep(), [stuck, fresh])).toEqual([stuck]);
    await deliver([{ post_id: stuck }]);
    expect((await rowsOf(stuck))[0]).toMatchObject({ status: "PUBLISHED", attempts: 2 });
    expect(await sandboxPosts("twitter", t.accounts[0]!.id)).toHaveLength(1);
  });

  it("settles a post left PUBLISHING whose rows are all settled", async () => {
    const t = await createTenant();
    const id = await publishingPost(t);
    await env.DB.prepare("UPDATE post_platforms SET status = 'FAILED' WHERE post_id = ?").bind(id).run();
    await age(id, STUCK_AFTER_MS + 1000);
    expect(mine(await sweep(), [id])).toEqual([id]);
    await deliver([{ post_id: id }]);
    expect((await postOf(id))!.status).toBe("FAILED");
  });
});

describe("dead letters", () => {
  it("fail the rows still publishing with retries_exhausted and the last error, settle the post, and are idempotent", async () => {
    const t = await createTenant();
    const id = await publishingPost(t, { accounts: t.accounts.map((a) => a.id) });
    const [twitter, linkedin] = await rowsOf(id);
    await env.DB.batch([
      env.DB.prepare(
        `UPDATE post_platforms SET status = 'PUBLISHED', platform_post_id = '1', posted_on = '[1]' WHERE id = ?`,
      ).bind(twitter!.id),
      env.DB.prepare(
        `UPDATE post_platforms SET error = '{"code":"server_error","message":"upstream 503"}', attempts = 6 WHERE id = ?`,
      ).bind(linkedin!.id),
    ]);
    const result = await deliver([{ post_id: id }], { queue: "publish-dlq", attempts: 6 });
    expect(result.acks).toBe(1);
    const rows = await rowsOf(id);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(rows[1]).toMatchObject({
      status: "FAILED",
      error: { code: "retries_exhausted", message: expect.stringContaining("upstream 503") },
    });
    const post = await postOf(id);
    expect(post!.status).toBe("FAILED");

    await deliver([{ post_id: id }], { queue: "publish-dlq" });
    expect(await rowsOf(id)).toEqual(rows);
    expect((await postOf(id))!.updated_at).toBe(post!.updated_at);
  });

  it("leave a row another attempt holds a live lease on, and a post rescheduled since", async () => {
    const t = await createTenant();
    const held = await publishingPost(t);
    await env.DB.prepare(
      "UPDATE post_platforms SET attempt_id = 'live', attempt_started_at = ? WHERE post_id = ?",
    )
      .bind(Date.now(), held)
      .run();
    const moved = await publishingPost(t);
    const { scheduled_at } = (await postOf(moved))!;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const result = await deliver(
      [{ post_id: held }, { post_id: moved, due: scheduled_at! - 60_000 }, "junk"],
      {
        queue: "publish-dlq",
      },
    );
    expect(result.acks).toBe(3);
    expect((await rowsOf(held))[0]!.status).toBe("PUBLISHING");
    expect((await rowsOf(moved))[0]!.status).toBe("PUBLISHING");
    expect(warn).not.toHaveBeenCalled();
  });
});

// The cron claims over every tenant, so what it sent is filtered to this test's posts (an earlier file's
// due post may be claimed too); each of ours must be sent once, whatever the two runs race.
describe("the cron: due scheduled posts", () => {
  const runCron = (at: number) =>
    worker.scheduled(createScheduledController({ scheduledTime: at, cron: "* * * * *" }), env);

  it("claims each due post once, enqueues it, and leaves later and deleted posts alone", async () => {
    const t = await createTenant();
    const schedule = async (minutes: number) =>
      (await createPost(t, { scheduled_at: inMinutes(minutes) })).id as number;
    const due = await schedule(5);
    const later = await schedule(120);
    const deleted = await schedule(5);
    await call("DELETE", `/api/v1/posts/${deleted}`, { key: t.key });
    const tenMinutesLater = Date.now() + 10 * 60_000;

    const enqueued = await sentBy(() => Promise.all([runCron(tenMinutesLater), runCron(tenMinutesLater)]));
    expect(mine(enqueued, [due, later, deleted])).toEqual([due]);

    const claimed = await call("GET", `/api/v1/posts/${due}`, { key: t.key });
    expect(claimed.body.status).toBe("PUBLISHING");
    expect(claimed.body.platforms[0].status).toBe("PUBLISHING");
    const waiting = await call("GET", `/api/v1/posts/${later}`, { key: t.key });
    expect(waiting.body.status).toBe("SCHEDULED");
  });
});
