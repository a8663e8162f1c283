// How much text a post may carry: each target platform's own maximum per post (checked for every item of
// a thread, since each item is one post on the platform; the platforms declare them, the registry holds
// them), and a cap on a post's whole text so that a row, and a page of 100 posts, stay bounded whatever
// the platforms allow.
import type { Platform } from "../db/enums";
import { PLATFORM_TEXT_LIMITS } from "../platforms/catalog";
import { textLength } from "../platforms/rules";

/** A post's text in all items together; one longest Facebook post fits. */
export const MAX_POST_TEXT = 65_536;

/** 422 messages by field for text a target platform would refuse, or a post too large in all. */
export function textErrors(texts: string[], platforms: Platform[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const targets = [...new Set(platforms)].sort((a, b) => PLATFORM_TEXT_LIMITS[a] - PLATFORM_TEXT_LIMITS[b]);
  let total = 0;
  texts.forEach((text, i) => {
    const length = textLength(text);
    total += length;
    const messages = targets
      .filter((platform) => length > PLATFORM_TEXT_LIMITS[platform])
      .map(
        (platform) =>
          `The content.${i}.text field must not be greater than ${PLATFORM_TEXT_LIMITS[platform]} characters on ${platform}.`,
      );
    if (messages.length > 0) errors[`content.${i}.text`] = messages;
  });
  if (total > MAX_POST_TEXT)
    errors.content = [
      `The content field must not hold more than ${MAX_POST_TEXT} characters of text in all.`,
    ];
  return errors;
}
