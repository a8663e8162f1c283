/** The sandbox platform is on only when SANDBOX is exactly "true" (never in production). */
export const sandboxEnabled = (env: { SANDBOX?: string }) => env.SANDBOX === "true";

/** SANDBOX_TIME_SCALE as a number ≥ 1 (anything unreadable is 1). */
export function timeScale(env: { SANDBOX_TIME_SCALE?: string }): number {
  const scale = Number(env.SANDBOX_TIME_SCALE ?? "1");
  return Number.isFinite(scale) && scale >= 1 ? scale : 1;
}
