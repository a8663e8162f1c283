// What a platform refuses in a post, checked the same way for every platform: each platform declares its
// text limit, its media rules (counts, types, sizes, what a thread's later items may carry) and its own
// settings checks in its folder (src/platforms/<platform>/rules.ts); `defineCheck` turns them into the
// platform's one `check`, which the dry run (src/posts/validate.ts) and create's text limits read through
// the registry, and which publishing runs before any call (src/platforms/adapter.ts), refusing with the
// first problem and the code the platform's rules give its kind of rule. The messages are the API's: `The <field> field <rule> on <platform>[: <why>].`
// Durations and pixel sizes are not checked: the media library stores neither.

/** One thing a platform would refuse, by the request's field path (`content.0.media.2`). */
export type PostProblem = { field: string; message: string };
/** A problem as the check finds it: with the code publishing refuses the draft with (the API's `error.code`). */
export type CheckProblem = PostProblem & {
  code: string;
  /**
   * A problem create (and update) refuse too, with a 422: a setting the post cannot do without, or a
   * rule the platform's `createRefuses` names (Instagram's JPEG-only images).
   */
  required?: boolean;
};

/**
 * The kinds of rule a check applies, each refused by publishing with a code: `unsupported_content` unless the
 * platform's rules name their own (`codes`).
 */
export type RuleKind =
  | "text"
  | "media_required"
  | "video_required"
  | "too_many_media"
  | "too_many_images"
  | "too_many_videos"
  | "media_alone"
  | "media_type"
  | "media_size"
  | "comment"
  | "thread"
  | "post_type";

/** Characters as people count them: code points, so an emoji is one. */
export const textLength = (text: string) => [...text].length;

export const KB = 1024;
export const MB = 1024 * KB;
export const GB = 1024 * MB;

/** A media item as the library knows it (an item still importing: its announced type and size). */
export type CheckedMedia = { mime: string; kind: "image" | "video"; size: number };
/** One item of the post; null stands for a media id create refuses (and reports) itself. */
export type CheckedItem = { text: string; media: Array<CheckedMedia | null> };
export type PostType = "post" | "reel" | "story";

/** GIFs are images in the library; X sizes them apart and wants them alone, like a video. */
type SizeKind = "image" | "gif" | "video";

/** What one post on the platform may carry. */
type PostRules = {
  maxMedia?: number;
  /** Images when the post has no video (beside a Pinterest video, an image is its cover). */
  maxImages?: number;
  maxVideos?: number;
  /** A video must be the only media of its post; with `gifAlone`, a GIF too. */
  videoAlone?: boolean;
  gifAlone?: boolean;
  imageTypes?: readonly string[];
  videoTypes?: readonly string[];
  /** Bytes per file; a GIF without its own entry is an image. */
  maxBytes?: Partial<Record<SizeKind, number>>;
  minBytes?: Partial<Record<SizeKind, number>>;
};

/** What a thread item after the first may carry where it becomes a comment under the post. */
type CommentRules = { maxMedia: number; video: boolean; needsText: boolean; maxText?: number };

export type PlatformRules = {
  /** `media`: no text-only posts; `video`: only a video is published (other media are ignored). */
  needs?: "media" | "video";
  /** Items after the first: each a post of a reply chain (same rules), a comment, or refused. */
  thread: "chain" | "comments" | "none";
  post: PostRules;
  comment?: CommentRules;
  /** Whether `settings.<platform>.post_type` can make the post a story or a reel. */
  postTypes?: boolean;
  /** The code publishing refuses each kind of rule with, where not `unsupported_content`. */
  codes?: Partial<Record<RuleKind, string>>;
  /** Why, where the rule alone would not say it: `The <field> field <rule> on <platform>: <why>.` */
  why?: Partial<Record<RuleKind, string>>;
  /** The kinds of rule create (and update) refuse with a 422 too, not only the dry run and publishing. */
  createRefuses?: readonly RuleKind[];
};

const DEFAULT_CODE = "unsupported_content";

const sizeKind = (m: CheckedMedia): SizeKind =>
  m.kind === "video" ? "video" : m.mime === "image/gif" ? "gif" : "image";
