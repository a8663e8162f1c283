// Reading back what was published on a Page: `find`, the metrics of a post, and its comments.
// `find` reconciles first by what an earlier attempt recorded (media.ts `FacebookProgress`): the
// unpublished photos of a multi-photo post are the targets of that post's attachments (Graph API › Story
// Attachment), and a reel's upload session id is the reel's own id (Reels Publishing API). Only where
// nothing was recorded does it fall back to the exact text (Facebook keeps no hidden field to carry a
// fingerprint) among the Page's 25 latest posts, then its 25 latest reels, which /posts does not list; a
// reply among the post's latest comments. developers.facebook.com › Pages API › Posts, Comments; Page
// Insights; Video API › Insights.
import { collectPages, graphTime, node, postMetrics, sameText } from "../meta";
import { type FindLookup, type PlatformComment, PlatformError, type PostMetrics } from "../types";
import { absolute, objectUrl, type PageApi, reelUrl } from "./api";
import { recorded } from "./media";
import { commentsPage, engagement, facebookSettings, insights, pagePosts, pageReels } from "./schemas";

/** How many of the Page's latest posts (and reels, and a post's comments) `find` looks through. */
export const FIND_WINDOW = 25;
/** The newest comments a sync stores, read 50 at a time. */
export const MAX_COMMENTS = 100;
const COMMENTS_PAGE = 50;

/**
 * The fields `find` asks of the Page's posts. The attachments' targets are asked only when photos were
 * recorded: a single photo's attachment targets the photo, several photos are one attachment whose
 * `subattachments` each target one (Graph API › Story Attachment; Story Attachment Subattachments).
 */
const POST_FIELDS = "id,message,permalink_url";
const ATTACHMENT_FIELDS = "attachments{target{id},subattachments{target{id}}}";

type PagePost = { id: string; permalink_url?: string | undefined };
const postFound = (api: PageApi, post: PagePost) => ({
  id: post.id,
  url: post.permalink_url ? absolute(api, post.permalink_url) : objectUrl(api, post.id),
});
const reelFound = (api: PageApi, reel: PagePost) => ({
  id: reel.id,
  url: reel.permalink_url ? absolute(api, reel.permalink_url) : reelUrl(api, reel.id),
});

async function latestPosts(api: PageApi, fields: string) {
  const query = { fields, limit: String(FIND_WINDOW) };
  return (await api.graph.get("find", node(api.pageId, "posts"), query, pagePosts)).data;
}

async function latestReels(api: PageApi) {
  const query = { fields: "id,description,permalink_url", limit: String(FIND_WINDOW) };
  return (await api.graph.get("find", node(api.pageId, "video_reels"), query, pageReels)).data;
}

/** The ids a post's attachments target: the attachment's own target and each subattachment's. */
function targetsOf(post: { attachments?: { data: Array<AttachmentShape> } | undefined }): string[] {
  return (post.attachments?.data ?? []).flatMap((attachment) => [
    ...(attachment.target ? [attachment.target.id] : []),
    ...(attachment.subattachments?.data ?? []).flatMap((sub) => (sub.target ? [sub.target.id] : [])),
  ]);
}
type AttachmentShape = {
  target?: { id: string } | undefined;
  subattachments?: { data: Array<{ target?: { id: string } | undefined }> } | undefined;
};

async function findReply(api: PageApi, replyTo: string, text: string) {
  const query = {
    fields: "id,message,permalink_url,from{id}",
    order: "reverse_chronological",
    limit: String(FIND_WINDOW),
  };
  const answer = await api.graph.get("find", node(replyTo, "comments"), query, commentsPage);
  const mine = answer.data.find(
    (c) => sameText(c.message, text) && (c.from?.id === undefined || c.from.id === api.pageId),
  );
  return mine
    ? { id: mine.id, url: mine.permalink_url ? absolute(api, mine.permalink_url) : objectUrl(api, mine.id) }
    : null;
}

export async function findOnPage(api: PageApi, lookup: FindLookup) {
  if (lookup.replyTo) return findReply(api, lookup.replyTo, lookup.text);
  const kept = lookup.progress ? recorded(lookup.progress) : {};
  const postType = facebookSettings.parse(lookup.settings ?? {}).post_type;
  // A multi-photo post whose photos were recorded: the post that attaches one of them, whatever its text
  // (an empty message included). None: the feed post was not made (the photos are still unpublished), and
  // the next publish attaches them; a text match could only answer another post.
  if (postType === "post" && kept.photos?.length) {
    const photos = new Set(kept.photos);
    const posts = await latestPosts(api, `${POST_FIELDS},${ATTACHMENT_FIELDS}`);
    const post = posts.find((p) => targetsOf(p).some((target) => photos.has(target)));
    return post ? postFound(api, post) : null;
  }
  // A reel whose upload session was recorded: the reel is that video (the session's video_id is the
  // reel's id), listed by /{page-id}/video_reels once finished. Absent: not published yet, and the next
  // publish finishes the same session.
  if (postType === "reel" && kept.video) {
    const videoId = kept.video.id;
    const reel = (await latestReels(api)).find((r) => r.id === videoId);
    return reel ? reelFound(api, reel) : null;
  }
  // Nothing recorded: the exact text. An empty text names no post (it would match any post without a
  // message): such a post cannot be found by text.
  if (!lookup.text.trim()) return null;
  const post = (await latestPosts(api, POST_FIELDS)).find((p) => sameText(p.message, lookup.text));
  if (post) return postFound(api, post);
  const reel = (await latestReels(api)).find((r) => sameText(r.description, lookup.text));
  return reel ? reelFound(api, reel) : null;
}

