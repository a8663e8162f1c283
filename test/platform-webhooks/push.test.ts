// The platforms' pushes (src/platform-webhooks): Meta's verification handshake, and a signed push that
// queues one sync job for the post it names, whose comment then lands once with one comment.received;
// a missing or forged signature, a replay, a huge body, an unknown Page: refused or without effect.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultSyncDeps, type SyncDeps } from "../../src/analytics/sync";
import worker from "../../src/index";
import { PUSH_MAX_BYTES } from "../../src/platform-webhooks";
import { publishingAdapter } from "../../src/platforms";
import type { PlatformAdapter, PlatformComment } from "../../src/platforms/types";
import { deliver } from "../analytics/queue";
import { metrics, postOn, publishFake } from "../analytics/support";
import { ORIGIN } from "../support/client";
import { hmacHex } from "../support/hmac";
import { createAccount, createTenant } from "../support/seed";
import { createWebhook, receiverUrl } from "../webhooks/support";

const SECRET = "meta-app-secret";
const VERIFY_TOKEN = "meta-verify-token";
const vars = {
  FACEBOOK_CLIENT_SECRET: SECRET,
  FACEBOOK_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN,
  INSTAGRAM_CLIENT_SECRET: SECRET,
} as Partial<Env>;

let queued: { mock: { calls: Array<[Iterable<MessageSendRequest<unknown>>, ...unknown[]]> } };
beforeEach(() => {
  // The sync jobs are captured, delivered by hand; the announcements are read from the outbox.
  queued = vi.spyOn(env.ANALYTICS_SYNC_QUEUE, "sendBatch").mockResolvedValue(undefined as never);
  vi.spyOn(env.WEBHOOKS_QUEUE, "send").mockResolvedValue(undefined as never);
});
afterEach(() => {
  vi.restoreAllMocks();
});
const jobs = () =>
  queued.mock.calls.flatMap(([messages]) => [...messages].map((m) => (m.body as { row_id: number }).row_id));

/** A request to the worker with the Meta app configured (or `configured` instead). */
async function send(path: string, init: RequestInit = {}, configured: Partial<Env> = vars) {
  const response = await worker.fetch!(
    new Request(`${ORIGIN}${path}`, init) as never,
    { ...env, ...configured },
    createExecutionContext(),
  );
  return { status: response.status, text: await response.text() };
}

/** Meta's X-Hub-Signature-256 of a body, computed here independently of the route's check. */
const signature = async (body: string, secret = SECRET) => `sha256=${await hmacHex(secret, body)}`;

