// What a platform can publish and read, derived from what its definition already declares (its media
// rules, text limit, settings schema and publishing half), never listed a second time: docs/platforms.md's
// "At a glance" table is checked against it (test/platforms/capabilities.unit.test.ts).
import type { PlatformDefinition } from "./define";
import type { CommentAction, PublishingContext } from "./types";

export type Capabilities = {
  /** A post of text alone: no media required (`media.needs` unset) and a text limit. */
  text: boolean;
  /** Images in a post: every platform but one that publishes only a video. */
  images: boolean;
  /** A video in a post: unless the rules allow no video type or no video. */
  video: boolean;
  /** Several media in one post (a carousel, a multi-image post): a media limit above one. */
  carousels: boolean;
  /** A post of several items: a reply chain, comments under the first, or none (`media.thread`). */
  threads: "chain" | "comments" | "none";
  /** A story: the settings schema takes `post_type: "story"`. */
  stories: boolean;
  /** A reply under a published post (the auto-plug): the publishing half has `reply`. */
  replies: boolean;
  /** Comments read back: the publishing half has `comments`. */
  comments: boolean;
  /** Metrics read back: the publishing half has `insights`. */
  insights: boolean;
  /**
   * The comment inbox's actions the platform has a call for (reply, hide, delete: the publishing half's
   * `replyToComment`, `hideComment`, `deleteComment`); its `commentRules` may still refuse one on a comment.
   */
  commentActions: CommentAction[];
};

/** A context that reaches nothing: the publishing half is only built to see which methods it has. */
const inert: PublishingContext = {
  fetch: () => Promise.reject(new TypeError("capabilitiesOf makes no call")),
  credentials: { clientId: "", clientSecret: "" },
  now: () => 0,
  sleep: () => Promise.resolve(),
  timeouts: { call: 0, upload: 0 },
};

export function capabilitiesOf(definition: PlatformDefinition): Capabilities {
  const { media } = definition;
  const { post } = media;
  const publishing = definition.publishing(inert);
  const videoOnly = media.needs === "video";
  // What one post may carry at most; no limit is several.
  const most = videoOnly ? 1 : (post.maxMedia ?? post.maxImages ?? Number.POSITIVE_INFINITY);
  return {
    text: media.needs === undefined && definition.textLimit > 0,
    images: !videoOnly && (post.imageTypes === undefined || post.imageTypes.length > 0) && most > 0,
    video: (post.videoTypes === undefined || post.videoTypes.length > 0) && post.maxVideos !== 0,
    carousels: most > 1,
    threads: media.thread,
    stories: definition.settings.safeParse({ post_type: "story" }).success,
    replies: typeof publishing.reply === "function",
    comments: typeof publishing.comments === "function",
    insights: typeof publishing.insights === "function",
    commentActions: [
      ...(typeof publishing.replyToComment === "function" ? (["reply"] as const) : []),
      ...(typeof publishing.hideComment === "function" ? (["hide"] as const) : []),
      ...(typeof publishing.deleteComment === "function" ? (["delete"] as const) : []),
    ],
  };
}
