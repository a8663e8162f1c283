// The shapes of the Instagram API (with Instagram Login) answers the adapter reads, and of the row
// settings it honours. developers.facebook.com › Instagram Platform › Content Publishing; IG Container;
// Instagram Media; Media Insights; Comments; Access Token; Refresh Access Token.
import { z } from "zod";

const id = z.union([z.string().min(1), z.number().transform(String)]);

export const paging = z
  .object({ cursors: z.object({ after: z.string().optional() }).optional(), next: z.string().optional() })
  .optional();

export const created = z.object({ id });

/** GET /{container-id}?fields=status_code,status: EXPIRED, ERROR, FINISHED, IN_PROGRESS or PUBLISHED. */
export const containerStatus = z.object({
  status_code: z.string().optional(),
  status: z.string().optional(),
});

/** GET /{ig-user-id}/content_publishing_limit?fields=quota_usage,config. */
export const publishingLimit = z.object({
  data: z.array(
    z.object({
      quota_usage: z.number().optional(),
      config: z
        .object({ quota_total: z.number().optional(), quota_duration: z.number().optional() })
        .optional(),
    }),
  ),
});

export const permalink = z.object({ permalink: z.string().optional() });

export const recentMedia = z.object({
  data: z.array(
    z.object({
      id,
      caption: z.string().optional(),
      permalink: z.string().optional(),
      timestamp: z.string().optional(),
    }),
  ),
  paging,
});

export const mediaCounts = z.object({
  like_count: z.number().optional(),
  comments_count: z.number().optional(),
  media_product_type: z.string().optional(),
});

/** Media insights: a lifetime value per metric (`values[0].value`, or `total_value.value`). */
export const insights = z.object({
  data: z.array(
    z.object({
      name: z.string(),
      values: z.array(z.object({ value: z.unknown() })).optional(),
      total_value: z.object({ value: z.unknown() }).optional(),
    }),
  ),
});

/** An IG Comment: its author (`from`, IGSID and username), whether it is hidden, the comment it answers. */
const comment = z.object({
  id,
  text: z.string().optional(),
  username: z.string().optional(),
  timestamp: z.string().optional(),
  from: z.object({ id: id.optional(), username: z.string().optional() }).optional(),
  hidden: z.boolean().optional(),
  parent_id: id.optional(),
});
export const commentsPage = z.object({
  data: z.array(
    comment.extend({
      /** The `replies` edge, expanded: the answers to a top-level comment. */
      replies: z.object({ data: z.array(comment) }).optional(),
    }),
  ),
  paging,
});

/** The long-lived token answer of /access_token and /refresh_access_token. */
export const longLivedToken = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().optional(),
});

/** The row's settings (validated on the way in; read leniently here, defaults as the API documents). */
export const instagramSettings = z.object({
  post_type: z.enum(["post", "reel", "story"]).catch("post").default("post"),
  share_to_feed: z.boolean().catch(true).default(true),
  collaborators: z.array(z.string()).catch([]).default([]),
  location_id: z.string().nullable().catch(null).default(null),
});
export type InstagramSettings = z.output<typeof instagramSettings>;
