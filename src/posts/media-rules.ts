// What each platform refuses in a post's items and media, in one table: the limits docs/platforms.md
// documents (from each platform's own documentation) and the refusals the adapters make before any call
// (src/platforms/<platform>/publish.ts, twitter/media.ts). The dry run (validate.ts) reads it; the
// adapters keep their own checks, and test/posts/validate.test.ts holds the two to agreeing. Durations
// and pixel sizes are not checked: the media library stores neither.
import type { Platform } from "../db/enums";
import { textLength } from "./limits";
import type { PostProblem } from "./schemas";

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

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
};

export const MEDIA_RULES: Record<Platform, PlatformRules> = {
  twitter: {
    thread: "chain",
    post: {
      maxMedia: 4,
      videoAlone: true,
      gifAlone: true,
      maxBytes: { image: 5 * MB, gif: 15 * MB, video: 512 * MB },
    },
  },
  threads: {
    thread: "chain",
    post: {
      maxMedia: 20,
      imageTypes: ["image/jpeg", "image/png"],
      videoTypes: ["video/mp4", "video/quicktime"],
      maxBytes: { image: 8 * MB, video: 1 * GB },
    },
  },
  linkedin: {
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
    comment: { maxMedia: 0, video: false, needsText: false, maxText: 1250 },
  },
  instagram: {
    needs: "media",
    thread: "comments",
    postTypes: true,
    post: { maxMedia: 10, imageTypes: ["image/jpeg"], maxBytes: { image: 8 * MB } },
    comment: { maxMedia: 0, video: false, needsText: true },
  },
  facebook: {
    thread: "comments",
    postTypes: true,
    post: { maxVideos: 1, videoAlone: true },
    comment: { maxMedia: 1, video: false, needsText: false },
  },
  tiktok: {
    needs: "media",
    thread: "none",
    post: {
      maxImages: 35,
      maxVideos: 1,
      videoAlone: true,
      imageTypes: ["image/jpeg", "image/webp"],
      videoTypes: ["video/mp4", "video/quicktime", "video/webm"],
      maxBytes: { video: 4 * GB },
    },
  },
  youtube: { needs: "video", thread: "none", post: {} },
  pinterest: { needs: "media", thread: "none", post: { maxImages: 5, maxVideos: 1 } },
};

const sizeKind = (m: CheckedMedia): SizeKind =>
  m.kind === "video" ? "video" : m.mime === "image/gif" ? "gif" : "image";
