// The settings a instagram row takes (`settings.instagram`): the strict request schema with its defaults, and the
// complete object answers render (src/platforms/settings.ts assembles every platform's).
import { z } from "zod";
import { id, nullableId } from "../settings-fields";

/** The request schema of `settings.instagram`: strict, every key defaulted. */
export const settings = z
  .object({
    post_type: z.enum(["post", "reel", "story"]).default("post"),
    share_to_feed: z.boolean().default(true),
    collaborators: z.array(z.string().trim().min(1).max(30)).max(3).default([]),
    location_id: id(),
  })
  .strict();

/** The complete settings object of a instagram row, as answers render it: every key present. */
export const settingsShape = z
  .strictObject({
    post_type: z.enum(["post", "reel", "story"]),
    share_to_feed: z.boolean(),
    collaborators: z.array(z.string()),
    location_id: nullableId(),
  })
  .meta({ id: "InstagramSettings", description: "Settings of an Instagram row." });
