// The clock the service reckons a platform's documented durations on (the refresh margin, the keep-alive
// windows, an insights lifetime): the platform's own, but where the platforms are emulated (SANDBOX=true),
// whose tokens and posts live on a clock SANDBOX_TIME_SCALE times faster. The one seam through which
// production code (src/accounts/, src/analytics/) learns that clock, without naming the sandbox.
import { sandboxEnabled, timeScale } from "./sandbox/enabled";

type ClockEnv = { SANDBOX?: string; SANDBOX_TIME_SCALE?: string };

/** How many of the platforms' seconds pass in one real second: 1, but for the emulated platforms. */
export const clockScale = (env: ClockEnv): number => (sandboxEnabled(env) ? timeScale(env) : 1);

/** A platform's documented duration (seconds) in real ms, on the platforms' clock. */
export const platformClockMs = (env: ClockEnv, seconds: number) =>
  Math.round((seconds * 1000) / clockScale(env));
