// The Threads API answers this adapter reads, as zod schemas: what the code relies on is checked once,
// at the edge, and the types flow from here. Documented under developers.facebook.com › Threads.
import { z } from "zod";

/** Meta sends ids as strings; a number is accepted and kept as its decimal text. */
const id = z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String);

/** POST /{user-id}/threads and /threads_publish: the container's or the published post's id. */
export const created = z.object({ id });

/** GET /{container-id}?fields=status,error_message. */
export const containerStatus = z.object({
  status: z.string(),
  error_message: z.string().optional(),
});

/** GET /{media-id}?fields=permalink,shortcode: the permalink is withheld on flagged media. */
export const mediaLink = z.object({
  id: id.optional(),
  permalink: z.string().optional(),
  shortcode: z.string().optional(),
});

const paging = z
  .object({
    cursors: z.object({ after: z.string().optional() }).partial().optional(),
    next: z.string().optional(),
  })
  .optional();

/** GET /{user-id}/threads and /{media-id}/replies: posts by id with their text and permalink. */
export const postList = z.object({
  data: z.array(
    z.object({
      id,
      text: z.string().optional(),
      permalink: z.string().optional(),
      shortcode: z.string().optional(),
      username: z.string().optional(),
      timestamp: z.string().optional(),
      is_reply_owned_by_me: z.boolean().optional(),
    }),
  ),
  paging,
});

/** GET /{media-id}/conversation: the replies, newest first with reverse=true. */
export const replyPage = z.object({
  data: z.array(
    z.object({
      id,
      text: z.string().optional(),
      username: z.string().optional(),
      timestamp: z.string().optional(),
      is_reply_owned_by_me: z.boolean().optional(),
      permalink: z.string().optional(),
      replied_to: z.object({ id }).optional(),
      /** NOT_HUSHED, UNHUSHED, HIDDEN, COVERED, BLOCKED or RESTRICTED. */
      hide_status: z.string().optional(),
    }),
  ),
  paging,
});

/** GET /{media-id}/insights: one entry per metric, lifetime values. */
export const insightsAnswer = z.object({
  data: z.array(
    z.object({
      name: z.string(),
      values: z.array(z.object({ value: z.number() })).optional(),
      total_value: z.object({ value: z.number() }).optional(),
    }),
  ),
});

/** GET /access_token (th_exchange_token) and /refresh_access_token (th_refresh_token). */
export const longLivedToken = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive().optional(),
});