/** The lifetime value of the first of `metrics` the answer has (undefined: none of them). */
function lifetime(
  answer: { data: Array<{ name: string; values?: Array<{ value: unknown }> }> },
  metrics: string[],
): number | undefined {
  for (const metric of metrics) {
    const value = answer.data.find((m) => m.name === metric)?.values?.[0]?.value;
    if (typeof value === "number") return value;
  }
  return undefined;
}

/**
 * A read Facebook refuses for good (the object gone: a story past its 24 h; insights not there: a Page
 * under 100 likes, a retired metric) gives undefined: nothing to read now, so the row keeps what it
 * stored instead of being overwritten with 0s. Throttling and auth still fail the sync.
 */
async function unlessRefused<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof PlatformError && error.kind === "permanent") return undefined;
    throw error;
  }
}

/**
 * A post's views: a Page post (`<page id>_<post id>`) from the `post_media_view` insight (Facebook's
 * replacement for the retired impressions). A video or reel (a bare video id) from its video_insights
 * read without a metric, which answers every metric the object has (Video API › Insights): a reel's
 * plays are `blue_reels_play_count` (Reels Publishing API › Insights), a feed video's `total_video_views`.
 */
async function viewsOf(api: PageApi, postId: string, isPost: boolean): Promise<number | undefined> {
  if (isPost) {
    const query = { metric: "post_media_view", period: "lifetime" };
    const answer = await api.graph.get("insights", node(postId, "insights"), query, insights);
    return lifetime(answer, ["post_media_view"]);
  }
  const query = { period: "lifetime" };
  const answer = await api.graph.get("insights", node(postId, "video_insights"), query, insights);
  return lifetime(answer, ["blue_reels_play_count", "total_video_views"]);
}

/**
 * Reactions, comments (and a post's shares) from the object, views from its insights. Null when either
 * read is refused or the insights answer is empty: the row keeps its stored metrics (a story's insights
 * end with the story, 24 h after publication; `insightsLifetime` in index.ts stops asking by then).
 */
export async function postInsights(api: PageApi, postId: string): Promise<PostMetrics | null> {
  const isPost = postId.includes("_");
  const counts = "reactions.summary(true).limit(0),comments.summary(true).limit(0)";
  const fields = isPost ? `${counts},shares` : counts;
  const post = await unlessRefused(() => api.graph.get("insights", node(postId), { fields }, engagement));
  if (!post) return null;
  const impressions = await unlessRefused(() => viewsOf(api, postId, isPost));
  if (impressions === undefined) return null;
  return postMetrics({
    likes: post.reactions?.summary?.total_count,
    comments: post.comments?.summary?.total_count,
    shares: post.shares?.count,
    impressions,
  });
}

/**
 * The post's newest comments and replies (up to 100), with who wrote them where Facebook says, the
 * comment each reply answers, its permalink and whether the Page hid it (Graph API › Comment:
 * `parent`, `permalink_url`, `is_hidden`). `pageId` is the connected Page: its own are `is_own`.
 */
export async function postComments(
  api: PageApi,
  postId: string,
  pageId: string | null,
): Promise<PlatformComment[]> {
  const comments = await collectPages(async (after) => {
    const query: Record<string, string> = {
      fields: "id,message,created_time,from{id,name},parent{id},permalink_url,is_hidden",
      order: "reverse_chronological",
      filter: "stream",
      limit: String(COMMENTS_PAGE),
    };
    if (after) query.after = after;
    const page = await api.graph.get("comments", node(postId, "comments"), query, commentsPage);
    return { data: page.data, after: page.paging?.cursors?.after, more: Boolean(page.paging?.next) };
  }, MAX_COMMENTS);
  return comments.map((c) => {
    const name = c.from?.name ?? "Facebook user";
    return {
      id: c.id,
      content: c.message ?? "",
      author_name: name,
      created_at: graphTime(c.created_time),
      // Facebook gives no username, and user ids it returns are Page-scoped: no profile address.
      contact: c.from?.id ? { name, username: c.from.id, profile_url: null } : null,
      parent_id: c.parent?.id ?? null,
      url: c.permalink_url ?? null,
      is_own: pageId !== null && c.from?.id === pageId,
      hidden: c.is_hidden ?? false,
    };
  });
}
