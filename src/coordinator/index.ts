// The Coordinator: the Durable Object that makes exact what must be exact under concurrency. One
// instance per name: `user:<id>` holds that user's rate window; `delegation:<id>` holds one single-use
// OAuth flow; `account:<id>` serialises that account's token refreshes. An instance runs one method at a time and every read-check-write is synchronous SQL, so
// counts and "first one wins" need no locks. The rules live beside this file.
import { DurableObject } from "cloudflare:workers";
import { type RefreshResult, refreshStoredToken } from "../accounts/tokens";
import {
  createFlow,
  type Finishing,
  finishFlow,
  flowAlarm,
  type NewFlow,
  type Opening,
  openFlow,
} from "./flow";
import { hitWindow, keyUses, loadWindow, type RateDecision, recordKeyUse, type Window } from "./rate-window";

export type { RateDecision } from "./rate-window";

export const userCoordinator = (userId: number) => `user:${userId}`;
export const flowCoordinator = (flowId: string) => `delegation:${flowId}`;
export const accountCoordinator = (accountId: number) => `account:${accountId}`;

export class Coordinator extends DurableObject<Env> {
  #window: Window | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.#window = loadWindow(ctx.storage.sql);
    });
  }

  /**
   * Counts one request against the user's window, and records that `keyId` was used. `now` is
   * injectable so tests need not wait.
   */
  hit(limit: number, windowMs: number, now = Date.now(), keyId?: number): RateDecision {
    const { decision, window } = hitWindow(this.ctx.storage.sql, this.#window, limit, windowMs, now);
    this.#window = window;
    if (keyId !== undefined) recordKeyUse(this.ctx.storage.sql, keyId, now);
    return decision;
  }

  /** Unix ms of the last request made with each of the user's keys that was ever used. */
  lastKeyUses(): Record<number, number> {
    return keyUses(this.ctx.storage.sql);
  }

  createDelegation(flow: NewFlow, now = Date.now()) {
    return createFlow(this.ctx.storage, flow, now);
  }

  openDelegation(opening: Opening, now = Date.now()) {
    return openFlow(this.ctx.storage, opening, now);
  }

  finishDelegation(finishing: Finishing, now = Date.now()) {
    return finishFlow(this.ctx.storage, finishing, now);
  }

  /**
   * On `account:<id>`: refreshes the account's token if still needed (src/accounts/tokens.ts), with no
   * other call of this instance running meanwhile, so one account has at most one refresh in flight.
   */
  refreshAccountToken(accountId: number, rejected: string | null): Promise<RefreshResult> {
    return this.ctx.blockConcurrencyWhile(() => refreshStoredToken(this.env, accountId, rejected));
  }

  override async alarm() {
    await flowAlarm(this.ctx.storage, Date.now());
  }
}