const A_KIND: Record<SizeKind, string> = { image: "an image", gif: "a GIF", video: "a video" };
const bytes = (n: number) => (n >= GB ? `${n / GB} GB` : n >= MB ? `${n / MB} MB` : `${n / KB} KB`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Records a problem: `The <field> field <rule> on <platform>[: <why>].` */
type Add = (field: string, rule: string, why?: string) => void;

/** The count rules of a post (or a story's or reel's "exactly one"), for item `i`. */
function countProblems(rules: PlatformRules, postType: PostType, media: CheckedMedia[], i: number, add: Add) {
  const field = `content.${i}.media`;
  const videos = media.filter((m) => m.kind === "video").length;
  if (postType === "story") {
    if (media.length !== 1) add(field, "must hold exactly one photo or video for a story");
    return;
  }
  if (postType === "reel") {
    if (media.length !== 1 || videos !== 1) add(field, "must hold exactly one video for a reel");
    return;
  }
  const { post } = rules;
  if (post.maxMedia !== undefined && media.length > post.maxMedia)
    add(field, `must not have more than ${plural(post.maxMedia, "item")}`);
  if (post.maxImages !== undefined && videos === 0 && media.length > post.maxImages)
    add(field, `must not have more than ${plural(post.maxImages, "image")}`);
  if (post.maxVideos !== undefined && videos > post.maxVideos)
    add(field, `must not have more than ${plural(post.maxVideos, "video")}`);
  // Several videos and nothing else already broke `maxVideos` where the platform has one.
  const tooManyVideos = post.maxVideos !== undefined && videos > post.maxVideos && videos === media.length;
  const alone = media.filter((m) => m.kind === "video" || (post.gifAlone && sizeKind(m) === "gif"));
  if (post.videoAlone && alone.length > 0 && media.length > 1 && !tooManyVideos)
    add(field, `must not mix ${post.gifAlone ? "a video or a GIF" : "a video"} with other media`);
}

/** The type and size of each file of item `i`. */
function fileProblems(post: PostRules, media: Array<CheckedMedia | null>, i: number, add: Add) {
  media.forEach((m, j) => {
    if (!m) return;
    const field = `content.${i}.media.${j}`;
    const types = m.kind === "video" ? post.videoTypes : post.imageTypes;
    if (types && !types.includes(m.mime)) add(field, `must be a file of type ${types.join(", ")}`);
    const kind = sizeKind(m);
    const max = post.maxBytes?.[kind] ?? (kind === "gif" ? post.maxBytes?.image : undefined);
    const min = post.minBytes?.[kind] ?? (kind === "gif" ? post.minBytes?.image : undefined);
    if (max !== undefined && m.size > max)
      add(field, `must not be greater than ${bytes(max)} for ${A_KIND[kind]}`);
    if (min !== undefined && m.size < min) add(field, `must be at least ${bytes(min)} for ${A_KIND[kind]}`);
  });
}

/** A thread item after the first that becomes a comment under the post. */
function commentProblems(rules: CommentRules, item: CheckedItem, i: number, add: Add) {
  const why = `item ${i + 1} becomes a comment`;
  const media = item.media.filter((m) => m !== null);
  if (rules.maxMedia === 0 && item.media.length > 0)
    add(`content.${i}.media`, "is prohibited", `${why}, which carries text only`);
  else if (item.media.length > rules.maxMedia)
    add(`content.${i}.media`, `must not have more than ${plural(rules.maxMedia, "photo")}`, why);
  if (!rules.video && rules.maxMedia > 0 && media.some((m) => m.kind === "video"))
    add(`content.${i}.media`, "must not include a video", why);
  if (rules.needsText && item.text.trim() === "") add(`content.${i}.text`, "is required", why);
  if (rules.maxText !== undefined && textLength(item.text) > rules.maxText)
    add(`content.${i}.text`, `must not be greater than ${rules.maxText} characters`, why);
}

/**
 * Every item and file `platform` would refuse, by the field path of the request (`content.0.media.2`).
 * `postType` is the row's `settings.<platform>.post_type` where the platform has one.
 */
export function mediaProblems(
  platform: Platform,
  items: CheckedItem[],
  postType: PostType = "post",
): PostProblem[] {
  const rules = MEDIA_RULES[platform];
  const type = rules.postTypes ? postType : "post";
  const problems: PostProblem[] = [];
  const add: Add = (field, rule, why) => {
    problems.push({ field, message: `The ${field} field ${rule} on ${platform}${why ? `: ${why}` : ""}.` });
  };
  items.forEach((item, i) => {
    const media = item.media.filter((m) => m !== null);
    const asPost = i === 0 || rules.thread === "chain";
    if (i === 0 && type === "post" && rules.needs === "media" && item.media.length === 0)
      add("content.0.media", "is required", "it publishes no text-only posts");
    if (i === 0 && rules.needs === "video" && !media.some((m) => m.kind === "video"))
      add("content.0.media", "must include a video");
    if (asPost) {
      countProblems(rules, type, media, i, add);
      fileProblems(rules.post, item.media, i, add);
    } else if (rules.thread === "comments" && type !== "story" && rules.comment) {
      commentProblems(rules.comment, item, i, add);
    }
  });
  if (items.length > 1 && (rules.thread === "none" || type === "story"))
    add(
      "content",
      `must not have more than 1 item${type === "story" ? " for a story" : ""}`,
      type === "story" ? undefined : "it publishes no threads",
    );
  return problems;
}
