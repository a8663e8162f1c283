// The Durable Object that serialises what must be exact under concurrency. One instance per key:
// `user:<id>` holds that user's rate-limit window; `delegation:<id>` holds one single-use delegation
// flow. Its methods run one at a time per instance, so counts need no locks.
import { DurableObject } from "cloudflare:workers";
import {
  createFlow,
  type Finishing,
  finishFlow,
  flowAlarm,
  type NewFlow,
  type Opening,
  openFlow,
} from "./delegation/store";

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix ms at which the current window closes. */
  resetAt: number;
};

export class Gate extends DurableObject<Env> {
  #window: { start: number; count: number } | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      ctx.storage.sql.exec(
        "CREATE TABLE IF NOT EXISTS rate_window (id INTEGER PRIMARY KEY CHECK (id = 1), start INTEGER NOT NULL, count INTEGER NOT NULL)",
      );
      const row = ctx.storage.sql
        .exec<{ start: number; count: number }>("SELECT start, count FROM rate_window")
        .toArray()[0];
      this.#window = row ? { start: row.start, count: row.count } : null;
    });
  }

  /**
   * Counts one request against a fixed window that opens at its first request (Laravel's throttle).
   * Refused requests do not extend or consume the window.
   */
  hit(limit: number, windowMs: number, now = Date.now()): RateDecision {
    let window = this.#window;
    if (!window || now >= window.start + windowMs) window = { start: now, count: 0 };
    const resetAt = window.start + windowMs;
    if (window.count >= limit) {
      this.#window = window;
      return { allowed: false, limit, remaining: 0, resetAt };
    }
    window.count += 1;
    this.#window = window;
    this.ctx.storage.sql.exec(
      "INSERT INTO rate_window (id, start, count) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET start = excluded.start, count = excluded.count",
      window.start,
      window.count,
    );
    return { allowed: true, limit, remaining: limit - window.count, resetAt };
  }

  // Delegation flows, one per `delegation:<id>` instance; the rules live in src/delegation/store.ts.
  // `now` is injectable like hit()'s, so expiry is testable without waiting.

  createDelegation(flow: NewFlow, now = Date.now()) {
    return createFlow(this.ctx.storage, flow, now);
  }

  openDelegation(opening: Opening, now = Date.now()) {
    return openFlow(this.ctx.storage, opening, now);
  }

  finishDelegation(finishing: Finishing, now = Date.now()) {
    return finishFlow(this.ctx.storage, finishing, now);
  }

  override async alarm() {
    await flowAlarm(this.ctx.storage, Date.now());
  }
}
