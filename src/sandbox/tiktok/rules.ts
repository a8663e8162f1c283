// What the TikTok emulator enforces, stated from developers.tiktok.com: the Media Transfer Guide's
// chunk rules, the Content Posting API's request bodies (Direct Post, Photo Post, Get Post Status) with
// their limits, the privacy levels and what Query Creator Info offers, the moderation delay, and the id
// schemes of publishes and videos.
import { z } from "zod";
import { digits } from "../../platforms/sandbox/ids";
import { refuse } from "../emulator";

const MB = 1024 * 1024;
/** Media Transfer Guide: chunks of 5 to 64 MB, the last up to 128 MB, at most 1000; under 5 MB whole. */
const MIN_CHUNK = 5 * MB;
const MAX_CHUNK = 64 * MB;
const MAX_LAST_CHUNK = 128 * MB;
const MAX_CHUNKS = 1000;
const MAX_VIDEO = 4096 * MB;
/** What one PUT may carry here: the adapter's chunks are 16 MiB; bigger ones are refused, not held. */
export const EMULATED_CHUNK_MAX = 32 * MB;
/**
 * Direct Post reference (the init's `upload_url`): valid for one hour after it is issued; a PUT after
 * that is refused. On the real clock (Date.now, so a test's fake clock moves it), not scaled by
 * SANDBOX_TIME_SCALE: a scaled hour would end before a chunk could be sent.
 */
export const UPLOAD_URL_VALID_MS = 60 * 60_000;
/** Moderation: the public id appears this long after the post is complete. */
export const MODERATION_SECONDS = 90;

export const PRIVACY = [
  "PUBLIC_TO_EVERYONE",
  "MUTUAL_FOLLOW_FRIENDS",
  "FOLLOWER_OF_CREATOR",
  "SELF_ONLY",
] as const;
/** Get Post Status: only a post for public viewership is moderated into a public post id. */
export const MODERATED_PRIVACY = "PUBLIC_TO_EVERYONE";
/** What Query Creator Info answers for a public account (FOLLOWER_OF_CREATOR is a private account's). */
export const CREATOR_PRIVACY_OPTIONS = ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"];
export const VIDEO_TYPES = new Set(["video/mp4", "video/quicktime", "video/webm"]);

// --- bodies, as the Content Posting API reference documents them ---------------------------------------

const flag = z.boolean().optional();
const videoPostInfo = z.object({
  title: z.string().max(2200).optional(),
  privacy_level: z.enum(PRIVACY),
  disable_duet: flag,
  disable_comment: flag,
  disable_stitch: flag,
  video_cover_timestamp_ms: z.number().int().nonnegative().optional(),
  brand_content_toggle: flag,
  brand_organic_toggle: flag,
  is_aigc: flag,
});
export const videoInit = z.object({
  post_info: videoPostInfo,
  source_info: z.discriminatedUnion("source", [
    z.object({
      source: z.literal("FILE_UPLOAD"),
      video_size: z.number().int().positive(),
      chunk_size: z.number().int().positive(),
      total_chunk_count: z.number().int().positive(),
    }),
    z.object({ source: z.literal("PULL_FROM_URL"), video_url: z.url() }),
  ]),
});
export const photoInit = z.object({
  media_type: z.literal("PHOTO"),
  post_mode: z.enum(["DIRECT_POST", "MEDIA_UPLOAD"]),
  post_info: z.object({
    title: z.string().max(90).optional(),
    description: z.string().max(4000).optional(),
    privacy_level: z.enum(PRIVACY).optional(),
    disable_comment: flag,
    auto_add_music: flag,
    brand_content_toggle: flag,
    brand_organic_toggle: flag,
  }),
  source_info: z.object({
    source: z.literal("PULL_FROM_URL"),
    photo_cover_index: z.number().int().nonnegative().optional(),
    photo_images: z.array(z.url()).max(35),
  }),
});
export const statusFetch = z.object({ publish_id: z.string().min(1).max(200) });

/** TikTok's publish ids: `v_pub_file~v2-1.<n>`, `v_pub_url~v2.<n>`, `p_pub_url~v2.<n>`. */
export function publishId(mode: "FILE_UPLOAD" | "PULL_FROM_URL" | "PHOTO"): string {
  const n = digits(crypto.getRandomValues(new Uint8Array(16)), 18);
  return mode === "FILE_UPLOAD"
    ? `v_pub_file~v2-1.${n}`
    : mode === "PHOTO"
      ? `p_pub_url~v2.${n}`
      : `v_pub_url~v2.${n}`;
}
/** A TikTok video id: 19 digits starting with 7. */
export const videoId = () => `7${digits(crypto.getRandomValues(new Uint8Array(16)), 18)}`;

export function checkPrivacy(privacy: string) {
  if (!CREATOR_PRIVACY_OPTIONS.includes(privacy))
    refuse(
      400,
      "invalid_request",
      `privacy_level ${privacy} is not among the creator's privacy_level_options.`,
      {
        code: "privacy_level_option_mismatch",
      },
    );
}

/** The Media Transfer Guide's chunk rules for a FILE_UPLOAD init. */
export function checkChunks(size: number, chunk: number, count: number) {
  const bad = (message: string) => refuse(400, "invalid_request", message);
  if (size > MAX_VIDEO) bad("video_size is above 4 GB.");
  if (size < MIN_CHUNK) {
    if (chunk !== size || count !== 1)
      bad("A video under 5 MB must be uploaded whole: chunk_size = video_size, total_chunk_count = 1.");
    return;
  }
  if (chunk < MIN_CHUNK || chunk > MAX_CHUNK) bad("chunk_size must be between 5 MB and 64 MB.");
  if (count !== Math.floor(size / chunk)) bad("total_chunk_count must be floor(video_size / chunk_size).");
  if (count > MAX_CHUNKS) bad("total_chunk_count must be at most 1000.");
  if (size - (count - 1) * chunk > MAX_LAST_CHUNK) bad("The last chunk must be at most 128 MB.");
}
