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
  // The Graph API takes only JPEG images (Content Publishing › Limitations › Image specifications):
  // create refuses another type too, rather than a publish failing later.
  why: { media_type: "Instagram publishes only JPEG images; convert the image to JPEG" },
  createRefuses: ["media_type"],
};

export const check = defineCheck({ platform: "instagram", textLimit: TEXT_LIMIT, media: MEDIA });
