// Helpers for the publishing engine's tests: posts put in a state straight in D1 (so the real queue
// holds no message for them and a test drives the consumer alone), the consumer called as the runtime
// calls it (createMessageBatch / getQueueResult), a scripted fake platform, and the sandbox's account
// list, which is how publications are counted.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import type { Platform } from "../../src/db/enums";
import worker from "../../src/index";
import type { AccountAuth, PlatformAdapter, PublishDraft, PublishedPost } from "../../src/platforms/types";
import { deadLetterBatch, publishBatch } from "../../src/publishing/consumer";
import { defaultDeps, type PublishDeps } from "../../src/publishing/deps";
import { openProgress, sealProgress } from "../../src/publishing/progress";
import { call } from "../support/client";
import { createPost, type createTenant } from "../support/seed";
import { waitFor } from "../support/wait";

export type Tenant = Awaited<ReturnType<typeof createTenant>>;

let messageCounter = 0;

/** Delivers messages to a consumer; answers what it acknowledged and retried, with the retry delays. */
export async function deliver(
  bodies: unknown[],
  options: { queue?: "publish" | "publish-dlq"; attempts?: number; deps?: Partial<PublishDeps> } = {},
) {
  const queue = options.queue ?? "publish";
  const batch = createMessageBatch(
    queue,
    bodies.map((body) => ({
      id: `pub-${messageCounter++}`,
      timestamp: new Date(),
      attempts: options.attempts ?? 1,
      body,
    })),
  );
  const retries = batch.messages.map((message) => vi.spyOn(message, "retry"));
  const ctx = createExecutionContext();
  if (options.deps) {
    const deps = { ...defaultDeps, ...options.deps };
    await (queue === "publish" ? publishBatch(batch, env, deps) : deadLetterBatch(batch, env, deps));
  } else {
    await worker.queue(batch, env, ctx);
  }
  const result = await getQueueResult(batch, ctx);
  const delays = retries.flatMap((spy) => spy.mock.calls.map(([opts]) => opts?.delaySeconds));
  return { acks: result.explicitAcks.length, retries: result.retryMessages.length, delays };
}

export type RowRecord = {
  id: number;
  account_id: number;
  platform: Platform;
  status: string;
  platform_post_id: string | null;
  post_url: string | null;
  posted_on: number[];
  error: { code: string; message: string } | null;
  attempts: number;
  attempt_id: string | null;
  attempt_started_at: number | null;
  updated_at: number;
};

export async function rowsOf(postId: number): Promise<RowRecord[]> {
  const { results } = await env.DB.prepare("SELECT * FROM post_platforms WHERE post_id = ? ORDER BY id")
    .bind(postId)
    .all<Record<string, unknown>>();
  return results.map((row) => ({
    ...(row as unknown as RowRecord),
    posted_on: JSON.parse(row.posted_on as string),
    error: row.error === null ? null : JSON.parse(row.error as string),
  }));
}

export async function postOf(postId: number) {
  return env.DB.prepare("SELECT * FROM posts WHERE id = ?").bind(postId).first<{
    status: string;
    scheduled_at: number | null;
    remaining_posts: number | null;
    updated_at: number;
  }>();
}

/** Sets a post and all its rows to `status` (and `scheduled_at`), as a claim or the API would. */
export async function setStatus(postId: number, status: string, scheduledAt: number | null = Date.now()) {
  await env.DB.batch([
    env.DB.prepare("UPDATE posts SET status = ?, scheduled_at = ? WHERE id = ?").bind(
      status,
      scheduledAt,
      postId,
    ),
    env.DB.prepare("UPDATE post_platforms SET status = ? WHERE post_id = ?").bind(status, postId),
  ]);
}

/**
 * A post created through the API as a draft (nothing queued), then made PUBLISHING straight in D1, as
 * `publish_now` or a claim leaves it: only the messages a test delivers publish it.
 */
export async function publishingPost(t: Tenant, fields: Record<string, unknown> = {}) {
  const post = await createPost(t, fields);
  await setStatus(post.id, "PUBLISHING");
  return post.id as number;
}

export const handleOf = async (accountId: number) =>
  (await env.DB.prepare("SELECT username FROM accounts WHERE id = ?")
    .bind(accountId)
    .first<{ username: string }>())!.username;

/** Every post the sandbox holds for the account, oldest first. */
export async function sandboxPosts(platform: Platform, accountId: number) {
  const handle = await handleOf(accountId);
  const res = await call("GET", `/sandbox/${platform}/accounts/${encodeURIComponent(handle)}/posts`);
  expect(res.status).toBe(200);
  return res.body.data as Array<{
    id: string;
    text: string[];
    media: Array<{ item: number; url: string; type: string }>;
    published_at: string;
  }>;
}

/** Waits until no row of the post is PUBLISHING and the post is settled; answers its rows. */
export const settled = (postId: number, timeout = 10_000, status = "PUBLISHED") =>
  waitFor(async () => ((await postOf(postId))?.status === status ? rowsOf(postId) : undefined), {
    timeout,
    what: `post ${postId} ${status}`,
  });

type Step = PublishedPost | Error | ((draft: PublishDraft) => Promise<PublishedPost>);

/**
 * A scripted platform: `publish` plays `steps` in turn (the last one repeats), `find` answers what
 * `published` holds for the fingerprint. Every call is recorded.
 */
export function fakePlatform(steps: Step[] = [{ id: "1", url: "https://x.example/1" }]) {
  const calls: Array<{
    method: "publish" | "find";
    account: AccountAuth;
    draft?: PublishDraft;
    fingerprint: string;
  }> = [];
  const published = new Map<string, PublishedPost>();
  let step = 0;
  const adapter = {
    async publish(account: AccountAuth, draft: PublishDraft) {
      calls.push({ method: "publish", account, draft, fingerprint: draft.fingerprint });
      const next = steps[Math.min(step++, steps.length - 1)]!;
      if (next instanceof Error) throw next;
      const post = typeof next === "function" ? await next(draft) : next;
      published.set(draft.fingerprint, post);
      return post;
    },
    async find(account: AccountAuth, { fingerprint }: { fingerprint: string }) {
      calls.push({ method: "find", account, fingerprint });
      return published.get(fingerprint) ?? null;
    },
  } as unknown as PlatformAdapter;
  const publishes = () => calls.filter((c) => c.method === "publish");
  return { adapter, calls, publishes, published, deps: { adapterFor: () => adapter } };
}

/** What a row's `progress` holds (it is sealed in D1), with the publication it belongs to; null when none. */
export async function storedProgress(rowId: number): Promise<Record<string, any> | null> {
  const row = await env.DB.prepare("SELECT progress FROM post_platforms WHERE id = ?")
    .bind(rowId)
    .first<{ progress: string | null }>();
  if (!row?.progress) return null;
  const stored = JSON.parse(row.progress) as { fingerprint: string };
  return { fingerprint: stored.fingerprint, ...(await openProgress(env, stored, rowId, stored.fingerprint)) };
}

/** Stores `values` as the row's progress for the publication `fingerprint` (sealed, as the engine does). */
export async function seedProgress(rowId: number, fingerprint: string, values: Record<string, unknown>) {
  const stored = await sealProgress(env, rowId, fingerprint, values);
  await env.DB.prepare("UPDATE post_platforms SET progress = ? WHERE id = ?")
    .bind(JSON.stringify(stored), rowId)
    .run();
}
