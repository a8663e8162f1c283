// The reads of a published video on YouTube: its statistics as PostMetrics and its newest comment threads
// (the auto-plug's own comment is written and found again in publish.ts).
// developers.google.com › YouTube Data API › Videos: list (statistics); CommentThreads: list.
import { type AccountAuth, type PlatformComment, PlatformError, type PostMetrics } from "../types";
import { permanent, tokenOf, withEngagement, type YouTubeApi } from "./api";
import { type CommentThread, commentThreadList, videoStatisticsList, type YouTubeComment } from "./schemas";

/** Comments kept per sync: the newest 100 (one page at YouTube's largest page size). */
export const COMMENTS_MAX = 100;
/** Pages read at most, should YouTube answer shorter pages than asked for. */
const COMMENT_PAGES_MAX = 5;

/** A comment's place on the watch page. */
export const commentUrl = (api: YouTubeApi, videoId: string, commentId: string) =>
  `${api.watchUrl(videoId)}&lc=${encodeURIComponent(commentId)}`;

/**
 * viewCount as impressions, likeCount as likes, commentCount as comments, favoriteCount as saves
 * (YouTube has kept it at 0 since favourites became a playlist); shares and quotes do not exist.
 */
export async function videoInsights(
  api: YouTubeApi,
  account: AccountAuth,
  videoId: string,
): Promise<PostMetrics> {
  const answer = await api.get(
    "statistics",
    "videos",
    { part: "statistics", id: videoId },
    tokenOf(account),
    videoStatisticsList,
  );
  const video = answer.items.find((v) => v.id === videoId);
  if (!video) throw permanent("not_found", "YouTube has no such video (deleted, or not the channel's).");
  const stats = video.statistics;
  return withEngagement({
    impressions: stats?.viewCount ?? 0,
    likes: stats?.likeCount ?? 0,
    comments: stats?.commentCount ?? 0,
    saves: stats?.favoriteCount ?? 0,
    shares: 0,
    quotes: 0,
  });
}

/** The channel's handle from an author URL (`…/@handle`), else undefined. */
function handleOf(url: string | undefined): string | undefined {
  const path = url && URL.canParse(url) ? new URL(url).pathname : "";
  const match = /^\/@([^/]+)/.exec(path);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/**
 * A comment as stored: its author's channel (`is_own` when it is the connected channel), the top-level
 * comment a reply answers (`parentId`), its place on the watch page (`url`, as the auto-plug's), and
 * `hidden` where YouTube tells the video's owner its moderation status (held for review, likely spam or
 * rejected: not public).
 */
function asComment(comment: YouTubeComment, channelId: string | null, url: string): PlatformComment {
  const top = comment.snippet;
  const name = top.authorDisplayName ?? "";
  const username = handleOf(top.authorChannelUrl) ?? top.authorChannelId?.value ?? name.replace(/^@/, "");
  return {
    id: comment.id,
    // textOriginal is only guaranteed to the comment's author; textDisplay (asked as plain text) always.
    content: top.textOriginal ?? top.textDisplay ?? "",
    author_name: name,
    created_at: new Date(top.publishedAt),
    contact: { name, username, profile_url: top.authorChannelUrl ?? null },
    parent_id: top.parentId ?? null,
    url,
    is_own: channelId !== null && top.authorChannelId?.value === channelId,
    ...(top.moderationStatus ? { hidden: top.moderationStatus !== "published" } : {}),
  };
}

/** A thread's top-level comment, then the replies the thread carries. */
const threadComments = (
  api: YouTubeApi,
  videoId: string,
  thread: CommentThread,
  channelId: string | null,
) => [
  asComment(
    thread.snippet.topLevelComment,
    channelId,
    commentUrl(api, videoId, thread.snippet.topLevelComment.id),
  ),
  ...(thread.replies?.comments ?? []).map((reply) =>
    asComment(
      { ...reply, snippet: { ...reply.snippet, parentId: reply.snippet.parentId ?? thread.id } },
      channelId,
      commentUrl(api, videoId, reply.id),
    ),
  ),
];

/**
 * One page of the video's newest comment threads (with `part: "snippet,replies"`, their replies), as
 * plain text; the published ones, or those held for review (`moderationStatus`, the owner only).
 */
export async function threadPage(
  api: YouTubeApi,
  token: string,
  videoId: string,
  pageToken?: string,
  part = "snippet",
  moderationStatus?: "heldForReview",
) {
  const query: Record<string, string> = {
    part,
    videoId,
    maxResults: String(COMMENTS_MAX),
    order: "time",
    textFormat: "plainText",
  };
  if (pageToken) query.pageToken = pageToken;
  if (moderationStatus) query.moderationStatus = moderationStatus;
  return api.get("comments", "commentThreads", query, token, commentThreadList);
}

/**
 * The video's newest comment threads and the replies each carries, up to COMMENTS_MAX, then, while
 * there is room, one page of the threads held for review (hidden: the list leaves them out unless
 * asked); none where comments are turned off.
 */
export async function videoComments(
  api: YouTubeApi,
  account: AccountAuth,
  videoId: string,
): Promise<PlatformComment[]> {
  const token = tokenOf(account);
  const comments: PlatformComment[] = [];
  let pageToken: string | undefined;
  try {
    for (let page = 0; page < COMMENT_PAGES_MAX && comments.length < COMMENTS_MAX; page++) {
      const answer = await threadPage(api, token, videoId, pageToken, "snippet,replies");
      comments.push(
        ...answer.items.flatMap((thread) => threadComments(api, videoId, thread, account.platformUserId)),
      );
      pageToken = answer.nextPageToken;
      if (!pageToken) break;
    }
    if (comments.length >= COMMENTS_MAX) return comments.slice(0, COMMENTS_MAX);
    const held = await threadPage(api, token, videoId, undefined, "snippet,replies", "heldForReview");
    comments.push(
      ...held.items.flatMap((thread) =>
        threadComments(api, videoId, thread, account.platformUserId).map((comment) => ({
          ...comment,
          hidden: true,
        })),
      ),
    );
  } catch (error) {
    if (error instanceof PlatformError && error.code === "commentsDisabled") return [];
    throw error;
  }
  return comments.slice(0, COMMENTS_MAX);
}
