// Per-platform post settings: one strict request schema per platform, defaults filled in, so every
// platform row carries the complete settings object its platform's publisher needs (Twitter's keys are
// the spec's); and the documented shape of that complete object, checked at compile time against what
// the request schema produces, so the API reference cannot drift from the validator.
import { z } from "zod";
import { PLATFORMS, type Platform } from "../db/enums";

const id = () => z.string().trim().min(1).max(64).nullable().default(null);
const text = (max: number) => z.string().max(max).nullable().default(null);

const twitterPoll = z
  .object({
    enabled: z.boolean().default(false),
    options: z.array(z.string().trim().min(1).max(25)).min(2).max(4).optional(),
    duration_minutes: z.int().min(5).max(10_080).optional(),
  })
  .strict()
  .superRefine((poll, ctx) => {
    if (!poll.enabled) return;
    if (!poll.options)
      ctx.addIssue({
        code: "custom",
        path: ["options"],
        message: "The poll options are required when the poll is enabled.",
      });
    if (poll.duration_minutes === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["duration_minutes"],
        message: "The poll duration minutes are required when the poll is enabled.",
      });
  })
  // The refinement above guarantees options and duration when enabled.
  .transform((poll) =>
    poll.enabled
      ? { enabled: true as const, options: poll.options!, duration_minutes: poll.duration_minutes! }
      : { enabled: false as const },
  );

export const PLATFORM_SETTINGS = {
  twitter: z
    .object({
      for_super_followers_only: z.boolean().default(false),
      reply_settings: z
        .enum(["everyone", "following", "mentionedUsers", "subscribers", "verified"])
        .default("everyone"),
      quote_tweet_id: id(),
      reply: z.object({ in_reply_to_tweet_id: id() }).strict().default({ in_reply_to_tweet_id: null }),
      community_id: id(),
      share_with_followers: z.boolean().default(false),
      text: text(280),
      poll: twitterPoll.default({ enabled: false }),
    })
    .strict(),
  tiktok: z
    .object({
      privacy_level: z
        .enum(["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"])
        .default("PUBLIC_TO_EVERYONE"),
      title: text(2200),
      disable_duet: z.boolean().default(false),
      disable_stitch: z.boolean().default(false),
      disable_comment: z.boolean().default(false),
      brand_content_toggle: z.boolean().default(false),
      brand_organic_toggle: z.boolean().default(false),
      is_aigc: z.boolean().default(false),
    })
    .strict(),
  youtube: z
    .object({
      title: text(100),
      privacy_status: z.enum(["public", "unlisted", "private"]).default("public"),
      made_for_kids: z.boolean().default(false),
      tags: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
      category_id: id(),
    })
    .strict(),
  pinterest: z
    .object({
      board_id: id(),
      title: text(100),
      link: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .nullable()
        .default(null),
      alt_text: text(500),
    })
    .strict(),
  instagram: z
    .object({
      post_type: z.enum(["post", "reel", "story"]).default("post"),
      share_to_feed: z.boolean().default(true),
      collaborators: z.array(z.string().trim().min(1).max(30)).max(3).default([]),
      location_id: id(),
    })
    .strict(),
  facebook: z
    .object({
      post_type: z.enum(["post", "reel", "story"]).default("post"),
      link: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .nullable()
        .default(null),
    })
    .strict(),
  linkedin: z
    .object({
      visibility: z.enum(["PUBLIC", "CONNECTIONS", "LOGGED_IN"]).default("PUBLIC"),
      disable_reshare: z.boolean().default(false),
      document_title: text(400),
    })
    .strict(),
  threads: z
    .object({
      reply_control: z.enum(["everyone", "accounts_you_follow", "mentioned_only"]).default("everyone"),
      topic_tag: text(50),
    })
    .strict(),
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

const nullableId = () => z.string().nullable();
const nullableText = () => z.string().nullable();

/** The complete settings object of a platform row, as answers render it: every key present. */
const SETTINGS_SCHEMAS = {
  twitter: z
    .strictObject({
      for_super_followers_only: z.boolean(),
      reply_settings: z.enum(["everyone", "following", "mentionedUsers", "subscribers", "verified"]),
      quote_tweet_id: nullableId(),
      reply: z.strictObject({ in_reply_to_tweet_id: nullableId() }),
      community_id: nullableId(),
      share_with_followers: z.boolean(),
      text: nullableText(),
      poll: z.union([
        z.strictObject({
          enabled: z.literal(true),
          options: z.array(z.string()),
          duration_minutes: z.int(),
        }),
        z.strictObject({ enabled: z.literal(false) }),
      ]),
    })
    .meta({ id: "TwitterSettings", description: "Settings of an X (Twitter) row." }),
  tiktok: z
    .strictObject({
      privacy_level: z.enum([
        "PUBLIC_TO_EVERYONE",
        "MUTUAL_FOLLOW_FRIENDS",
        "FOLLOWER_OF_CREATOR",
        "SELF_ONLY",
      ]),
      title: nullableText(),
      disable_duet: z.boolean(),
      disable_stitch: z.boolean(),
      disable_comment: z.boolean(),
      brand_content_toggle: z.boolean(),
      brand_organic_toggle: z.boolean(),
      is_aigc: z.boolean(),
    })
    .meta({ id: "TiktokSettings", description: "Settings of a TikTok row." }),
  youtube: z
    .strictObject({
      title: nullableText(),
      privacy_status: z.enum(["public", "unlisted", "private"]),
      made_for_kids: z.boolean(),
      tags: z.array(z.string()),
      category_id: nullableId(),
    })
    .meta({ id: "YoutubeSettings", description: "Settings of a YouTube row." }),
  pinterest: z
    .strictObject({
      board_id: nullableId(),
      title: nullableText(),
      link: z.string().nullable(),
      alt_text: nullableText(),
    })
    .meta({ id: "PinterestSettings", description: "Settings of a Pinterest row." }),
  instagram: z
    .strictObject({
      post_type: z.enum(["post", "reel", "story"]),
      share_to_feed: z.boolean(),
      collaborators: z.array(z.string()),
      location_id: nullableId(),
    })
    .meta({ id: "InstagramSettings", description: "Settings of an Instagram row." }),
  facebook: z
    .strictObject({
      post_type: z.enum(["post", "reel", "story"]),
      link: z.string().nullable(),
    })
    .meta({ id: "FacebookSettings", description: "Settings of a Facebook row." }),
  linkedin: z
    .strictObject({
      visibility: z.enum(["PUBLIC", "CONNECTIONS", "LOGGED_IN"]),
      disable_reshare: z.boolean(),
      document_title: nullableText(),
    })
    .meta({ id: "LinkedinSettings", description: "Settings of a LinkedIn row." }),
  threads: z
    .strictObject({
      reply_control: z.enum(["everyone", "accounts_you_follow", "mentioned_only"]),
      topic_tag: nullableText(),
    })
    .meta({ id: "ThreadsSettings", description: "Settings of a Threads row." }),
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
