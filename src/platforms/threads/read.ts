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
     * The newest replies at any depth (GET /{id}/conversation, newest first), up to 100, each with the
     * reply it answers (`replied_to`, when not the post), its permalink and whether the account hid it.
     * The account's own replies are a thread's next items or an auto-plug, not comments, unless they
     * answer someone else's reply: those are `is_own`.
     */
    async comments(_account: AccountAuth, postId: string): Promise<PlatformComment[]> {
      const found: Array<PlatformComment & { answers: string | null; mine: boolean }> = [];
      let after: string | undefined;
      for (let page = 0; page < COMMENT_PAGES && found.length < COMMENTS_MAX; page++) {
        const query: Record<string, string> = {
          fields: "id,text,username,timestamp,is_reply_owned_by_me,permalink,replied_to,hide_status",
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
          const username = reply.username ?? "";
          const answers = reply.replied_to?.id && reply.replied_to.id !== postId ? reply.replied_to.id : null;
          found.push({
            id: reply.id,
            content: reply.text ?? "",
            author_name: username,
            created_at: parseTime(reply.timestamp),
            contact: username ? { name: username, username, profile_url: `${PROFILE}${username}` } : null,
            parent_id: answers,
            url: reply.permalink ?? null,
            is_own: reply.is_reply_owned_by_me === true,
            hidden: reply.hide_status === "HIDDEN",
            answers,
            mine: reply.is_reply_owned_by_me === true,
          });
        }
        after = answer.paging?.cursors?.after;
        if (!answer.paging?.next || !after) break;
      }
      const others = new Set(found.filter((reply) => !reply.mine).map((reply) => reply.id));
      return found
        .filter((reply) => !reply.mine || (reply.answers !== null && others.has(reply.answers)))
        .map(({ answers: _answers, mine: _mine, ...comment }) => comment)
        .slice(0, COMMENTS_MAX);
    },
  };
}
