// The shapes of the Graph API answers the Facebook Pages adapter reads (developers.facebook.com › Pages
// API; Graph API reference: Page, Page Post, Comment, Page Insights, Video API › Reels Publishing,
// Facebook Stories API), and of the row settings it honours (src/platforms/settings.ts).
import { z } from "zod";

const id = z.union([z.string().min(1), z.number().transform(String)]);

/** Cursor paging: `next` is present while there is a next page. */
export const paging = z
  .object({ cursors: z.object({ after: z.string().optional() }).optional(), next: z.string().optional() })
  .optional();

export const created = z.object({ id });
/** POST /{page-id}/photos: the photo's id and, once published, the post it made. */
export const photoCreated = z.object({ id, post_id: id.optional() });
export const success = z.object({ success: z.boolean(), post_id: id.optional() });
/** POST /{page-id}/video_reels | video_stories, upload_phase=start. */
export const uploadStarted = z.object({ video_id: id, upload_url: z.string().optional() });
export const permalink = z.object({ permalink_url: z.string().optional() });
/** GET /{photo-id}?fields=link (Graph API › Photo). */
export const photoLink = z.object({ link: z.string().optional() });

/**
 * A post's Story Attachments, as `attachments{target{id},subattachments{target{id}}}` asks them (Graph API ›
 * Story Attachment; Story Attachment Subattachments): a single photo is one attachment whose `target` is
 * the photo; several photos are one attachment whose `subattachments` each target one photo.
 */
const target = z.object({ id }).optional();
const attachments = z
  .object({
    data: z.array(
      z.object({
        target,
        subattachments: z.object({ data: z.array(z.object({ target })) }).optional(),
      }),
    ),
  })
  .optional();

export const pagePosts = z.object({
  data: z.array(
    z.object({ id, message: z.string().optional(), permalink_url: z.string().optional(), attachments }),
  ),
  paging,
});
export const pageReels = z.object({
  data: z.array(z.object({ id, description: z.string().optional(), permalink_url: z.string().optional() })),
  paging,
});

const from = z.object({ id: id.optional(), name: z.string().optional() }).optional();
export const commentsPage = z.object({
  data: z.array(
    z.object({
      id,
      message: z.string().optional(),
      created_time: z.string().optional(),
      permalink_url: z.string().optional(),
      from,
      /** A reply's comment (`filter=stream` lists replies too). */
      parent: z.object({ id }).optional(),
      is_hidden: z.boolean().optional(),
    }),
  ),
  paging,
});

const summary = z.object({ summary: z.object({ total_count: z.number().optional() }).optional() }).optional();
export const engagement = z.object({
  reactions: summary,
  likes: summary,
  comments: summary,
  shares: z.object({ count: z.number().optional() }).optional(),
});

/** /{object}/insights and /{video}/video_insights: one entry per metric, its lifetime value first. */
export const insights = z.object({
  data: z.array(
    z.object({
      name: z.string(),
      values: z.array(z.object({ value: z.unknown() })).optional(),
    }),
  ),
});

export const pages = z.object({
  data: z.array(
    z.object({
      id,
      name: z.string().optional(),
      username: z.string().optional(),
      access_token: z.string().optional(),
      tasks: z.array(z.string()).optional(),
      picture: z.object({ data: z.object({ url: z.string().optional() }).optional() }).optional(),
    }),
  ),
  paging,
});

/** GET /me/businesses: the user's business portfolios (business_management). */
export const businessList = z.object({
  data: z.array(z.object({ id, name: z.string().optional() })),
  paging,
});

/** The row's settings (validated on the way in; read leniently here, defaults as the API documents). */
export const facebookSettings = z.object({
  post_type: z.enum(["post", "reel", "story"]).catch("post").default("post"),
  link: z.string().nullable().catch(null).default(null),
});
export type FacebookSettings = z.output<typeof facebookSettings>;
