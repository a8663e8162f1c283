// The shapes of the X API v2 answers the adapter reads (docs.x.com › X API › Posts, Media, Users), as
// zod schemas: only the fields used, unknown ones ignored.
import { z } from "zod";

/** X ids are decimal strings of up to 19 digits ("returned as a string" to survive JSON numbers). */
export const xId = z.string().regex(/^\d{1,19}$/);

/** POST /2/tweets: `{data: {id, text}}`. */
export const createdPost = z.object({ data: z.object({ id: xId }) });

/** PUT /2/tweets/:id/hidden: `{data: {hidden}}`. */
export const hiddenAnswer = z.object({ data: z.object({ hidden: z.boolean() }) });

/** DELETE /2/tweets/:id: `{data: {deleted}}`. */
export const deletedAnswer = z.object({ data: z.object({ deleted: z.boolean() }) });

const processingInfo = z.object({
  state: z.string(),
  check_after_secs: z.number().nonnegative().optional(),
  progress_percent: z.number().optional(),
  error: z.object({ message: z.string().optional(), name: z.string().optional() }).optional(),
});

/**
 * Initialize, finalize and status of a media upload: `{data: {id, media_key, expires_after_secs,
 * processing_info?}}`. `expires_after_secs`: how long the upload (and the media id) stays usable.
 */
export const mediaUpload = z.object({
  data: z.object({
    id: xId,
    media_key: z.string().min(1).optional(),
    expires_after_secs: z.number().nonnegative().optional(),
    processing_info: processingInfo.optional(),
  }),
});
export type ProcessingInfo = z.infer<typeof processingInfo>;
export type MediaUpload = z.infer<typeof mediaUpload>["data"];

/** An append answers `{data: {expires_at}}` or nothing: either will do. */
export const appended = z.unknown();

const post = z.object({
  id: xId,
  text: z.string(),
  note_tweet: z.object({ text: z.string() }).optional(),
  author_id: z.string().optional(),
  created_at: z.string().optional(),
  referenced_tweets: z.array(z.object({ type: z.string(), id: z.string() })).optional(),
  /** The author of the post this one replies to. */
  in_reply_to_user_id: z.string().optional(),
  /** With `expansions=attachments.media_keys`: the keys of the post's media. */
  attachments: z.object({ media_keys: z.array(z.string()).optional() }).optional(),
});
export type XPost = z.infer<typeof post>;

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };

/** A post's text as X renders it, back to what was sent: X escapes &, < and > in `text`. */
export const sentText = (post: XPost) =>
  (post.note_tweet?.text ?? post.text).replace(/&(?:amp|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);

/** GET /2/users/{id}/tweets: `{data?: [post], meta}` (no `data` when the user has none). */
export const timeline = z.object({ data: z.array(post).optional() });

const count = z.number().int().nonnegative();

/** GET /2/tweets/{id}?tweet.fields=public_metrics. */
export const postMetrics = z.object({
  data: z.object({
    id: xId,
    public_metrics: z.object({
      retweet_count: count,
      reply_count: count,
      like_count: count,
      quote_count: count,
      bookmark_count: count.optional(),
      impression_count: count.optional(),
    }),
  }),
});

const user = z.object({ id: z.string(), username: z.string(), name: z.string().optional() });

/** GET /2/tweets/search/recent with expansions=author_id: posts, their authors, the next page's token. */
export const searchPage = z.object({
  data: z.array(post).optional(),
  includes: z.object({ users: z.array(user).optional() }).optional(),
  meta: z.object({ next_token: z.string().min(1).optional() }).optional(),
});
