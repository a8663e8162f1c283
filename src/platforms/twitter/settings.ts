// The settings a twitter row takes (`settings.twitter`): the strict request schema with its defaults, and the
// complete object answers render (src/platforms/settings.ts assembles every platform's).
import { z } from "zod";
import { id, nullableId, nullableText, text } from "../settings-fields";

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

/** The request schema of `settings.twitter`: strict, every key defaulted. */
export const settings = z
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
  .strict();

/** The complete settings object of a twitter row, as answers render it: every key present. */
export const settingsShape = z
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
  .meta({ id: "TwitterSettings", description: "Settings of an X (Twitter) row." });
