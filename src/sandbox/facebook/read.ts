// The emulator's reads of a published post (developers.facebook.com › Graph API › Page Post, Video,
// Comment; Page Insights; Video API › Insights; Reels Publishing API › Insights): a node's fields, a
// post's insights, a video's or reel's video_insights, a post's comments (with `filter=stream`, the
// replies too, each with its `parent`; `is_hidden`). Insights only go to the Page
// (or its owner); comments are public. A story past its 24 h is gone, as Facebook removes it.
import { type Caller, type Emulated, type LedgerObject, type LedgerPost, refuse } from "../emulator";
import { withStates } from "../meta-comments";
import { owns } from "./channels";
import { graphError, unsupported } from "./errors";
import { expiredStory, fieldNames, graphTime, isVideoId, paged, pageName, pick, postNamed } from "./rules";
import { callerOf, type GraphCall, paramsOf } from "./token";

const REACTION_TYPES = ["like", "love", "wow", "haha", "sorry", "anger"] as const;

/** A published post the caller may read the insights of (its Page or the Page's owner), else refused. */
async function ownPost(e: Emulated, caller: Caller, id: string) {
  const post = await postNamed(e, id);
  if (!post || post.parent_id !== null || (await expiredStory(e, post))) return unsupported("get", id);
  if (!(await owns(e, caller, post.handle)))
    return refuse(403, "forbidden", "(#10) Requires pages_read_engagement permission to manage the object", {
      code: 10,
    });
  return post;
}

/** A comment's id as Facebook shows it: `<post>_<comment>`, the post's part without its Page's. */
export const commentIdOf = (postId: string, id: string) =>
  `${postId.includes("_") ? postId.split("_")[1]! : postId}_${id}`;

/** The comments of a post as the comments edge lists them: the public's, then the Page's own, by time. */
async function commentsOf(e: Emulated, post: LedgerPost) {
  const pageId = await e.platformId(post.handle);
  const generated = await Promise.all(
    ((await e.comments(post.id)) ?? []).map(async (comment) => ({
      id: commentIdOf(post.id, comment.id),
      message: comment.text,
      created_at: comment.created_at,
      from: { id: await e.platformId(`commenter:${comment.author.username}`), name: comment.author.name },
      parent: comment.parent_id === null ? null : { id: commentIdOf(post.id, comment.parent_id) },
      is_hidden: comment.hidden,
    })),
  );
  const ours = (await e.replies(post.id)).map((reply) => ({
    id: reply.id,
    message: reply.text.join("\n"),
    created_at: Date.parse(reply.published_at),
    from: { id: pageId, name: pageName(post.handle) },
    parent: null as { id: string } | null,
    is_hidden: false,
  }));
  // What the Page did since: hidden or shown again, deleted, and which comment its own reply answers.
  const shown = (await withStates(e, [...generated, ...ours])).map(({ comment, state }) => ({
    ...comment,
    is_hidden: state.hidden ?? comment.is_hidden,
    parent: state.parent ? { id: state.parent } : comment.parent,
  }));
  return shown.sort((a, b) => a.created_at - b.created_at || a.id.localeCompare(b.id));
}

/** The comment `id` (a follower's or the Page's own) with the post it is on; null when there is none. */
export async function commentNamed(e: Emulated, pageId: string, id: string) {
  const postPart = /^(\d+)_\d+$/.exec(id)?.[1];
  if (!postPart) return null;
  // A comment's id carries its post's id without the Page's part (a video's is the bare id).
  const post = (await postNamed(e, `${pageId}_${postPart}`)) ?? (await postNamed(e, postPart));
  if (!post || post.parent_id !== null) return null;
  const comment = (await commentsOf(e, post)).find((c) => c.id === id);
  return comment ? { post, comment } : null;
}

/**
 * A photo as Graph API › Photo reads it: `link` is "a link to the photo on Facebook" (in the sandbox,
 * the post page of its id, which shows the post that published it).
 */
