// The registry's table: every platform's definition (src/platforms/<platform>/index.ts), by name, and
// what the rest of the service asks of them without knowing any platform: its text limit and its check.
import type { Platform } from "../db/enums";
import type { PlatformDefinition } from "./define";
import { facebook } from "./facebook";
import { instagram } from "./instagram";
import { linkedin } from "./linkedin";
import { pinterest } from "./pinterest";
import type { CheckDraft, PostProblem } from "./rules";
import { threads } from "./threads";
import { tiktok } from "./tiktok";
import { twitter } from "./twitter";
import { youtube } from "./youtube";

/** Every platform's definition, by name: adding a platform is one line here (docs/contributing.md). */
export const DEFINITIONS = {
  tiktok,
  instagram,
  twitter,
  linkedin,
  youtube,
  facebook,
  pinterest,
  threads,
} satisfies Record<Platform, PlatformDefinition>;

export const SPECS: Record<Platform, PlatformDefinition> = DEFINITIONS;

export const isPlatform = (name: string): name is Platform => Object.hasOwn(SPECS, name);

/** Characters per post on each platform, as each documents it for its API. */
export const PLATFORM_TEXT_LIMITS = Object.fromEntries(
  Object.entries(SPECS).map(([platform, definition]) => [platform, definition.textLimit]),
) as Record<Platform, number>;

/** The longest text any platform takes in one post. */
export const LONGEST_TEXT_LIMIT = Math.max(...Object.values(PLATFORM_TEXT_LIMITS));

/**
 * Everything `platform` would refuse in a post: its text limit, its media rules and its settings, by
 * the request's field path. `settings` is the row's complete settings object for the platform.
 */
export const checkPost = (platform: Platform, draft: CheckDraft): PostProblem[] =>
  SPECS[platform].check(draft).map(({ field, message }) => ({ field, message }));

/**
 * What `platform` refuses on create (and update) too, with a 422: the settings it cannot do without (TikTok's
 * `privacy_level`) and the rules its `createRefuses` names (Instagram's JPEG-only images). `draft`: the
 * post's items as the library knows their media, and the row's complete settings.
 */
export const createProblems = (platform: Platform, draft: CheckDraft): PostProblem[] =>
  SPECS[platform]
    .check(draft)
    .filter((problem) => problem.required)
    .map(({ field, message }) => ({ field, message }));
