import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { call } from "../support/client";
import { createPost, createTenant, inMinutes } from "../support/seed";

const schedule = async (t: Awaited<ReturnType<typeof createTenant>>, minutes: number) =>
  (await createPost(t, { scheduled_at: inMinutes(minutes) })).id as number;

const runCron = (at: number) =>
  worker.scheduled(createScheduledController({ scheduledTime: at, cron: "* * * * *" }), env);

describe("cron: due scheduled posts", () => {
  it("claims each due post once, enqueues it, and leaves later and deleted posts alone", async () => {
    const t = await createTenant();
    const due = await schedule(t, 5);
    const later = await schedule(t, 120);
    const deleted = await schedule(t, 5);
    await call("DELETE", `/api/v1/posts/${deleted}`, { key: t.key });
    const sent = vi.spyOn(env.PUBLISH_QUEUE, "sendBatch");
    const tenMinutesLater = Date.now() + 10 * 60_000;

    await Promise.all([runCron(tenMinutesLater), runCron(tenMinutesLater)]);
    const enqueued = sent.mock.calls.flatMap(([messages]) => [...messages].map((m) => m.body));
    expect(enqueued).toEqual([{ post_id: due }]);
    sent.mockRestore();

    const claimed = await call("GET", `/api/v1/posts/${due}`, { key: t.key });
    expect(claimed.body.status).toBe("PUBLISHING");
    expect(claimed.body.platforms[0].status).toBe("PUBLISHING");
    const waiting = await call("GET", `/api/v1/posts/${later}`, { key: t.key });
    expect(waiting.body.status).toBe("SCHEDULED");
  });
});
