// What YouTube refuses in a post, declared once: the dry run reads `check` through the registry.
import type { z } from "zod";
import { defineCheck, type PlatformRules } from "../rules";
import type { settings } from "./settings";

/** Characters of a description. */
export const TEXT_LIMIT = 5000;

export const MEDIA: PlatformRules = {
  needs: "video",
  thread: "none",
  post: {},
  codes: { thread: "thread_unsupported", video_required: "video_required" },
};

/** YouTube refuses `<` and `>` in a video's title and description. */
const ANGLE_BRACKETS = /[<>]/;

export const check = defineCheck<z.output<typeof settings>>({
  platform: "youtube",
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  settings: (settings, items, add) => {
    if (ANGLE_BRACKETS.test(items[0]?.text ?? ""))
      add("content.0.text", "must not contain < or >", "unsupported_content");
    if (ANGLE_BRACKETS.test(settings.title ?? "")) add("settings.youtube.title", "must not contain < or >");
  },
});