const A_KIND: Record<SizeKind, string> = { image: "an image", gif: "a GIF", video: "a video" };
const bytes = (n: number) => (n >= GB ? `${n / GB} GB` : n >= MB ? `${n / MB} MB` : `${n / KB} KB`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Records a problem of a kind of rule: `The <field> field <rule> on <platform>[: <why>].` */
type Add = (kind: RuleKind, field: string, rule: string, why?: string) => void;

/** The count rules of a post (or a story's or reel's "exactly one"), for item `i`. */
function countProblems(rules: PlatformRules, postType: PostType, media: CheckedMedia[], i: number, add: Add) {
  const field = `content.${i}.media`;
  const videos = media.filter((m) => m.kind === "video").length;
  if (postType === "story") {
    if (media.length !== 1) add("post_type", field, "must hold exactly one photo or video for a story");
    return;
  }
  if (postType === "reel") {
    if (media.length !== 1 || videos !== 1) add("post_type", field, "must hold exactly one video for a reel");
    return;
  }
  const { post } = rules;
  if (post.maxMedia !== undefined && media.length > post.maxMedia)
    add("too_many_media", field, `must not have more than ${plural(post.maxMedia, "item")}`);
  if (post.maxImages !== undefined && videos === 0 && media.length > post.maxImages)
    add("too_many_images", field, `must not have more than ${plural(post.maxImages, "image")}`);
  if (post.maxVideos !== undefined && videos > post.maxVideos)
    add("too_many_videos", field, `must not have more than ${plural(post.maxVideos, "video")}`);
  // Several videos and nothing else already broke `maxVideos` where the platform has one.
  const tooManyVideos = post.maxVideos !== undefined && videos > post.maxVideos && videos === media.length;
  const alone = media.filter((m) => m.kind === "video" || (post.gifAlone && sizeKind(m) === "gif"));
  if (post.videoAlone && alone.length > 0 && media.length > 1 && !tooManyVideos)
    add(
      "media_alone",
      field,
      `must not mix ${post.gifAlone ? "a video or a GIF" : "a video"} with other media`,
    );
}

/** The type and size of each file of item `i`. */
function fileProblems(post: PostRules, media: Array<CheckedMedia | null>, i: number, add: Add) {
  media.forEach((m, j) => {
    if (!m) return;
    const field = `content.${i}.media.${j}`;
    const types = m.kind === "video" ? post.videoTypes : post.imageTypes;
    if (types && !types.includes(m.mime))
      add("media_type", field, `must be a file of type ${types.join(", ")}`);
    const kind = sizeKind(m);
    const max = post.maxBytes?.[kind] ?? (kind === "gif" ? post.maxBytes?.image : undefined);
    const min = post.minBytes?.[kind] ?? (kind === "gif" ? post.minBytes?.image : undefined);
    if (max !== undefined && m.size > max)
      add("media_size", field, `must not be greater than ${bytes(max)} for ${A_KIND[kind]}`);
    if (min !== undefined && m.size < min)
      add("media_size", field, `must be at least ${bytes(min)} for ${A_KIND[kind]}`);
  });
}

/** A thread item after the first that becomes a comment under the post. */
function commentProblems(rules: CommentRules, item: CheckedItem, i: number, add: Add) {
  const why = `item ${i + 1} becomes a comment`;
  const media = item.media.filter((m) => m !== null);
  if (rules.maxMedia === 0 && item.media.length > 0)
    add("comment", `content.${i}.media`, "is prohibited", `${why}, which carries text only`);
  else if (item.media.length > rules.maxMedia)
    add("comment", `content.${i}.media`, `must not have more than ${plural(rules.maxMedia, "photo")}`, why);
  if (!rules.video && rules.maxMedia > 0 && media.some((m) => m.kind === "video"))
    add("comment", `content.${i}.media`, "must not include a video", why);
  if (rules.needsText && item.text.trim() === "") add("comment", `content.${i}.text`, "is required", why);
  if (rules.maxText !== undefined && textLength(item.text) > rules.maxText)
    add("comment", `content.${i}.text`, `must not be greater than ${rules.maxText} characters`, why);
}

/**
 * Every item and file `platform` (by its `rules`) would refuse, by the field path of the request (`content.0.media.2`).
 * `postType` is the row's `settings.<platform>.post_type` where the platform has one.
 */
export function mediaProblems(
  platform: string,
  rules: PlatformRules,
  items: CheckedItem[],
  postType: PostType = "post",
): CheckProblem[] {
  const type = rules.postTypes ? postType : "post";
  const problems: CheckProblem[] = [];
  const add: Add = (kind, field, rule, given) => {
    const why = given ?? rules.why?.[kind];
    problems.push({
      field,
      message: `The ${field} field ${rule} on ${platform}${why ? `: ${why}` : ""}.`,
      code: rules.codes?.[kind] ?? DEFAULT_CODE,
      ...(rules.createRefuses?.includes(kind) ? { required: true } : {}),
    });
  };
  items.forEach((item, i) => {
    const media = item.media.filter((m) => m !== null);
    const asPost = i === 0 || rules.thread === "chain";
    if (i === 0 && type === "post" && rules.needs === "media" && item.media.length === 0)
      add("media_required", "content.0.media", "is required", "it publishes no text-only posts");
    if (i === 0 && rules.needs === "video" && !media.some((m) => m.kind === "video"))
      add("video_required", "content.0.media", "must include a video");
    if (asPost) {
      countProblems(rules, type, media, i, add);
      fileProblems(rules.post, item.media, i, add);
    } else if (rules.thread === "comments" && type !== "story" && rules.comment) {
      commentProblems(rules.comment, item, i, add);
    }
  });
  if (items.length > 1 && (rules.thread === "none" || type === "story"))
    add(
      type === "story" ? "post_type" : "thread",
      "content",
      `must not have more than 1 item${type === "story" ? " for a story" : ""}`,
      type === "story" ? undefined : "it publishes no threads",
    );
  return problems;
}

/** What `check` looks at: the post's items and the row's complete settings for the platform. */
export type CheckDraft = { items: CheckedItem[]; settings: Record<string, unknown> };
export type Check = (draft: CheckDraft) => CheckProblem[];

/** The messages over a platform's text limit, by item: each item is one post (or comment) there. */
export function textProblems(
  platform: string,
  limit: number,
  items: CheckedItem[],
  code = DEFAULT_CODE,
): CheckProblem[] {
  return items.flatMap((item, i) =>
    textLength(item.text) > limit
      ? [
          {
            field: `content.${i}.text`,
            message: `The content.${i}.text field must not be greater than ${limit} characters on ${platform}.`,
            code,
          },
        ]
      : [],
  );
}

/**
 * Records a settings problem: `The <field> field <rule> on <platform>[: <why>].`, refused with `code`
 * (default `invalid_settings`); `required` marks a setting create refuses to go without too.
 */
export type AddProblem = (
  field: string,
  rule: string,
  code?: string,
  more?: { why?: string; required?: boolean },
) => void;

/**
 * A platform's one check: its text limit, its media rules (with the row's `post_type` where the platform
 * has post types), then its own settings checks, in that order.
 */
export function defineCheck<S>(rules: {
  platform: string;
  textLimit: number;
  media: PlatformRules;
  settings?: (settings: S, items: CheckedItem[], add: AddProblem) => void;
}): Check {
  return ({ items, settings }) => {
    const problems = [
      ...textProblems(rules.platform, rules.textLimit, items, rules.media.codes?.text),
      ...mediaProblems(rules.platform, rules.media, items, postTypeOf(rules.media, settings)),
    ];
    rules.settings?.(settings as S, items, (field, rule, code = "invalid_settings", more = {}) =>
      problems.push({
        field,
        message: `The ${field} field ${rule} on ${rules.platform}${more.why ? `: ${more.why}` : ""}.`,
        code,
        ...(more.required ? { required: true } : {}),
      }),
    );
    return problems;
  };
}

const postTypeOf = (rules: PlatformRules, settings: Record<string, unknown>): PostType => {
  const type = settings.post_type;
  return rules.postTypes && (type === "reel" || type === "story") ? type : "post";
};
