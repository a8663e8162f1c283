// What Threads refuses in a post, declared once: the dry run reads `check` through the registry.
import { defineCheck, GB, MB, type PlatformRules } from "../rules";

export const TEXT_LIMIT = 500;
/** Media items of a carousel. */
export const CAROUSEL_MAX = 20;

export const MEDIA: PlatformRules = {
  thread: "chain",
  post: {
    maxMedia: CAROUSEL_MAX,
    imageTypes: ["image/jpeg", "image/png"],
    videoTypes: ["video/mp4", "video/quicktime"],
    maxBytes: { image: 8 * MB, video: 1 * GB },
  },
  codes: { too_many_media: "too_many_media" },
};

export const check = defineCheck({ platform: "threads", textLimit: TEXT_LIMIT, media: MEDIA });
