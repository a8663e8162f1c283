// What X refuses in a post, declared once: the dry run reads `check` through the registry, and the
// adapter's own pre-call refusals (media.ts, publish.ts) read the same numbers.
import twitterText from "twitter-text";
import type { z } from "zod";
import { defineCheck, MB, type PlatformRules, textLength } from "../rules";
import type { settings } from "./settings";

/** Characters per post: X without Premium's long posts. */
export const TEXT_LIMIT = 280;
/** X's limit as it counts (its weighted length): 280, as twitter-text's default configuration says. */
export const WEIGHTED_LIMIT = 280;

/**
 * The text's length as X counts it, by X's own library (twitter-text, docs.x.com › Fundamentals ›
 * Counting characters): NFC, every link 23 (its t.co link, with or without a scheme: `example.com/path`
 * too), an emoji 2, a code point outside the Latin and punctuation ranges 2.
 */
export const weightedLength = (text: string) => twitterText.parseTweet(text).weightedLength;

/**
 * The text without the links X rewrites to t.co links (twitter-text's URL extraction, which finds
 * `example.com/path` as X does), each replaced by a space: what stays the same between the text sent
 * and the text X answers with.
 */
export function withoutLinks(text: string): string {
  let rest = "";
  let from = 0;
  for (const { indices } of twitterText.extractUrlsWithIndices(text)) {
    rest += `${text.slice(from, indices[0])} `;
    from = indices[1];
  }
  return rest + text.slice(from);
}
/** Four images, or one video or GIF, per post (docs.x.com › Media best practices). */
export const MAX_MEDIA_PER_POST = 4;
export const SIZE_LIMITS = { image: 5 * MB, gif: 15 * MB, video: 512 * MB };

export const MEDIA: PlatformRules = {
  thread: "chain",
  post: { maxMedia: MAX_MEDIA_PER_POST, videoAlone: true, gifAlone: true, maxBytes: SIZE_LIMITS },
  codes: { too_many_media: "media_rejected", media_alone: "media_rejected", media_size: "media_rejected" },
};

export const check = defineCheck<z.output<typeof settings>>({
  platform: "twitter",
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  settings: (settings, items, add) => {
    // What X receives, as X counts it (links 23, emoji and CJK characters 2): a text within 280 code
    // points can still be over X's 280.
    for (const [index, item] of items.entries()) {
      const replaced = index === 0 && settings.text?.trim() ? settings.text : null;
      const text = replaced ?? item.text;
      // Over 280 code points, the common text rule has already said so.
      if (replaced === null && textLength(text) > TEXT_LIMIT) continue;
      if (weightedLength(text) > WEIGHTED_LIMIT)
        add(
          replaced === null ? `content.${index}.text` : "settings.twitter.text",
          `must not be greater than ${WEIGHTED_LIMIT} characters as X counts them (a link counts 23, an emoji or a CJK character 2)`,
          "unsupported_content",
        );
    }
    if (settings.poll.enabled && (items[0]?.media.length ?? 0) > 0)
      add("settings.twitter.poll", "is prohibited when the first content item has media", "poll_with_media");
  },
});