const photoNode = (e: Emulated, photo: LedgerObject) => ({
  id: photo.id,
  created_time: graphTime(photo.createdAt),
  link: e.postUrl(photo.id),
  ...(typeof photo.data.post_id === "string" ? { page_story_id: photo.data.post_id } : {}),
});

/** GET /{object-id}?fields=…: a post, video, reel or comment (Graph API › Page Post, Video, Comment). */
export async function node(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  await callerOf(e, params);
  const id = call.params.node!;
  const names = fieldNames(params.get("fields") ?? "id,created_time");
  const photo = isVideoId(id) ? await e.object(id) : null;
  if (photo?.kind === "photo") return Response.json(pick(photoNode(e, photo), names));
  const post = await postNamed(e, id);
  if (!post || (await expiredStory(e, post))) return unsupported("get", id);
  if (post.parent_id !== null) {
    const parent = await e.post(post.parent_id);
    return Response.json(
      pick(
        {
          id,
          message: post.text.join("\n"),
          created_time: graphTime(Date.parse(post.published_at)),
          permalink_url: `${e.postUrl(post.parent_id)}?comment_id=${encodeURIComponent(id)}`,
          from: parent ? { id: await e.platformId(parent.handle), name: pageName(parent.handle) } : undefined,
        },
        names,
      ),
    );
  }
  const isVideo = isVideoId(id);
  if (isVideo && names.includes("shares"))
    return refuse(
      400,
      "invalid_request",
      "(#100) Tried accessing nonexisting field (shares) on node type (Video)",
      {
        code: 100,
      },
    );
  const metrics = await e.metrics(post.id);
  const comments = await commentsOf(e, post);
  const answer: Record<string, unknown> = {
    id,
    created_time: graphTime(Date.parse(post.published_at)),
    permalink_url: e.postUrl(post.id),
    [isVideo ? "description" : "message"]: post.text[0] || undefined,
    reactions: { data: [], summary: { total_count: metrics?.likes ?? 0, viewer_reaction: "NONE" } },
    likes: { data: [], summary: { total_count: metrics?.likes ?? 0, can_like: true, has_liked: false } },
    comments: {
      data: [],
      summary: { order: "ranked", total_count: comments.length, can_comment: true },
    },
  };
  if (!isVideo) answer.shares = { count: metrics?.shares ?? 0 };
  return Response.json(pick(answer, names));
}

/** The likes split over reaction types, summing to the likes (post_reactions_by_type_total). */
function reactionsByType(likes: number) {
  const split: Record<string, number> = {};
  let left = likes;
  for (const [index, type] of REACTION_TYPES.entries()) {
    const share = index === REACTION_TYPES.length - 1 ? left : Math.floor(left * 0.6);
    split[type] = share;
    left -= share;
  }
  return split;
}

const metricEntry = (id: string, name: string, value: unknown, title: string) => ({
  name,
  period: "lifetime",
  values: [{ value }],
  title,
  description: title,
  id: `${id}/insights/${name}/lifetime`,
});

/**
 * GET /{post-id}/insights?metric=… (Page Insights › Page Post metrics): the views metrics that replaced
 * impressions on November 15, 2025; a retired or unknown metric is Facebook's invalid-metric error.
 */
