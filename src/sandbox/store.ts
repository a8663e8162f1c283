// SandboxStore: the sandbox platform's storage, one Durable Object instance per platform
// (`env.SANDBOX_STORE.getByName(platform)`), reached only by the sandbox's own routes. Thin typed RPC
// over the rules in posts.ts, metrics.ts and spent.ts; `now` is a parameter so tests can drive time.
import { DurableObject } from "cloudflare:workers";
import type { Platform } from "../db/enums";
import type { PostMetrics } from "../platforms/types";
import { commentsAt, metricsAt, minutesSince, postSeed, type SandboxComment } from "./metrics";
import {
  type Attempt,
  accountPosts,
  attemptPublish,
  createTables,
  type Found,
  findByFingerprint,
  type NewPost,
  type PostView,
  postOwner,
  viewPost,
} from "./posts";
import { createSpentTable, spend } from "./spent";

export type ReplyAttempt = Attempt | { kind: "no_parent" };
export type Owned<T> = { kind: "ok"; value: T } | { kind: "unknown" } | { kind: "not_owner" };

export class SandboxStore extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      createTables(ctx.storage.sql);
      createSpentTable(ctx.storage.sql);
    });
  }

  /** Spends a code or a rotating refresh token by its id: true for the one caller that got to it first. */
  spend(id: string, expiresAt: number, now = Date.now()): boolean {
    return spend(this.ctx.storage.sql, id, expiresAt, now);
  }

  /** One publication attempt of a post (a thread when it has several items). */
  publish(post: NewPost, now = Date.now()): Attempt {
    return attemptPublish(this.ctx.storage.sql, { ...post, parentId: undefined }, now);
  }

  /** One attempt at replying to a published post; the reply is a post of its own, with its fingerprint. */
  reply(parentId: string, post: Omit<NewPost, "parentId">, now = Date.now()): ReplyAttempt {
    const sql = this.ctx.storage.sql;
    if (!postOwner(sql, parentId)) return { kind: "no_parent" };
    return attemptPublish(sql, { ...post, parentId }, now);
  }

  find(handle: string, fingerprint: string): Found | null {
    return findByFingerprint(this.ctx.storage.sql, handle, fingerprint);
  }

  post(id: string): PostView | null {
    return viewPost(this.ctx.storage.sql, id);
  }

  accountPosts(handle: string): PostView[] {
    return accountPosts(this.ctx.storage.sql, handle);
  }

  /** A post's metrics now; only its own account may read them. */
  async insights(
    platform: Platform,
    id: string,
    handle: string,
    now = Date.now(),
  ): Promise<Owned<PostMetrics>> {
    const owner = postOwner(this.ctx.storage.sql, id);
    if (!owner) return { kind: "unknown" };
    if (owner.handle !== handle) return { kind: "not_owner" };
    const minutes = minutesSince(owner.publishedAt, now);
    return { kind: "ok", value: metricsAt(platform, await postSeed(platform, id), minutes) };
  }

  /** A post's comments now, oldest first; comments are public. */
  async comments(platform: Platform, id: string, now = Date.now()): Promise<SandboxComment[] | null> {
    const owner = postOwner(this.ctx.storage.sql, id);
    if (!owner) return null;
    return commentsAt(platform, id, owner.publishedAt, minutesSince(owner.publishedAt, now));
  }
}
