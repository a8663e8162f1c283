// The parts of YouTube Data API v3 answers the adapter reads, as zod schemas (unknown keys are dropped).
// developers.google.com › YouTube Data API › Videos, Channels, PlaylistItems, CommentThreads resources.
import { z } from "zod";

/** Google sends counts as decimal strings ("1234"); a hidden count is absent. */
const count = z.coerce.number().int().nonnegative().optional();

const thumbnail = z.object({ url: z.string() });
const thumbnails = z.object({
  default: thumbnail.optional(),
  medium: thumbnail.optional(),
  high: thumbnail.optional(),
});

/** The thumbnail a channel or a comment author shows: medium, else default, else high. */
export const thumbnailUrl = (set: z.infer<typeof thumbnails> | undefined) =>
  set?.medium?.url ?? set?.default?.url ?? set?.high?.url ?? null;

/** videos.insert answers the video resource it created. */
export const insertedVideo = z.object({
  id: z.string().min(1),
  status: z
    .object({
      uploadStatus: z.string().optional(),
      rejectionReason: z.string().optional(),
      failureReason: z.string().optional(),
    })
    .optional(),
});

export const channelList = z.object({
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        snippet: z
          .object({
            title: z.string().optional(),
            customUrl: z.string().optional(),
            thumbnails: thumbnails.optional(),
          })
          .optional(),
        contentDetails: z
          .object({ relatedPlaylists: z.object({ uploads: z.string().optional() }).optional() })
          .optional(),
      }),
    )
    .default([]),
});

export const playlistItemList = z.object({
  items: z.array(z.object({ contentDetails: z.object({ videoId: z.string().min(1) }) })).default([]),
});

export const videoSnippetList = z.object({
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        snippet: z.object({ tags: z.array(z.string()).optional() }).optional(),
      }),
    )
    .default([]),
});

export const videoStatisticsList = z.object({
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        statistics: z
          .object({ viewCount: count, likeCount: count, favoriteCount: count, commentCount: count })
          .optional(),
      }),
    )
    .default([]),
});

const comment = z.object({
  id: z.string().min(1),
  snippet: z.object({
    textOriginal: z.string().optional(),
    textDisplay: z.string().optional(),
    authorDisplayName: z.string().optional(),
    authorChannelUrl: z.string().optional(),
    authorChannelId: z.object({ value: z.string() }).optional(),
    publishedAt: z.iso.datetime({ offset: true }),
    /** A reply's top-level comment. */
    parentId: z.string().optional(),
    /**
     * heldForReview, likelySpam, published or rejected: only to the owner of the channel or video the
     * comment is on (Comments resource).
     */
    moderationStatus: z.string().optional(),
  }),
});
export type YouTubeComment = z.infer<typeof comment>;
/** comments.insert's answer: the comment resource created. */
export const commentResource = comment;

export const commentThread = z.object({
  id: z.string().min(1),
  snippet: z.object({ videoId: z.string().optional(), topLevelComment: comment }),
  /** With `part=replies`: replies to the top-level comment (YouTube may give only some of them). */
  replies: z.object({ comments: z.array(comment).default([]) }).optional(),
});
export type CommentThread = z.infer<typeof commentThread>;

export const commentThreadList = z.object({
  nextPageToken: z.string().optional(),
  items: z.array(commentThread).default([]),
});