export async function postInsights(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  const caller = await callerOf(e, params);
  const id = call.params.node!;
  if (isVideoId(id)) return unsupported("get", `${id}/insights`);
  const post = await ownPost(e, caller, id);
  const metrics = (await e.metrics(post.id))!;
  const values: Record<string, [unknown, string]> = {
    post_media_view: [metrics.impressions, "Lifetime Post Views"],
    post_total_media_view_unique: [Math.floor(metrics.impressions * 0.8), "Lifetime Post Viewers"],
    post_reactions_by_type_total: [reactionsByType(metrics.likes), "Lifetime Total post Reactions by Type."],
    post_reactions_like_total: [
      reactionsByType(metrics.likes).like,
      'Lifetime Total "like" Reactions of a post.',
    ],
    post_clicks: [metrics.saves + metrics.shares, "Lifetime Post Clicks"],
  };
  const requested = (params.get("metric") ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  if (requested.length === 0)
    return graphError({
      status: 400,
      message:
        "No metric was specified to be fetched. Please specify one or more metrics to be fetched and try again.",
      type: "OAuthException",
      code: 3001,
      subcode: 1504028,
    });
  const unknown = requested.find((metric) => !(metric in values));
  if (unknown)
    return refuse(400, "invalid_request", "(#100) The value must be a valid insights metric", { code: 100 });
  const period = params.get("period");
  if (period !== null && period !== "lifetime")
    return refuse(400, "invalid_request", `(#100) The period ${period} is not supported for these metrics`, {
      code: 100,
    });
  return Response.json({
    data: requested.map((metric) => metricEntry(id, metric, values[metric]![0], values[metric]![1])),
    paging: {},
  });
}

/**
 * GET /{video-id}/video_insights (Video API › Insights): without `metric`, every metric the object has.
 * A feed video has the video metrics (total_video_views and its kin); a reel the Reels metrics
 * (Reels Publishing API › Insights: blue_reels_play_count for its plays); a metric of the other kind is
 * Facebook's invalid-metric error.
 */
export async function videoInsights(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  const caller = await callerOf(e, params);
  const id = call.params.node!;
  if (!isVideoId(id)) return unsupported("get", `${id}/video_insights`);
  const post = await ownPost(e, caller, id);
  const metrics = (await e.metrics(post.id))!;
  const isReel = (await e.object(post.id))?.kind === "reel";
  const values: Record<string, number> = isReel
    ? {
        blue_reels_play_count: metrics.impressions,
        fb_reels_total_plays: metrics.impressions,
        post_impressions_unique: Math.floor(metrics.impressions * 0.8),
        post_video_likes_by_reaction_type: metrics.likes,
      }
    : {
        total_video_views: metrics.impressions,
        total_video_views_unique: Math.floor(metrics.impressions * 0.8),
        total_video_impressions: metrics.impressions,
        total_video_reactions_by_type_total: metrics.likes,
      };
  const asked = params.get("metric");
  const requested = asked ? asked.split(",").map((m) => m.trim()) : Object.keys(values);
  if (requested.some((metric) => !(metric in values)))
    return refuse(400, "invalid_request", "(#100) The value must be a valid insights metric", { code: 100 });
  return Response.json({
    data: requested.map((metric) => ({
      name: metric,
      period: "lifetime",
      values: [{ value: values[metric] }],
      id: `${id}/video_insights/${metric}/lifetime`,
    })),
  });
}

/** GET /{object-id}/comments (Graph API › Object › Comments): public; order, filter, limit, after. */
export async function listComments(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  await callerOf(e, params);
  const id = call.params.node!;
  const post = await postNamed(e, id);
  if (!post || post.parent_id !== null) return unsupported("get", id);
  const order = params.get("order") ?? "chronological";
  if (!["chronological", "reverse_chronological"].includes(order))
    return refuse(
      400,
      "invalid_request",
      "(#100) order must be one of {chronological, reverse_chronological}",
      {
        code: 100,
      },
    );
  const names = fieldNames(params.get("fields") ?? "id,message,created_time");
  const filter = params.get("filter") ?? "toplevel";
  if (!["toplevel", "stream"].includes(filter))
    return refuse(400, "invalid_request", "(#100) filter must be one of {toplevel, stream}", { code: 100 });
  // `toplevel` (the default) leaves replies out; `stream` lists them too, each with its `parent`.
  const all = (await commentsOf(e, post)).filter((comment) => filter === "stream" || !comment.parent);
  if (order === "reverse_chronological") all.reverse();
  const data = all.map((comment) =>
    pick(
      {
        id: comment.id,
        message: comment.message,
        created_time: graphTime(comment.created_at),
        from: comment.from,
        ...(comment.parent ? { parent: comment.parent } : {}),
        is_hidden: comment.is_hidden,
        permalink_url: `${e.postUrl(post.id)}?comment_id=${encodeURIComponent(comment.id)}`,
      },
      names,
    ),
  );
  return Response.json({
    ...paged(data, params, call.req.url),
    summary: { order, total_count: all.length, can_comment: true },
  });
}
