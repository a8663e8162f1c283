// What Instagram refuses in a post, declared once: the dry run reads `check` through the registry, and
// the adapter's pre-call refusals read CAROUSEL_MAX.
import { defineCheck, MB, type PlatformRules } from "../rules";

/** Characters of a caption. */
export const TEXT_LIMIT = 2200;
/** Photos and videos of a carousel. */
export const CAROUSEL_MAX = 10;

export const MEDIA: PlatformRules = {
  needs: "media",
  thread: "comments",
  postTypes: true,
  post: { maxMedia: CAROUSEL_MAX, imageTypes: ["image/jpeg"], maxBytes: { image: 8 * MB } },
  comment: { maxMedia: 0, video: false, needsText: true },
};

export const check = defineCheck({ platform: "instagram", textLimit: TEXT_LIMIT, media: MEDIA });
