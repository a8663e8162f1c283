// SandboxStore: the sandbox platform's storage, one Durable Object instance per platform
// (`env.SANDBOX_STORE.getByName(platform)`), reached only by the sandbox's own routes. Thin typed RPC
// over the rules in posts.ts, metrics.ts and spent.ts; `now` is a parameter so tests can drive time.
import { DurableObject } from "cloudflare:workers";
import type { Platform } from "../db/enums";
import type { PostMetrics } from "../platforms/types";
import {
  bump,
  countTry,
  createLedgerTables,
  createObject,
  getObject,
  insertPost,
  type LedgerObject,
  type LedgerPost,
  listObjects,
  listPosts,
  type NewLedgerPost,
  repliesTo,
  revoke,
  revokedAt,
  type Stat,
  type Stats,
  statsOf,
  updateObject,
  viewPost as viewLedgerPost,
} from "./ledger";
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
      createLedgerTables(ctx.storage.sql);
    });
  }

  // The emulated platform's ledger (ledger.ts).

  /** Counts one attempt of (handle, key): the failure triggers decide by its number, from 1. */
  countTry(handle: string, key: string): number {
    return countTry(this.ctx.storage.sql, handle, key);
  }

  bump(handle: string, stat: Stat, by = 1): void {
    bump(this.ctx.storage.sql, handle, stat, by);
  }

  stats(handle: string): Stats {
    return statsOf(this.ctx.storage.sql, handle);
  }

  /** The user removed the app: every token of the account issued until now stops working. */
  revoke(handle: string, now = Date.now()): void {
    revoke(this.ctx.storage.sql, handle, now);
  }

  revokedAt(handle: string): number | null {
    return revokedAt(this.ctx.storage.sql, handle);
  }

  insertPost(post: NewLedgerPost, now = Date.now()): { id: string; publishedAt: number } {
    return insertPost(this.ctx.storage.sql, post, now);
  }

  ledgerPost(id: string): LedgerPost | null {
    return viewLedgerPost(this.ctx.storage.sql, id);
  }

  listPosts(handle: string, options: { parentId?: string | null; all?: boolean } = {}): LedgerPost[] {
    return listPosts(this.ctx.storage.sql, handle, options);
  }

  repliesTo(parentId: string): LedgerPost[] {
    return repliesTo(this.ctx.storage.sql, parentId);
  }

  createObject(
    object: { id?: string; handle: string; kind: string; data: string; readyAt: number },
    now = Date.now(),
  ): LedgerObject {
    return createObject(this.ctx.storage.sql, object, now);
  }

  getObject(id: string): LedgerObject | null {
    return getObject(this.ctx.storage.sql, id);
  }

  updateObject(id: string, patch: string, readyAt?: number): LedgerObject | null {
    return updateObject(this.ctx.storage.sql, id, patch, readyAt);
  }

  listObjects(handle: string, kind: string): LedgerObject[] {
    return listObjects(this.ctx.storage.sql, handle, kind);
  }

  /** A post's comments now, oldest first, by its publication time (the ledger's posts). */
  async ledgerComments(platform: Platform, id: string, now = Date.now()): Promise<SandboxComment[] | null> {
    const post = viewLedgerPost(this.ctx.storage.sql, id);
    if (!post) return null;
    const publishedAt = Date.parse(post.published_at);
    return commentsAt(platform, id, publishedAt, minutesSince(publishedAt, now));
  }

  /** A ledger post's metrics now. */
  async ledgerMetrics(platform: Platform, id: string, now = Date.now()): Promise<PostMetrics | null> {
    const post = viewLedgerPost(this.ctx.storage.sql, id);
    if (!post) return null;
    const minutes = minutesSince(Date.parse(post.published_at), now);
    return metricsAt(platform, await postSeed(platform, id), minutes);
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
