// The settings a threads row takes (`settings.threads`): the strict request schema with its defaults, and the
// complete object answers render (src/platforms/settings.ts assembles every platform's).
import { z } from "zod";
import { nullableText, text } from "../settings-fields";

/** The request schema of `settings.threads`: strict, every key defaulted. */
export const settings = z
  .object({
    reply_control: z.enum(["everyone", "accounts_you_follow", "mentioned_only"]).default("everyone"),
    topic_tag: text(50),
  })
  .strict();

/** The complete settings object of a threads row, as answers render it: every key present. */
export const settingsShape = z
  .strictObject({
    reply_control: z.enum(["everyone", "accounts_you_follow", "mentioned_only"]),
    topic_tag: nullableText(),
  })
  .meta({ id: "ThreadsSettings", description: "Settings of a Threads row." });
