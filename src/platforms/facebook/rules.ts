// What Facebook refuses in a post, declared once: the dry run reads `check` through the registry.
import type { z } from "zod";
import { defineCheck, type PlatformRules } from "../rules";
import type { settings } from "./settings";

export const TEXT_LIMIT = 63_206;

/** A Page story is up for 24 h, and its insights go with it (Facebook Stories API). */
export const STORY_SECONDS = 24 * 3600;

export const MEDIA: PlatformRules = {
  thread: "comments",
  postTypes: true,
  post: { maxVideos: 1, videoAlone: true },
  comment: { maxMedia: 1, video: false, needsText: false },
};

export const check = defineCheck<z.output<typeof settings>>({
  platform: "facebook",
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  settings: (settings, items, add) => {
    if (settings.link && (items[0]?.media.length ?? 0) > 0)
      add(
        "settings.facebook.link",
        "is prohibited when the first content item has media",
        "unsupported_content",
      );
  },
});
