// The sandbox's clock for the platforms' durations (ARCHITECTURE "Sandbox platform"): every documented
// duration (a token's lifetime, Meta's "at least a day old") is divided by SANDBOX_TIME_SCALE, so a
// 60-day token can be watched expiring in two minutes. A token's lifetime never drops below 60 s, so a
// token is always usable for the call it was issued for.

import { timeScale } from "../platforms/sandbox/enabled";

export { timeScale };

export const MIN_LIFETIME_MS = 60_000;

/** A documented duration in seconds, on the sandbox's clock, in ms. */
export const scaledMs = (env: { SANDBOX_TIME_SCALE?: string }, seconds: number) =>
  Math.round((seconds * 1000) / timeScale(env));

/** A token's documented lifetime in seconds, on the sandbox's clock, in ms (60 s at least). */
export const lifetimeMs = (env: { SANDBOX_TIME_SCALE?: string }, seconds: number) =>
  Math.max(MIN_LIFETIME_MS, scaledMs(env, seconds));
