// The TikTok answers this adapter reads, as zod schemas (the `data` part; `error` is read by api.ts).
// developers.tiktok.com › Content Posting API (Query Creator Info, Direct Post, Photo, Get Post Status);
// Display API (List Videos, Query Videos, Video Object).
import { z } from "zod";

/** POST /v2/post/publish/creator_info/query/. */
export const creatorInfo = z.object({
  data: z.object({
    creator_username: z.string().optional(),
    creator_nickname: z.string().optional(),
    privacy_level_options: z.array(z.string()),
    comment_disabled: z.boolean().optional(),
    duet_disabled: z.boolean().optional(),
    stitch_disabled: z.boolean().optional(),
    max_video_post_duration_sec: z.number().optional(),
  }),
});

/** POST /v2/post/publish/video/init/ with FILE_UPLOAD: the publish and where its chunks go. */
export const videoInit = z.object({
  data: z.object({ publish_id: z.string().min(1), upload_url: z.url() }),
});

/** POST /v2/post/publish/content/init/: the photo post's publish id. */
export const photoInit = z.object({ data: z.object({ publish_id: z.string().min(1) }) });

/**
 * POST /v2/post/publish/status/fetch/. The post ids are int64 numbers in TikTok's JSON, beyond what a
 * JavaScript number holds exactly: they are read as strings (publish.ts quotes them before parsing).
 */
export const postStatus = z.object({
  data: z.object({
    status: z.string(),
    fail_reason: z.string().optional(),
    publicaly_available_post_id: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
    /** FILE_UPLOAD: the bytes TikTok has so far; a resumed upload goes on from there. */
    uploaded_bytes: z.number().optional(),
    /** PULL_FROM_URL: the bytes TikTok has downloaded so far. */
    downloaded_bytes: z.number().optional(),
  }),
});

const video = z.object({
  id: z.string().min(1),
  title: z.string().optional(),
  video_description: z.string().optional(),
  share_url: z.string().optional(),
  create_time: z.number().optional(),
  like_count: z.number().optional(),
  comment_count: z.number().optional(),
  share_count: z.number().optional(),
  view_count: z.number().optional(),
});

/** POST /v2/video/list/ and /v2/video/query/. */
export const videoList = z.object({
  data: z.object({
    videos: z.array(video).default([]),
    cursor: z.number().optional(),
    has_more: z.boolean().optional(),
  }),
});
