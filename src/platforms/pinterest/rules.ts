// What Pinterest refuses in a post, declared once: the dry run reads `check` through the registry, and
// the adapter's pre-call refusals read CAROUSEL_MAX.
import type { z } from "zod";
import { defineCheck, type PlatformRules } from "../rules";
import type { settings } from "./settings";

/** Characters of a Pin description: Create Pin takes up to 800 (API reference v5 › Create Pin). */
export const TEXT_LIMIT = 800;
/** Images of a carousel Pin. */
export const CAROUSEL_MAX = 5;

export const MEDIA: PlatformRules = {
  needs: "media",
  thread: "none",
  post: { maxImages: CAROUSEL_MAX, maxVideos: 1 },
  codes: {
    thread: "thread_unsupported",
    media_required: "media_required",
    too_many_images: "too_many_images",
    too_many_videos: "too_many_videos",
  },
};

export const check = defineCheck<z.output<typeof settings>>({
  platform: "pinterest",
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  settings: (settings, _items, add) => {
    if (!settings.board_id) add("settings.pinterest.board_id", "is required", "board_required");
  },
});
