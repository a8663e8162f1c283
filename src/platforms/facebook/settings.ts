// The settings a facebook row takes (`settings.facebook`): the strict request schema with its defaults, and the
// complete object answers render (src/platforms/settings.ts assembles every platform's).
import { z } from "zod";

/** The request schema of `settings.facebook`: strict, every key defaulted. */
export const settings = z
  .object({
    post_type: z.enum(["post", "reel", "story"]).default("post"),
    link: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable()
      .default(null),
  })
  .strict();

/** The complete settings object of a facebook row, as answers render it: every key present. */
export const settingsShape = z
  .strictObject({
    post_type: z.enum(["post", "reel", "story"]),
    link: z.string().nullable(),
  })
  .meta({ id: "FacebookSettings", description: "Settings of a Facebook row." });
