// Reading a published post on X: its public metrics, and the replies in its conversation as comments
// (recent search: the last 7 days only).
import { withEngagement } from "../metrics";
import type { AccountAuth, PlatformComment, PostMetrics } from "../types";
import { LABEL, postId, type XApi } from "./api";
import { postMetrics, searchPage, sentText } from "./schemas";

/** At most this many comments are kept per post, newest first, from at most MAX_COMMENT_PAGES pages. */
export const MAX_COMMENTS = 100;
export const MAX_COMMENT_PAGES = 5;

export async function postInsights(
  api: XApi,
  account: AccountAuth,
  platformPostId: string,
): Promise<PostMetrics> {
  const url = api.url(`/tweets/${postId(platformPostId)}`, { "tweet.fields": "public_metrics" });
  const metrics = (await api.get(account, `${LABEL} insights`, url, postMetrics)).data.public_metrics;
  const likes = metrics.like_count;
  const comments = metrics.reply_count;
  const shares = metrics.retweet_count;
  const quotes = metrics.quote_count;
  const saves = metrics.bookmark_count ?? 0;
  const impressions = metrics.impression_count ?? 0;
  return withEngagement({ comments, likes, shares, impressions, quotes, saves });
}

/**
 * The replies in the post's conversation, newest first. The account's own posts there are its thread
 * items and its auto-plug, not comments, unless they answer someone else (`in_reply_to_user_id`): its
 * replies to comments, `is_own`. `parent_id` is the post a reply answers when that is not the root;
 * `url` is the post's address on x.com.
 */
export async function postComments(
  api: XApi,
  account: AccountAuth,
  platformPostId: string,
  now: () => number,
): Promise<PlatformComment[]> {
  const id = postId(platformPostId);
  const found: PlatformComment[] = [];
  let next: string | undefined;
  for (let page = 0; page < MAX_COMMENT_PAGES && found.length < MAX_COMMENTS; page++) {
    const query = new URLSearchParams({
      query: `conversation_id:${id}`,
      max_results: "100",
      expansions: "author_id",
      "tweet.fields": "author_id,created_at,referenced_tweets,in_reply_to_user_id",
      "user.fields": "username,name",
    });
    if (next) query.set("next_token", next);
    const answer = await api.get(
      account,
      `${LABEL} comments`,
      api.url("/tweets/search/recent", query),
      searchPage,
    );
    const users = new Map((answer.includes?.users ?? []).map((user) => [user.id, user]));
    for (const post of answer.data ?? []) {
      const own = post.author_id === account.platformUserId;
      const toSelf = !post.in_reply_to_user_id || post.in_reply_to_user_id === account.platformUserId;
      if (post.id === id || (own && toSelf) || found.length >= MAX_COMMENTS) continue;
      const author = post.author_id ? users.get(post.author_id) : undefined;
      const answered = post.referenced_tweets?.find((ref) => ref.type === "replied_to")?.id;
      const created = post.created_at ? new Date(post.created_at) : new Date(Number.NaN);
      found.push({
        id: post.id,
        content: sentText(post),
        author_name: author?.name || author?.username || "",
        created_at: Number.isNaN(created.getTime()) ? new Date(now()) : created,
        contact: author
          ? {
              name: author.name || author.username,
              username: author.username,
              profile_url: `https://x.com/${encodeURIComponent(author.username)}`,
            }
          : null,
        parent_id: answered && answered !== id ? answered : null,
        url: `https://x.com/${author ? encodeURIComponent(author.username) : "i/web"}/status/${post.id}`,
        is_own: own,
      });
    }
    next = answer.meta?.next_token;
    if (!next) break;
  }
  return found;
}
