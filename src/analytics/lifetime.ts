// How long a platform gives insights for a row (PlatformDefinition.insightsLifetime): past it, neither the
// sync nor the cron's refresh asks the platform anything more for the row, and it keeps what it stored
// (an Instagram or Facebook story's metrics, read while it lived, are not overwritten with zeros).
import type { Platform } from "../db/enums";
import { SPECS } from "../platforms/catalog";
import { platformClockMs } from "../platforms/clock";
import type { PlatformDefinition } from "../platforms/define";

/** What the lifetime rule needs of a platform: its definition's `insightsLifetime`, if any. */
export type LifetimeOf = (platform: Platform) => Pick<PlatformDefinition, "insightsLifetime">;

export const catalogLifetime: LifetimeOf = (platform) => SPECS[platform] ?? {};

/** The row's last publication (Unix ms): its last `posted_on`, else its last update. */
export const publishedAt = (row: { postedOn: number[]; updatedAt: Date }) =>
  row.postedOn.at(-1) ?? row.updatedAt.getTime();

/**
 * Whether the platform gives no more insights for the row at `now` (Unix ms); `env` gives the platforms'
 * clock (an emulated story's day passes SANDBOX_TIME_SCALE times faster).
 */
export function insightsOver(
  env: Parameters<typeof platformClockMs>[0],
  definition: Pick<PlatformDefinition, "insightsLifetime">,
  row: { settings: Record<string, unknown>; postedOn: number[]; updatedAt: Date },
  now: number,
): boolean {
  const lifetime = definition.insightsLifetime?.(row.settings ?? {});
  return lifetime !== undefined && now - publishedAt(row) > platformClockMs(env, lifetime);
}
