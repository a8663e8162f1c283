// Per-platform post settings, assembled from each platform's own settings.ts (src/platforms/<platform>/):
// one strict request schema per platform, defaults filled in, so every platform row carries the complete
// settings object its platform's publisher needs (Twitter's keys are the spec's); and the documented shape
// of that complete object, checked at compile time against what the request schema produces, so the API
// reference cannot drift from the validator.
import { z } from "zod";
import { PLATFORMS, type Platform } from "../db/enums";
import { settings as facebookSettings, settingsShape as facebookShape } from "./facebook/settings";
import { settings as instagramSettings, settingsShape as instagramShape } from "./instagram/settings";
import { settings as linkedinSettings, settingsShape as linkedinShape } from "./linkedin/settings";
import { settings as pinterestSettings, settingsShape as pinterestShape } from "./pinterest/settings";
import { settings as threadsSettings, settingsShape as threadsShape } from "./threads/settings";
import { settings as tiktokSettings, settingsShape as tiktokShape } from "./tiktok/settings";
import { settings as twitterSettings, settingsShape as twitterShape } from "./twitter/settings";
import { settings as youtubeSettings, settingsShape as youtubeShape } from "./youtube/settings";

export const PLATFORM_SETTINGS = {
  twitter: twitterSettings,
  tiktok: tiktokSettings,
  youtube: youtubeSettings,
  pinterest: pinterestSettings,
  instagram: instagramSettings,
  facebook: facebookSettings,
  linkedin: linkedinSettings,
  threads: threadsSettings,
} satisfies Record<Platform, z.ZodType>;

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
const SETTINGS_SCHEMAS = {
  twitter: twitterShape,
  tiktok: tiktokShape,
  youtube: youtubeShape,
  pinterest: pinterestShape,
  instagram: instagramShape,
  facebook: facebookShape,
  linkedin: linkedinShape,
  threads: threadsShape,
} satisfies Record<Platform, z.ZodType>;

// Compile-time proof that each documented shape is exactly what its request schema produces.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Documented = { [P in Platform]: z.output<(typeof SETTINGS_SCHEMAS)[P]> };
true satisfies Same<PlatformSettings, Documented>;

/** A row's settings: the complete object of the row's platform. */
export const rowSettingsSchema = z.union(PLATFORMS.map((p) => SETTINGS_SCHEMAS[p])).meta({
  description:
    "The complete settings of the row's platform: what `settings` gave, every other key at its default.",
});

/** The complete settings of a platform row: what the client sent, with every default filled in. */
export function settingsFor(
  platform: Platform,
  given: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return given ?? (PLATFORM_SETTINGS[platform].parse({}) as Record<string, unknown>);
}
