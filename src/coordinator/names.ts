// What callers of the Coordinator need, apart from the Durable Object class (index.ts): the names of its
// instances, so nobody writes one by hand, and the types of its RPC answers. Importing this file never
// loads the class.
import type { BeginIdempotent, BeginResult } from "./idempotency";
import type { RateDecision } from "./rate-window";

export type { BeginResult, RateDecision };

/** A user's instance: their rate window, their keys' state and last uses, their Idempotency-Keys. */
export const userCoordinator = (userId: number) => `user:${userId}`;
/** One delegation or connect flow (single use), and a connect's pending channel pick. */
export const flowCoordinator = (flowId: string) => `delegation:${flowId}`;
/** One account: its token refreshes run here one at a time. */
export const accountCoordinator = (accountId: number) => `account:${accountId}`;

export type AdmitRequest = {
  limit: number;
  windowMs: number;
  now: number;
  keyId: number;
  digest?: string;
  /** An Idempotency-Key to claim once the request is admitted. */
  claim?: BeginIdempotent;
};
/** `claimed`: the claim's outcome, when the request was admitted with one. */
export type AdmitResult = { stale: true } | { stale: false; decision: RateDecision; claimed?: BeginResult };
/** The console's sign-in attempts of one subject (`email:<sha-256>` or `ip:<address>`): a rate window only. */
export const signInCoordinator = (subject: string) => `sign-in:${subject}`;
