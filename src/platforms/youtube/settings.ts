// The settings a youtube row takes (`settings.youtube`): the strict request schema with its defaults, and the
// complete object answers render (src/platforms/settings.ts assembles every platform's).
import { z } from "zod";
import { id, nullableId, nullableText, text } from "../settings-fields";

/** The request schema of `settings.youtube`: strict, every key defaulted. */
export const settings = z
  .object({
    title: text(100),
    privacy_status: z.enum(["public", "unlisted", "private"]).default("public"),
    made_for_kids: z.boolean().default(false),
    tags: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
    category_id: id(),
  })
  .strict();

/** The complete settings object of a youtube row, as answers render it: every key present. */
export const settingsShape = z
  .strictObject({
    title: nullableText(),
    privacy_status: z.enum(["public", "unlisted", "private"]),
    made_for_kids: z.boolean(),
    tags: z.array(z.string()),
    category_id: nullableId(),
  })
  .meta({ id: "YoutubeSettings", description: "Settings of a YouTube row." });
