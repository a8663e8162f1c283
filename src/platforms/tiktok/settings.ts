// The settings a tiktok row takes (`settings.tiktok`): the strict request schema with its defaults, and the
// complete object answers render (src/platforms/settings.ts assembles every platform's).
import { z } from "zod";
import { nullableText, text } from "../settings-fields";

/** TikTok's privacy levels; an account offers some of them (`creator_info`'s `privacy_level_options`). */
export const PRIVACY_LEVELS = [
  "PUBLIC_TO_EVERYONE",
  "MUTUAL_FOLLOW_FRIENDS",
  "FOLLOWER_OF_CREATOR",
  "SELF_ONLY",
] as const;

/** The request schema of `settings.tiktok`: strict, every key defaulted. */
export const settings = z
  .object({
    // No default: TikTok wants the user's explicit choice (rules.ts refuses a row without one).
    privacy_level: z.enum(PRIVACY_LEVELS).nullable().default(null).meta({
      description:
        "Required for a post to a TikTok account (a 422 without it): one of the account's privacy_level_options from TikTok's creator_info; an app TikTok has not audited may post only SELF_ONLY.",
    }),
    title: text(2200),
    disable_duet: z.boolean().default(false),
    disable_stitch: z.boolean().default(false),
    disable_comment: z.boolean().default(false),
    brand_content_toggle: z.boolean().default(false),
    brand_organic_toggle: z.boolean().default(false),
    is_aigc: z.boolean().default(false),
  })
  .strict();

/** The complete settings object of a tiktok row, as answers render it: every key present. */
export const settingsShape = z
  .strictObject({
    privacy_level: z.enum(PRIVACY_LEVELS).nullable(),
    title: nullableText(),
    disable_duet: z.boolean(),
    disable_stitch: z.boolean(),
    disable_comment: z.boolean(),
    brand_content_toggle: z.boolean(),
    brand_organic_toggle: z.boolean(),
    is_aigc: z.boolean(),
  })
  .meta({ id: "TiktokSettings", description: "Settings of a TikTok row." });
