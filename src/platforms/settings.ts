// Per-platform post settings, assembled from each platform's own settings.ts (src/platforms/<platform>/):
// one strict request schema per platform, defaults filled in, so every platform row carries the complete
// settings object its platform's publisher needs (Twitter's keys are the spec's); and the documented shape
// of that complete object, checked at compile time against what the request schema produces, so the API
// reference cannot drift from the validator.
import { z } from "zod";
import { PLATFORMS, type Platform } from "../db/enums";
import { DEFINITIONS } from "./catalog";

type Definitions = typeof DEFINITIONS;

/**
 * The order of the platforms' keys in `settings` (and so of the request schema's properties and of its
 * errors), as the API has always had it; a platform not named here follows, in the registry's order.
 */
const KEY_ORDER: readonly string[] = [
  "twitter",
  "tiktok",
  "youtube",
  "pinterest",
  "instagram",
  "facebook",
  "linkedin",
  "threads",
];
const ORDERED = [...new Set([...KEY_ORDER, ...PLATFORMS])].filter((p): p is Platform =>
  (PLATFORMS as readonly string[]).includes(p),
);

/** Each platform's request schema of `settings.<platform>`, from its definition. */
export const PLATFORM_SETTINGS = Object.fromEntries(ORDERED.map((p) => [p, DEFINITIONS[p].settings])) as {
  [P in Platform]: Definitions[P]["settings"];
};

export type PlatformSettings = { [P in Platform]: z.output<(typeof PLATFORM_SETTINGS)[P]> };

/** The request's `settings`: an object keyed by platform, each validated by its platform's schema. */
export const settingsInput = z
  .object(
    Object.fromEntries(Object.entries(PLATFORM_SETTINGS).map(([p, s]) => [p, s.optional()])) as {
      [P in Platform]: z.ZodOptional<(typeof PLATFORM_SETTINGS)[P]>;
    },
  )
  .strict();

/** The complete settings object of a platform row, as answers render it: every key present. */
export const SETTINGS_SCHEMAS = Object.fromEntries(ORDERED.map((p) => [p, DEFINITIONS[p].settingsShape])) as {
  [P in Platform]: Definitions[P]["settingsShape"];
};

// Compile-time proof that each documented shape is exactly what its request schema produces.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Documented = { [P in Platform]: z.output<(typeof SETTINGS_SCHEMAS)[P]> };
true satisfies Same<PlatformSettings, Documented>;

/** The complete settings of a platform row: what the client sent, with every default filled in. */
export function settingsFor(
  platform: Platform,
  given: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return given ?? (PLATFORM_SETTINGS[platform].parse({}) as Record<string, unknown>);
}
