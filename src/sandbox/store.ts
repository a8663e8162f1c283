// SandboxStore: the emulated platforms' storage, one Durable Object instance per platform
// (`env.SANDBOX_STORE.getByName(platform)`), reached only by the sandbox's own routes. Thin typed RPC
// over the rules in ledger.ts, metrics.ts and spent.ts; `now` is a parameter so tests can drive time.
// Values cross it as JSON text (the RPC types of arbitrary JSON are too deep): emulator.ts parses them.
import { DurableObject } from "cloudflare:workers";
import type { Platform } from "../db/enums";
import { withEngagement } from "../platforms/metrics";
import type { PostMetrics } from "../platforms/types";
import {
  bump,
  countTry,
  createLedgerTables,
  createObject,
  deleteStoredComment,
  dropMedia,
  getObject,
  insertComment,
  insertPost,
  keepMedia,
  type LedgerObject,
  type LedgerPost,
  listObjects,
  listPosts,
  type NewLedgerComment,
  type NewLedgerPost,
  repliesTo,
  revoke,
  revokedAt,
  type Stat,
  type Stats,
  setCommentHidden,
  statsOf,
  storedComment,
  storedComments,
  updateObject,
  viewPost,
} from "./ledger";
import { commentsAt, metricsAt, minutesSince, postSeed, type SandboxComment } from "./metrics";
import { createSpentTable, spend } from "./spent";

export class SandboxStore extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
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

  post(id: string): LedgerPost | null {
    return viewPost(this.ctx.storage.sql, id);
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

  /**
   * A post's comments now, oldest first: the made-up ones by its publication time, and the followers'
   * (replies to comments included).
   */
  async comments(platform: Platform, id: string, now = Date.now()): Promise<SandboxComment[] | null> {
    const post = viewPost(this.ctx.storage.sql, id);
    if (!post) return null;
    const publishedAt = Date.parse(post.published_at);
    const made = await commentsAt(platform, id, publishedAt, minutesSince(publishedAt, now));
    const left = storedComments(this.ctx.storage.sql, id).filter((comment) => comment.created_at <= now);
    return [...made, ...left].sort((a, b) => a.created_at - b.created_at || a.id.localeCompare(b.id));
  }

  /** Stores a follower's comment (the follower tool); its id. */
  addComment(comment: NewLedgerComment, now = Date.now()): string {
    return insertComment(this.ctx.storage.sql, comment, now);
  }

  /** A stored comment (followers' and the account's, not the made-up ones) with its post's id. */
  comment(id: string) {
    return storedComment(this.ctx.storage.sql, id);
  }

  hideComment(id: string, hidden: boolean): void {
    setCommentHidden(this.ctx.storage.sql, id, hidden);
  }

  deleteComment(id: string): void {
    deleteStoredComment(this.ctx.storage.sql, id);
  }

  /** A ledger post's metrics now: `comments` counts the followers' too, as the listing shows them. */
  async metrics(platform: Platform, id: string, now = Date.now()): Promise<PostMetrics | null> {
    const post = viewPost(this.ctx.storage.sql, id);
    if (!post) return null;
    const minutes = minutesSince(Date.parse(post.published_at), now);
    const { engagement_rate: _rate, ...made } = metricsAt(platform, await postSeed(platform, id), minutes);
    const left = storedComments(this.ctx.storage.sql, id).filter((comment) => comment.created_at <= now);
    return left.length === 0
      ? { ...made, engagement_rate: _rate }
      : withEngagement({ ...made, comments: made.comments + left.length });
  }

  /** Records stored media of the account; the keys of older media to delete (SANDBOX_LIMITS). */
  keepMedia(handle: string, key: string, bytes: number): string[] {
    return keepMedia(this.ctx.storage.sql, handle, key, bytes);
  }

  dropMedia(keys: string[]): void {
    dropMedia(this.ctx.storage.sql, keys);
  }

  /** Spends a code or a rotating refresh token by its id: true for the one caller that got to it first. */
  spend(id: string, expiresAt: number, now = Date.now()): boolean {
    return spend(this.ctx.storage.sql, id, expiresAt, now);
  }
}
