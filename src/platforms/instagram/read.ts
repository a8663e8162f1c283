// Reading a published media back: its metrics and its comments. developers.facebook.com › Instagram
// Platform › Instagram Media Insights; IG Media Comments.

import type { z } from "zod";
import { collectPages, graphTime, node, postMetrics } from "../meta";
import { type PlatformComment, PlatformError, type PostMetrics } from "../types";
import { type IgApi, profileUrl } from "./api";
import { commentsPage, insights, mediaCounts } from "./schemas";

/** The newest comments a sync stores, read 50 at a time. */
export const MAX_COMMENTS = 100;
const COMMENTS_PAGE = 50;

/** The metrics each kind of media has (a story has no likes or saves; asking for them is an error). */
const METRICS: Record<string, string> = {
  STORY: "views,reach,shares",
  DEFAULT: "views,reach,likes,comments,shares,saved",
};

/**
 * Likes and comments from the media's own counts, views (else reach), shares and saves from its
 * insights. Insights Instagram does not give now (an empty data set: a story past its 24 hours; a
 * refusal: too few viewers, a media inside an album) answer null, so the row keeps what it stored
 * rather than 0s (Instagram Media Insights › Limitations).
 */
export async function mediaInsights(api: IgApi, mediaId: string): Promise<PostMetrics | null> {
  const fields = "like_count,comments_count,media_product_type";
  const counts = await api.graph.get("insights", node(mediaId), { fields }, mediaCounts);
  const metric = METRICS[counts.media_product_type ?? ""] ?? METRICS.DEFAULT!;
  let answer: z.infer<typeof insights>;
  try {
    answer = await api.graph.get("insights", node(mediaId, "insights"), { metric }, insights);
  } catch (error) {
    if (error instanceof PlatformError && error.kind === "permanent") return null;
    throw error;
  }
  if (answer.data.length === 0) return null;
  const values: Record<string, number> = Object.fromEntries(
    answer.data.map((m) => {
      const value = m.values?.[0]?.value ?? m.total_value?.value;
      return [m.name, typeof value === "number" ? value : 0];
    }),
  );
  return postMetrics({
    likes: values.likes ?? counts.like_count,
    comments: values.comments ?? counts.comments_count,
    shares: values.shares,
    saves: values.saved,
    impressions: values.views || values.reach,
  });
}

const COMMENT_FIELDS = "id,text,username,timestamp,from,hidden,parent_id";

/**
 * The media's comments (up to 100 top-level ones) and their replies (the `replies` edge, expanded in the
 * same call), each with its author, whether it is hidden and the comment it answers. IG Comment has no
 * permalink. `account` is the connected professional account: its own comments are `is_own`.
 */
export async function mediaComments(
  api: IgApi,
  mediaId: string,
  account: { handle: string; platformUserId: string | null },
): Promise<PlatformComment[]> {
  const comments = await collectPages(async (after) => {
    const query: Record<string, string> = {
      fields: `${COMMENT_FIELDS},replies{${COMMENT_FIELDS}}`,
      limit: String(COMMENTS_PAGE),
    };
    if (after) query.after = after;
    const page = await api.graph.get("comments", node(mediaId, "comments"), query, commentsPage);
    return { data: page.data, after: page.paging?.cursors?.after, more: Boolean(page.paging?.next) };
  }, MAX_COMMENTS);
  const all = comments.flatMap(({ replies, ...top }) => [
    top,
    ...(replies?.data ?? []).map((reply) => ({ ...reply, parent_id: reply.parent_id ?? top.id })),
  ]);
  return all.map((c) => {
    const username = c.username ?? c.from?.username ?? "";
    const own = c.from?.id ? c.from.id === account.platformUserId : username === account.handle;
    return {
      id: c.id,
      content: c.text ?? "",
      author_name: username || "Instagram user",
      created_at: graphTime(c.timestamp),
      contact: username ? { name: username, username, profile_url: profileUrl(username) } : null,
      parent_id: c.parent_id ?? null,
      url: null,
      is_own: own,
      hidden: c.hidden ?? false,
    };
  });
}
