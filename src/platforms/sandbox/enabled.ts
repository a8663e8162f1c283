/** The sandbox platform is on only when SANDBOX is exactly "true" (never in production). */
export const sandboxEnabled = (env: Pick<Env, "SANDBOX">) => env.SANDBOX === "true";

/** SANDBOX_TIME_SCALE as a number ≥ 1 (anything unreadable is 1). */
export function timeScale(env: { SANDBOX_TIME_SCALE?: string }): number {
  const scale = Number(env.SANDBOX_TIME_SCALE ?? "1");
  return Number.isFinite(scale) && scale >= 1 ? scale : 1;
}

/**
 * A platform's documented duration (seconds) in ms, as the service must reckon it: on the sandbox's
 * clock (divided by SANDBOX_TIME_SCALE) while the sandbox answers for the platforms, so the service's
 * token rules (the refresh margin, the keep-alive windows) keep pace with the emulators' token lifetimes.
 */
export const platformClockMs = (
  env: Pick<Env, "SANDBOX"> & { SANDBOX_TIME_SCALE?: string },
  seconds: number,
) => Math.round((seconds * 1000) / (sandboxEnabled(env) ? timeScale(env) : 1));
