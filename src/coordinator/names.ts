// What callers of the Coordinator need, apart from the Durable Object class (index.ts): the names of its
// instances, so nobody writes one by hand, and the types of its RPC answers. Importing this file never
// loads the class.

import { MODES, type Mode } from "../db/enums";
import type { BeginIdempotent, BeginResult } from "./idempotency";
import type { RateDecision } from "./rate-window";

export type { BeginResult, RateDecision };

/**
 * A user's instance in one mode: their rate window, their keys' state and last uses, their
 * Idempotency-Keys. Test keys count in an instance of their own, so test traffic never spends the live
 * window (ARCHITECTURE "Test mode"); live keep the name they always had.
 */
export const userCoordinator = (tenant: { userId: number; mode: Mode }) =>
  tenant.mode === "live" ? `user:${tenant.userId}` : `user:${tenant.userId}:${tenant.mode}`;

/** When each of the user's keys (of both modes) was last used: Unix ms by key id. */
export async function keyUsesOfUser(
  env: Pick<Env, "COORDINATOR">,
  userId: number,
): Promise<Record<number, number>> {
  const uses = await Promise.all(
    MODES.map((mode) => env.COORDINATOR.getByName(userCoordinator({ userId, mode })).lastKeyUses()),
  );
  return Object.assign({}, ...uses);
}
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
