import { type Emulated, emulate, type emulatorRouter, type LedgerPost, refuse } from "../emulator";
import { withStates } from "../meta-comments";
import { graphTime, page, pick, required, unsupported, VERSION } from "../meta-graph";
import { mediaFacts } from "./media";
import { METRICS, STORY_INSIGHTS_MS } from "./rules";

/** The emulator's router, as its route groups extend it. */
type Router = ReturnType<typeof emulatorRouter>;

const TITLES: Record<string, string> = {
  comments: "Comments",
  follows: "Follows",
  likes: "Likes",
  profile_activity: "Profile activity",
  profile_visits: "Profile visits",
  reach: "Accounts reached",
  saved: "Saves",
  shares: "Shares",
  total_interactions: "Interactions",
  views: "Views",
  navigation: "Navigation",
  replies: "Replies",
  ig_reels_avg_watch_time: "Average watch time",
  ig_reels_video_view_total_time: "Total watch time",
};

/** Insights and comments. */
export function readRoutes(app: Router) {
  app
    .get(`/${VERSION}/:id/insights`, async (c) => {
      const emu = emulate(c, "instagram");
      const caller = await emu.caller();
      const id = c.req.param("id");
      const post = await emu.post(id);
      if (!post || post.parent_id !== null) return unsupported(id);
      if (post.handle !== caller.handle)
        return refuse(400, "forbidden", "Application does not have permission for this action", { code: 10 });
      const metric = c.req.query("metric");
      if (!metric) return required("metric");
      const { product } = mediaFacts(post);
      const allowed = METRICS[product]!;
      const names = metric.split(",").map((name) => name.trim());
      names.forEach((name, index) => {
        if (!allowed.includes(name))
          refuse(
            400,
            "invalid_request",
            `(#100) metric[${index}] must be one of the following values: ${allowed.join(", ")}`,
          );
      });
      // Story metrics are only available for 24 hours; unavailable insights are an empty data set, not
      // 0s (Instagram Media Insights › Limitations).
      if (product === "STORY" && Date.now() - Date.parse(post.published_at) > STORY_INSIGHTS_MS)
        return c.json({ data: [] });
      const values = await insightValues(emu, post);
      return c.json({
        data: names.map((name) => ({
          name,
          period: "lifetime",
          values: [{ value: values[name] ?? 0 }],
          title: TITLES[name] ?? name,
          description: `${TITLES[name] ?? name} of the media.`,
          id: `${id}/insights/${name}/lifetime`,
        })),
      });
    })
    .get(`/${VERSION}/:id/comments`, async (c) => {
      const emu = emulate(c, "instagram");
      await emu.caller();
      const id = c.req.param("id");
      const post = await emu.post(id);
      if (!post || post.parent_id !== null) return unsupported(id);
      const fields = c.req.query("fields");
      // The media's top-level comments; replies are each comment's `replies` edge (IG Comment).
      const all = await commentsOf(emu, post);
      const top = all
        .filter((comment) => comment.parent_id === undefined)
        .map((comment) => {
          const replies = all.filter((reply) => reply.parent_id === comment.id).reverse();
          return pick({ ...comment, replies: { data: replies } }, fields, ["text", "timestamp"]);
        });
      return c.json(page(c.req.url, top));
    });
}

/**
 * Comments on a media, newest first: everyone's (made up over time, and the followers') and the
 * account's own. A reply names its top-level comment in `parent_id` (IG Comment, since October 2021).
 */
export async function commentsOf(emu: Emulated, post: LedgerPost) {
  const made = (await emu.comments(post.id)) ?? [];
  const others = await Promise.all(
    made.map(async (comment) => ({
      id: comment.id,
      text: comment.text,
      username: comment.author.username,
      from: { id: await emu.platformId(comment.author.username), username: comment.author.username },
      timestamp: graphTime(comment.created_at),
      like_count: 0,
      hidden: comment.hidden,
      ...(comment.parent_id === null ? {} : { parent_id: comment.parent_id }),
      at: comment.created_at,
    })),
  );
  const own = await Promise.all(
    (await emu.replies(post.id)).map(async (reply) => ({
      id: reply.id,
      text: reply.text[0] ?? "",
      username: reply.handle,
      from: { id: await emu.platformId(reply.handle), username: reply.handle },
      timestamp: graphTime(reply.published_at),
      like_count: 0,
      hidden: false,
      parent_id: undefined as string | undefined,
      at: Date.parse(reply.published_at),
    })),
  );
  // What the account did since: hidden or shown again, deleted, and which comment its own reply answers.
  const shown = (await withStates(emu, [...others, ...own])).map(({ comment, state }) => ({
    ...comment,
    hidden: state.hidden ?? comment.hidden,
    ...(state.parent ? { parent_id: state.parent } : {}),
  }));
  return shown.sort((a, b) => b.at - a.at).map(({ at: _at, ...comment }) => comment);
}

/** Every metric's value now, in Instagram's names, from the sandbox's generic metrics. */
async function insightValues(emu: Emulated, post: LedgerPost): Promise<Record<string, number>> {
  const m = (await emu.metrics(post.id))!;
  const comments = m.comments + (await emu.replies(post.id)).length;
  const visits = Math.floor(m.impressions / 50);
  return {
    views: m.impressions,
    reach: Math.max(1, Math.floor(m.impressions * 0.8)),
    likes: m.likes,
    comments,
    shares: m.shares,
    saved: m.saves,
    total_interactions: m.likes + comments + m.shares + m.saves,
    follows: Math.floor(m.likes / 20),
    profile_visits: visits,
    profile_activity: visits,
    navigation: 0,
    replies: 0,
    ig_reels_avg_watch_time: 4_000 + (m.impressions % 9_000),
    ig_reels_video_view_total_time: m.impressions * 4_000,
  };
}
