// The settings a pinterest row takes (`settings.pinterest`): the strict request schema with its defaults, and the
// complete object answers render (src/platforms/settings.ts assembles every platform's).
import { z } from "zod";
import { id, nullableId, nullableText, text } from "../settings-fields";

/** The request schema of `settings.pinterest`: strict, every key defaulted. */
export const settings = z
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
  .strict();

/** The complete settings object of a pinterest row, as answers render it: every key present. */
export const settingsShape = z
  .strictObject({
    board_id: nullableId(),
    title: nullableText(),
    link: z.string().nullable(),
    alt_text: nullableText(),
  })
  .meta({ id: "PinterestSettings", description: "Settings of a Pinterest row." });
