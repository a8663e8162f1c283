// Reading a published post back from Threads: its insights, and its replies as comments.
// developers.facebook.com › Threads › Insights; Retrieve and Manage Replies.
import { withEngagement } from "../metrics";
import type { AccountAuth, PlatformComment, PostMetrics } from "../types";
import { PROFILE, type ThreadsApi } from "./api";
import { insightsAnswer, replyPage } from "./schemas";

/** The newest replies kept as comments, and the pages read to get them. */
const COMMENTS_MAX = 100;
const COMMENT_PAGES = 5;

/** Threads sends "+0000" offsets; Date.parse wants "+00:00". */
const parseTime = (value: string | undefined) => {
  const time = value ? new Date(value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2")) : new Date(Number.NaN);
  return Number.isNaN(time.getTime()) ? new Date(0) : time;
};

export function threadsReader(api: ThreadsApi) {
  return {
    async insights(_account: AccountAuth, postId: string): Promise<PostMetrics> {
      const answer = await api.get(
        "insights",
        `${encodeURIComponent(postId)}/insights`,
        { metric: "views,likes,replies,reposts,quotes,shares" },
        insightsAnswer,
      );
      const metric = (name: string) => {
        const entry = answer.data.find((m) => m.name === name);
        return entry?.total_value?.value ?? entry?.values?.[0]?.value ?? 0;
      };
      return withEngagement({
        impressions: metric("views"),
        likes: metric("likes"),
        comments: metric("replies"),
        // A repost and a share both pass the post on.
        shares: metric("reposts") + metric("shares"),
        quotes: metric("quotes"),
        saves: 0,
      });
    },

    /**
     * The newest replies at any depth (GET /{id}/conversation, newest first), up to 100; the account's
     * own replies (a thread's next items, an auto-plug) are not comments.
     */
    async comments(_account: AccountAuth, postId: string): Promise<PlatformComment[]> {
      const found: PlatformComment[] = [];
      let after: string | undefined;
      for (let page = 0; page < COMMENT_PAGES && found.length < COMMENTS_MAX; page++) {
        const query: Record<string, string> = {
          fields: "id,text,username,timestamp,is_reply_owned_by_me",
          reverse: "true",
        };
        if (after) query.after = after;
        const answer = await api.get(
          "comments",
          `${encodeURIComponent(postId)}/conversation`,
          query,
          replyPage,
        );
        for (const reply of answer.data) {
          if (reply.is_reply_owned_by_me === true) continue;
          const username = reply.username ?? "";
          found.push({
            id: reply.id,
            content: reply.text ?? "",
            author_name: username,
            created_at: parseTime(reply.timestamp),
            contact: username ? { name: username, username, profile_url: `${PROFILE}${username}` } : null,
          });
        }
        after = answer.paging?.cursors?.after;
        if (!answer.paging?.next || !after) break;
      }
      return found.slice(0, COMMENTS_MAX);
    },
  };
}
