// What TikTok refuses in a post, declared once: the dry run reads `check` through the registry, and the
// adapter's upload reads MAX_VIDEO_BYTES.
import type { z } from "zod";
import { defineCheck, GB, type PlatformRules } from "../rules";
import type { settings } from "./settings";

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

/**
 * TikTok wants the user's own choice of privacy, among what the account offers (`creator_info`'s
 * `privacy_level_options`, asked when publishing); an unaudited app may post only SELF_ONLY. There is no
 * default: create and the dry run refuse a tiktok post without one.
 */
export const PRIVACY_WHY =
  "choose one of the privacy_level_options TikTok's creator_info offers the account (an app TikTok has not audited may post only SELF_ONLY)";

export const check = defineCheck<z.output<typeof settings>>({
  platform: "tiktok",
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  settings: (settings, _items, add) => {
    if (!settings.privacy_level)
      add("settings.tiktok.privacy_level", "is required", "privacy_level_required", {
        why: PRIVACY_WHY,
        required: true,
      });
  },
});
