// A published video's life on YouTube: its statistics as PostMetrics, its newest comment threads, and
// the channel's own top-level comment under it (the auto-plug), found again by its text since a comment
// has no hidden field to carry a fingerprint.
// developers.google.com › YouTube Data API › Videos: list (statistics); CommentThreads: list, insert.
import {
  type AccountAuth,
  type PlatformComment,
  PlatformError,
  type PostMetrics,
  type PublishedPost,
} from "../types";
import { permanent, tokenOf, withEngagement, type YouTubeApi } from "./api";
import { type CommentThread, commentThread, commentThreadList, videoStatisticsList } from "./schemas";

/** Comments kept per sync: the newest 100 (one page at YouTube's largest page size). */
export const COMMENTS_MAX = 100;
/** Pages read at most, should YouTube answer shorter pages than asked for. */
const COMMENT_PAGES_MAX = 5;

const commentUrl = (api: YouTubeApi, videoId: string, commentId: string) =>
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

function asComment(thread: CommentThread): PlatformComment {
  const top = thread.snippet.topLevelComment.snippet;
  const name = top.authorDisplayName ?? "";
  const username = handleOf(top.authorChannelUrl) ?? top.authorChannelId?.value ?? name.replace(/^@/, "");
  return {
    id: thread.id,
    // textOriginal is only guaranteed to the comment's author; textDisplay (asked as plain text) always.
    content: top.textOriginal ?? top.textDisplay ?? "",
    author_name: name,
    created_at: new Date(top.publishedAt),
    contact: { name, username, profile_url: top.authorChannelUrl ?? null },
  };
}

async function threadPage(api: YouTubeApi, token: string, videoId: string, pageToken?: string) {
  const query: Record<string, string> = {
    part: "snippet",
    videoId,
    maxResults: String(COMMENTS_MAX),
    order: "time",
    textFormat: "plainText",
  };
  if (pageToken) query.pageToken = pageToken;
  return api.get("comments", "commentThreads", query, token, commentThreadList);
}

/** The video's newest top-level comments, up to COMMENTS_MAX; none where comments are turned off. */
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
      const answer = await threadPage(api, token, videoId, pageToken);
      comments.push(...answer.items.map(asComment));
      pageToken = answer.nextPageToken;
      if (!pageToken) break;
    }
  } catch (error) {
    if (error instanceof PlatformError && error.code === "commentsDisabled") return [];
    throw error;
  }
  return comments.slice(0, COMMENTS_MAX);
}

/** A top-level comment by the channel under the video (commentThreads.insert). */
export async function postComment(
  api: YouTubeApi,
  account: AccountAuth,
  videoId: string,
  text: string,
): Promise<PublishedPost> {
  const snippet: Record<string, unknown> = { videoId, topLevelComment: { snippet: { textOriginal: text } } };
  // The channel the video belongs to: the account's own.
  if (account.platformUserId) snippet.channelId = account.platformUserId;
  const thread = await api.post(
    "comment",
    "commentThreads",
    { part: "snippet" },
    tokenOf(account),
    { snippet },
    commentThread,
  );
  return { id: thread.id, url: commentUrl(api, videoId, thread.id) };
}

/** The channel's own comment with exactly `text` among the video's newest comment threads. */
export async function findReply(
  api: YouTubeApi,
  account: AccountAuth,
  videoId: string,
  text: string,
): Promise<PublishedPost | null> {
  const answer = await threadPage(api, tokenOf(account), videoId);
  const mine = answer.items.find((thread) => {
    const top = thread.snippet.topLevelComment.snippet;
    const byChannel = !account.platformUserId || top.authorChannelId?.value === account.platformUserId;
    return byChannel && (top.textOriginal ?? top.textDisplay) === text;
  });
  return mine ? { id: mine.id, url: commentUrl(api, videoId, mine.id) } : null;
}