const push = async (
  platform: string,
  payload: unknown,
  sign: (body: string) => Promise<string | null> = signature,
) => {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  const header = await sign(body);
  return send(`/platform-webhooks/${platform}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(header ? { "x-hub-signature-256": header } : {}) },
    body,
  });
};

/** A Page's feed change: a follower commented on `postId`, with a text the service must not trust. */
const feedComment = (pageId: string, postId: string) => ({
  object: "page",
  entry: [
    {
      id: pageId,
      time: 1_764_000_000,
      changes: [
        {
          field: "feed",
          value: {
            item: "comment",
            verb: "add",
            post_id: postId,
            comment_id: `${postId}_9`,
            message: "Pushed text",
          },
        },
      ],
    },
  ],
});

/** A tenant listening for comment.received, with a Facebook Page whose published post has a comment. */
async function page() {
  const t = await createTenant();
  await createWebhook(t.key, {
    workspace_id: t.workspace.id,
    url: receiverUrl(),
    events: ["comment.received"],
  });
  const account = await createAccount(t.workspace.id, "facebook");
  const pageId = `page${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.prepare("UPDATE accounts SET platform_user_id = ? WHERE id = ?")
    .bind(pageId, account.id)
    .run();
  const post = await postOn(t, [account.id]);
  const rowId = post.rows[0]!;
  const platformPostId = `${pageId}_${rowId}`;
  await publishFake(rowId, metrics(), platformPostId);
  // Synced a while ago, as the schedule left it.
  await env.DB.prepare("UPDATE post_platforms SET analytics_synced_at = ? WHERE id = ?")
    .bind(Date.now() - 3_600_000, rowId)
    .run();
  return { t, pageId, postId: post.id, rowId, platformPostId };
}

/** The platform's own reading of the post's comments (what the sync stores), not the pushed text. */
const reading: SyncDeps = {
  ...defaultSyncDeps,
  adapterFor: (e, platform) =>
    ({
      ...publishingAdapter(e, platform, "live"),
      insights: async () => metrics({ comments: 1 }),
      comments: async () =>
        [
          {
            id: "c-1",
            content: "Read from the platform",
            author_name: "Fan",
            created_at: new Date(Date.UTC(2026, 10, 27, 9)),
            contact: null,
          },
        ] satisfies PlatformComment[],
    }) satisfies PlatformAdapter,
};

const commentsOf = async (postId: number) =>
  (
    await env.DB.prepare("SELECT id, content FROM comments WHERE post_id = ?").bind(postId).all<{
      id: number;
      content: string;
    }>()
  ).results;
const receivedOf = async (ids: number[]) =>
  (
    await env.DB.prepare(
      `SELECT record_id FROM outbox WHERE type = 'comment.received' AND record_id IN (${ids.join(",") || 0})`,
    ).all()
  ).results;

describe("GET /platform-webhooks/{platform}: Meta's verification", () => {
  const verify = (query: string, configured?: Partial<Env>) =>
    send(`/platform-webhooks/facebook?${query}`, {}, configured);

  it("answers the challenge to the verify token, and 403 to anything else", async () => {
    const ok = await verify(`hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(ok).toEqual({ status: 200, text: "1158201444" });
    expect((await verify("hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1")).status).toBe(403);
    expect(
      (await verify(`hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`)).status,
    ).toBe(403);
    expect((await verify("hub.challenge=1")).status).toBe(403);
  });

  it("is absent (404) for a platform without a verify token, and for one that does not push", async () => {
    expect((await verify(`hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`, {})).status).toBe(404);
    const other = await send("/platform-webhooks/twitter?hub.mode=subscribe&hub.verify_token=x", {});
    expect(other.status).toBe(404);
  });
});

describe("POST /platform-webhooks/{platform}", () => {
  it("queues one sync for the pushed post; the comment is read from the platform, stored and told once", async () => {
    const { pageId, postId, rowId, platformPostId } = await page();
    const answer = await push("facebook", feedComment(pageId, platformPostId));
    expect(answer).toEqual({ status: 200, text: JSON.stringify({ queued: 1 }) });
    expect(jobs()).toEqual([rowId]);

    // The job, delivered twice (the queue's redelivery): one comment, one comment.received.
    await deliver(jobs(), { deps: reading });
    await deliver(jobs(), { deps: reading });
    const stored = await commentsOf(postId);
    expect(stored.map((c) => c.content)).toEqual(["Read from the platform"]);
    expect(await receivedOf(stored.map((c) => c.id))).toHaveLength(1);

    // The same push replayed, or pushed again within the minute: nothing more is queued.
    expect((await push("facebook", feedComment(pageId, platformPostId))).text).toBe(
      JSON.stringify({ queued: 0 }),
    );
    expect(jobs()).toEqual([rowId]);
  });

  it("refuses a push without a signature (401) or with a forged one (403), and queues nothing", async () => {
    const { pageId, platformPostId } = await page();
    const payload = feedComment(pageId, platformPostId);
    expect((await push("facebook", payload, async () => null)).status).toBe(401);
    expect((await push("facebook", payload, (body) => signature(body, "another-secret"))).status).toBe(403);
    expect((await push("facebook", payload, async () => "sha256=00")).status).toBe(403);
    // Signed, then altered: the signature is of the raw body.
    const body = JSON.stringify(payload);
    const signed = await signature(body);
    const altered = await send("/platform-webhooks/facebook", {
      method: "POST",
      headers: { "x-hub-signature-256": signed },
      body: body.replace(pageId, `${pageId} `),
    });
    expect(altered.status).toBe(403);
    expect(jobs()).toEqual([]);
  });

  it("refuses a body past its cap (413) and queues nothing", async () => {
    const { pageId, platformPostId } = await page();
    const huge = JSON.stringify({
      ...feedComment(pageId, platformPostId),
      padding: "x".repeat(PUSH_MAX_BYTES),
    });
    expect((await push("facebook", huge)).status).toBe(413);
    expect(jobs()).toEqual([]);
  });

  it("answers 200 and queues nothing for a Page, post or field it does not know", async () => {
    const { pageId, platformPostId } = await page();
    for (const payload of [
      feedComment("unknown-page", platformPostId),
      feedComment(pageId, `${pageId}_404`),
      {
        object: "page",
        entry: [
          { id: pageId, changes: [{ field: "feed", value: { item: "reaction", post_id: platformPostId } }] },
        ],
      },
      { something: "else" },
    ]) {
      expect(await push("facebook", payload)).toEqual({ status: 200, text: JSON.stringify({ queued: 0 }) });
    }
    // A Facebook Page's push signed right but sent to Instagram's URL names no Instagram account.
    expect((await push("instagram", feedComment(pageId, platformPostId))).text).toBe(
      JSON.stringify({ queued: 0 }),
    );
    expect(jobs()).toEqual([]);
  });

  it("queues only what the named Page owns: another tenant's post named under it queues nothing", async () => {
    const mine = await page();
    const theirs = await page();
    for (const postId of [theirs.platformPostId, `${mine.pageId}_${theirs.rowId}`])
      expect((await push("facebook", feedComment(mine.pageId, postId))).text).toBe(
        JSON.stringify({ queued: 0 }),
      );
    expect(jobs()).toEqual([]);
  });

  it("answers a signed, deeply nested or unshaped body without failing, and queues nothing", async () => {
    const { pageId } = await page();
    const depth = 50_000;
    for (const body of [
      `${"[".repeat(depth)}${"]".repeat(depth)}`,
      `{"object":"page","entry":[{"id":"${pageId}","changes":[{"field":"feed","value":${"[".repeat(depth)}${"]".repeat(depth)}}]}]}`,
      JSON.stringify({ object: "page", entry: Array.from({ length: 2000 }, (_, i) => ({ id: `p${i}` })) }),
    ]) {
      const answer = await push("facebook", body);
      expect(answer.status).toBeLessThan(500);
    }
    // Threads takes an array of changes: a nested one is one item, not a walk.
    const nested = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const threads = await send(
      "/platform-webhooks/threads",
      { method: "POST", headers: { "x-hub-signature-256": await signature(nested) }, body: nested },
      { ...vars, THREADS_CLIENT_SECRET: SECRET } as Partial<Env>,
    );
    expect(threads).toEqual({ status: 200, text: JSON.stringify({ queued: 0 }) });
    expect(jobs()).toEqual([]);
  });

  it("is absent (404) while the platform's app secret is not set", async () => {
    const body = JSON.stringify(feedComment("p", "p_1"));
    const answer = await send(
      "/platform-webhooks/facebook",
      { method: "POST", headers: { "x-hub-signature-256": await signature(body) }, body },
      {},
    );
    expect(answer.status).toBe(404);
  });
});
