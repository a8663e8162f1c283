// Reading back what was published on Instagram: `find` (Instagram keeps no hidden field to carry a
// fingerprint, so an earlier attempt is recognised by its exact caption among the account's 25 latest
// media; stories are not listed there; a reply by its text and author among the media's comments), the
// metrics of a media, and its comments. developers.facebook.com › Instagram Platform › IG User Media;
// Instagram Media Insights; IG Media Comments.

import type { z } from "zod";
import { collectPages, graphTime, node, postMetrics, sameText } from "../meta";
import {
  type FindLookup,
  type PlatformComment,
  PlatformError,
  type PostMetrics,
  type Progress,
  type PublishedPost,
} from "../types";
import { type IgApi, permalinkOf, profileUrl } from "./api";
import { containerState, type IgProgress, PROGRESS_KEY, recorded } from "./containers";
import { commentsPage, insights, mediaCounts, recentMedia } from "./schemas";

/** How many of the account's latest media (or a media's comments) `find` looks through. */
export const FIND_WINDOW = 25;
/** The newest comments a sync stores, read 50 at a time. */
export const MAX_COMMENTS = 100;
const COMMENTS_PAGE = 50;

/** How far before the first container was made a media's timestamp may read (clocks differ). */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The media of a container Instagram reports PUBLISHED (its media_publish answer was lost): the IG
 * Container gives no media id, so it is looked for among the account's latest media, by its caption,
 * else as the newest media made since the container was; the id found is recorded. A story is not on
 * that edge: the container id then stands for it (it is published; nothing is published again).
 */
export async function publishedMedia(
  api: IgApi,
  caption: string,
  state: IgProgress,
  progress: Progress | undefined,
): Promise<PublishedPost> {
  const query = { fields: "id,caption,permalink,timestamp", limit: String(FIND_WINDOW) };
  const media = await api.graph.get("find", node(api.userId, "media"), query, recentMedia);
  const since = (state.at ?? 0) - CLOCK_SKEW_MS;
  const found =
    media.data.find((m) => sameText(m.caption, caption)) ??
    media.data.find((m) => m.timestamp !== undefined && graphTime(m.timestamp).getTime() >= since);
  if (!found) return { id: state.container!, url: profileUrl(api.handle) };
  await progress?.set(PROGRESS_KEY, { ...state, media: found.id });
  return { id: found.id, url: found.permalink ?? profileUrl(api.handle) };
}

export async function findOnInstagram(api: IgApi, lookup: FindLookup): Promise<PublishedPost | null> {
  // What an earlier attempt recorded answers first: its media, else its container's status (only a
  // PUBLISHED container was published; any other is resumed by publish, with no text search).
  const state = lookup.replyTo ? {} : recorded(lookup.progress);
  if (state.media) return { id: state.media, url: await permalinkOf(api, state.media) };
  // Only a carousel's children so far: nothing that could have been published.
  if (state.children && !state.container) return null;
  if (state.container) {
    const { status_code } = await containerState(api, state.container);
    return status_code === "PUBLISHED" ? publishedMedia(api, lookup.text, state, lookup.progress) : null;
  }
  if (lookup.replyTo) {
    const query = { fields: "id,text,username", limit: String(COMMENTS_PAGE) };
    const answer = await api.graph.get("find", node(lookup.replyTo, "comments"), query, commentsPage);
    const handle = api.handle.toLowerCase();
    const mine = answer.data.find(
      (c) => sameText(c.text, lookup.text) && (!c.username || c.username.toLowerCase() === handle),
    );
    return mine ? { id: mine.id, url: await permalinkOf(api, lookup.replyTo) } : null;
  }
  const query = { fields: "id,caption,permalink", limit: String(FIND_WINDOW) };
  const media = await api.graph.get("find", node(api.userId, "media"), query, recentMedia);
  const found = media.data.find((m) => sameText(m.caption, lookup.text));
  return found ? { id: found.id, url: found.permalink ?? profileUrl(api.handle) } : null;
}

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

/** The media's comments (up to 100), each with its author's username. */
export async function mediaComments(api: IgApi, mediaId: string): Promise<PlatformComment[]> {
  const comments = await collectPages(async (after) => {
    const query: Record<string, string> = {
      fields: "id,text,username,timestamp",
      limit: String(COMMENTS_PAGE),
    };
    if (after) query.after = after;
    const page = await api.graph.get("comments", node(mediaId, "comments"), query, commentsPage);
    return { data: page.data, after: page.paging?.cursors?.after, more: Boolean(page.paging?.next) };
  }, MAX_COMMENTS);
  return comments.map((c) => {
    const username = c.username ?? "";
    return {
      id: c.id,
      content: c.text ?? "",
      author_name: username || "Instagram user",
      created_at: graphTime(c.timestamp),
      contact: username ? { name: username, username, profile_url: profileUrl(username) } : null,
    };
  });
}
