// The settings a linkedin row takes (`settings.linkedin`): the strict request schema with its defaults, and the
// complete object answers render (src/platforms/settings.ts assembles every platform's).
import { z } from "zod";
import { nullableText, text } from "../settings-fields";

/** The request schema of `settings.linkedin`: strict, every key defaulted. */
export const settings = z
  .object({
    visibility: z.enum(["PUBLIC", "CONNECTIONS", "LOGGED_IN"]).default("PUBLIC"),
    disable_reshare: z.boolean().default(false),
    document_title: text(400),
  })
  .strict();

/** The complete settings object of a linkedin row, as answers render it: every key present. */
export const settingsShape = z
  .strictObject({
    visibility: z.enum(["PUBLIC", "CONNECTIONS", "LOGGED_IN"]),
    disable_reshare: z.boolean(),
    document_title: nullableText(),
  })
  .meta({ id: "LinkedinSettings", description: "Settings of a LinkedIn row." });
