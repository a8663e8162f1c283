// What TikTok refuses in a post, declared once: the dry run reads `check` through the registry, and the
// adapter's upload reads MAX_VIDEO_BYTES.
import { defineCheck, GB, type PlatformRules } from "../rules";

/** Characters of a caption. */
export const TEXT_LIMIT = 2200;
export const MAX_VIDEO_BYTES = 4 * GB;

export const MEDIA: PlatformRules = {
  needs: "media",
  thread: "none",
  post: {
    maxImages: 35,
    maxVideos: 1,
    videoAlone: true,
    imageTypes: ["image/jpeg", "image/webp"],
    videoTypes: ["video/mp4", "video/quicktime", "video/webm"],
    maxBytes: { video: MAX_VIDEO_BYTES },
  },
  codes: {
    thread: "thread_not_supported",
    media_required: "media_required",
    too_many_videos: "invalid_media",
    media_alone: "invalid_media",
    too_many_images: "too_many_media",
    media_type: "unsupported_media",
  },
};

export const check = defineCheck({ platform: "tiktok", textLimit: TEXT_LIMIT, media: MEDIA });
