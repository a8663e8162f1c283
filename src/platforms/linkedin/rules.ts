// What LinkedIn refuses in a post, declared once: the dry run reads `check` through the registry, and
// the adapter's pre-call refusals read COMMENT_MAX.
import { defineCheck, KB, MB, type PlatformRules } from "../rules";

export const TEXT_LIMIT = 3000;
/** Characters of a comment (a thread's later item, the auto-plug). */
export const COMMENT_MAX = 1250;

export const MEDIA: PlatformRules = {
  thread: "comments",
  post: {
    maxImages: 20,
    maxVideos: 1,
    videoAlone: true,
    imageTypes: ["image/jpeg", "image/png", "image/gif"],
    videoTypes: ["video/mp4"],
    minBytes: { video: 75 * KB },
    maxBytes: { video: 500 * MB },
  },
  comment: { maxMedia: 0, video: false, needsText: false, maxText: COMMENT_MAX },
  codes: {
    too_many_images: "content_rejected",
    too_many_videos: "content_rejected",
    media_alone: "content_rejected",
    media_type: "content_rejected",
    media_size: "content_rejected",
    comment: "content_rejected",
  },
};

export const check = defineCheck({ platform: "linkedin", textLimit: TEXT_LIMIT, media: MEDIA });
