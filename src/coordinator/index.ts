// The Coordinator: the Durable Object that makes exact what must be exact under concurrency. One
// instance per name (names.ts): `user:<id>` holds that user's rate window; `delegation:<id>` holds one
// single-use OAuth flow; `account:<id>` serialises that account's token refreshes (run by the caller,
// src/accounts/tokens.ts, while the instance holds every other call back). A user's instance also knows
// which of the user's keys changed (key-state.ts), so isolates may cache keys, and the user's
// Idempotency-Key records (idempotency.ts), claimed in the same call that admits the request. An
// instance runs one method at a time and every read-check-write is synchronous SQL, so counts and
// "first one wins" need no locks. A call that only reads creates no table (tables.ts): naming an
// instance stores nothing. The rules live beside this file.
import { DurableObject } from "cloudflare:workers";
import { dropChoice, type HeldChoice, holdChoice, takeChoice } from "./choice";
import {
  createFlow,
  type Finishing,
  finishFlow,
  flowAlarm,
  type NewFlow,
  type Opening,
  openFlow,
} from "./flow";
import {
  type BeginIdempotent,
  type BeginResult,
  beginIdempotent,
  type FinishIdempotent,
  finishIdempotent,
  releaseIdempotent,
  sweepIdempotency,
} from "./idempotency";
import { isStale, recordKeyState } from "./key-state";
import type { AdmitRequest, AdmitResult } from "./names";
import { hitWindow, keyUses, loadWindow, type RateDecision, recordKeyUse, type Window } from "./rate-window";

export class Coordinator extends DurableObject<Env> {
  /** The rate window as last read or written; undefined until the first count reads it. */
  #window: Window | null | undefined;

  /**
   * Counts one request against the user's window, and records that `keyId` was used. `now` is
   * injectable so tests need not wait.
   */
  hit(limit: number, windowMs: number, now = Date.now(), keyId?: number): RateDecision {
    const sql = this.ctx.storage.sql;
    if (this.#window === undefined) this.#window = loadWindow(sql);
    const { decision, window } = hitWindow(sql, this.#window, limit, windowMs, now);
    this.#window = window;
    if (keyId !== undefined) recordKeyUse(this.ctx.storage.sql, keyId, now);
    return decision;
  }

  /**
   * The API gate's one call per request (src/http/gate.ts): unless the caller's cached key is stale
   * (`digest` given and not the key's current one: nothing is counted, the caller re-reads D1), counts
   * the request against the user's window and records the key's use. A key just read from D1 comes
   * without a digest: it is current by construction. With `claim` (a create that carries an
   * Idempotency-Key), an admitted request also claims the key, in the same call (idempotency.ts); a
   * stale or refused one claims nothing.
   */
  async admit(request: AdmitRequest): Promise<AdmitResult> {
    const sql = this.ctx.storage.sql;
    if (request.digest !== undefined && isStale(sql, request.keyId, request.digest)) return { stale: true };
    const decision = this.hit(request.limit, request.windowMs, request.now, request.keyId);
    if (!decision.allowed || !request.claim) return { stale: false, decision };
    return { stale: false, decision, claimed: await beginIdempotent(this.ctx.storage, request.claim) };
  }

  /**
   * Whether a cached key with this digest is still the key as D1 has it, counting nothing: the gate asks
   * before refusing a cached key as expired, since the operator may have extended it (src/http/gate.ts).
   */
  keyIsCurrent(keyId: number, digest: string): boolean {
    return !isStale(this.ctx.storage.sql, keyId, digest);
  }

  /** The operator changed or removed a key: caches holding another digest are stale from now on. */
  keyChanged(keyId: number, digest: string) {
    recordKeyState(this.ctx.storage.sql, keyId, digest);
  }

  /** Unix ms of the last request made with each of the user's keys that was ever used. */
  lastKeyUses(): Record<number, number> {
    return keyUses(this.ctx.storage.sql);
  }

  /**
   * On `user:<id>`: claims an Idempotency-Key for one request, or answers how a repeat is handled (the
   * gate's `admit` does the same with its count; this is for a claim it could not make).
   */
  beginIdempotent(begin: BeginIdempotent): Promise<BeginResult> {
    return beginIdempotent(this.ctx.storage, begin);
  }

  /** Stores the answer of the request that claimed the key (`token` from beginIdempotent). */
  finishIdempotent(finish: FinishIdempotent): boolean {
    return finishIdempotent(this.ctx.storage.sql, finish);
  }

  /** The request that claimed the key failed: the key may be used again. */
  releaseIdempotent(key: string, token: string): boolean {
    return releaseIdempotent(this.ctx.storage.sql, key, token);
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

  /** A finished connect that waits for the user's channel pick (src/coordinator/choice.ts). */
  holdConnectChoice(choice: HeldChoice, now = Date.now()) {
    return holdChoice(this.ctx.storage, choice, now);
  }

  takeConnectChoice(browserHash: string | null, now = Date.now()) {
    return takeChoice(this.ctx.storage, browserHash, now);
  }

  /**
   * On `account:<id>`: runs `work` (a function of the caller's, called back over RPC) with no other call
   * of this instance running meanwhile, so one account has at most one token refresh in flight
   * (src/accounts/tokens.ts). Its answer must be plain data: errors do not keep their class over RPC.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.ctx.blockConcurrencyWhile(() => work());
  }

  /**
   * One alarm per instance, meaning what the instance holds: a user's expired idempotency keys, a
   * connect choice, or a delegation flow.
   */
  override async alarm() {
    const now = Date.now();
    if (await sweepIdempotency(this.ctx.storage, now)) return;
    if (await dropChoice(this.ctx.storage, now)) return;
    await flowAlarm(this.ctx.storage, now);
  }
}
