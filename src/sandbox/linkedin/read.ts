// What LinkedIn lets a member read about a post, on the emulator: its comments (socialActions, public, a
// page at a time) and its numbers in LinkedIn's own names: socialMetadata (reactions by type, comment
// count), organizationalEntityShareStatistics (an organization's posts) and memberCreatorPostAnalytics
// (a member's own posts). Numbers only to the post's owner; the counts come from the sandbox's
// deterministic metrics.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { type Emulated, type LedgerPost, refuse } from "../emulator";
import { ownsAuthor } from "./channels";
import { collection, listOf } from "./rules";
import { grantedScopes, MEMBER_ANALYTICS } from "./token";

type Ctx = Context<BareEnv>;

/** A comment's URN: under the post it answers, as LinkedIn names it. */
export const commentUrn = (postUrn: string, id: string) => `urn:li:comment:(${postUrn},${id})`;

type CommentView = {
  /** A reply's comment (Comments API › Get Comments on Comments). */
  parentComment?: string;
  /** How many answer it (Comments API: `commentsSummary`). */
  commentsSummary?: { totalFirstLevelComments: number; aggregatedTotalComments: number };
  actor: string;
  commentUrn: string;
  $URN: string;
  id: string;
  object: string;
  message: { text: string };
  created: { actor: string; time: number };
  lastModified: { actor: string; time: number };
};

export const commentView = (
  postUrn: string,
  id: string,
  actor: string,
  text: string,
  time: number,
): CommentView => ({
  actor,
  commentUrn: commentUrn(postUrn, id),
  $URN: commentUrn(postUrn, id),
  id,
  object: postUrn,
  message: { text },
  created: { actor, time },
  lastModified: { actor, time },
});

/** The objects that remember a post's comments deleted through the API (under the post's handle). */
export const DELETED = "comment_deleted";

/** The URNs of the post's comments deleted through the API. */
async function deletedOf(e: Emulated, post: LedgerPost): Promise<Set<string>> {
  const marks = await e.objects(post.handle, DELETED);
  return new Set(marks.filter((m) => m.data.post === post.id).map((m) => String(m.data.urn)));
}

/**
 * Every comment of a post, oldest first: the audience's (made up over time) and the API's (a nested one
 * names its `parentComment`), without those deleted and the answers under them; a top-level comment
 * counts its answers in `commentsSummary`.
 */
export async function commentsOf(e: Emulated, post: LedgerPost): Promise<CommentView[]> {
  const audience = (await e.comments(post.id)) ?? [];
  const made = await Promise.all(
    audience.map(async (comment) => {
      const view = commentView(
        post.id,
        comment.id,
        `urn:li:person:${await e.platformId(comment.author.username)}`,
        comment.text,
        comment.created_at,
      );
      return comment.parent_id === null
        ? view
        : { ...view, parentComment: commentUrn(post.id, comment.parent_id) };
    }),
  );
  const written = (await e.replies(post.id)).map((reply) => {
    const request = reply.platform_request as {
      actor: string;
      message: { text: string };
      parentComment?: string;
    };
    const view = commentView(
      post.id,
      reply.id,
      request.actor,
      request.message.text,
      Date.parse(reply.published_at),
    );
    return request.parentComment ? { ...view, parentComment: request.parentComment } : view;
  });
  const deleted = await deletedOf(e, post);
  const kept = [...made, ...written].filter(
    (comment) =>
      !deleted.has(comment.commentUrn) &&
      !(comment.parentComment !== undefined && deleted.has(comment.parentComment)),
  );
  return kept
    .map((comment) => {
      if (comment.parentComment !== undefined) return comment;
      const answers = kept.filter((other) => other.parentComment === comment.commentUrn).length;
      return answers === 0
        ? comment
        : {
            ...comment,
            commentsSummary: { totalFirstLevelComments: answers, aggregatedTotalComments: answers },
          };
    })
    .sort((a, b) => a.created.time - b.created.time);
}

export async function postOf(e: Emulated, urnOfPost: string) {
  const post = await e.post(urnOfPost);
  if (!post || post.parent_id !== null) return refuse(404, "not_found", `${urnOfPost} does not exist`);
  return post;
}

/**
 * GET /rest/socialActions/{urn}/comments: public, a page at a time; a post's top-level comments, or the
 * answers to a comment when the URN is a comment's.
 */
export async function listComments(c: Ctx, e: Emulated) {
  await e.caller();
  const urn = c.req.param("urn") ?? "";
  const answered = /^urn:li:comment:\((.+),([^,()]+)\)$/.exec(urn);
  const post = await postOf(e, answered ? answered[1]! : urn);
  const all = (await commentsOf(e, post)).filter((comment) =>
    answered ? comment.parentComment === urn : comment.parentComment === undefined,
  );
  const start = Math.max(0, Number(c.req.query("start") ?? 0) || 0);
  const count = Math.min(100, Math.max(1, Number(c.req.query("count") ?? 10) || 10));
  return c.json(collection(all.slice(start, start + count), start, all.length));
}

/** The post, if the caller owns it (its own, or its organization's); LinkedIn's 403 otherwise. */
async function ownedPost(e: Emulated, urn: string): Promise<LedgerPost> {
  const caller = await e.caller();
  const post = await e.post(urn);
  if (!post || post.parent_id !== null) return refuse(404, "not_found", `${urn} does not exist`);
  const author = (post.platform_request as { author?: string } | null)?.author ?? "";
  if (!(await ownsAuthor(caller, author))) {
    return refuse(403, "forbidden", `Not enough permissions to access the statistics of ${urn}`);
  }
  return post;
}

async function countsOf(e: Emulated, post: LedgerPost) {
  const metrics = await e.metrics(post.id);
  if (!metrics) return refuse(404, "not_found", `${post.id} does not exist`);
  const comments = (await commentsOf(e, post)).length;
  return { ...metrics, comments };
}

/** Reactions split by LinkedIn's types (they add up to the likes). */
function reactionsOf(likes: number) {
  const praise = Math.floor(likes / 5);
  const empathy = Math.floor(likes / 10);
  const split = { LIKE: likes - praise - empathy, PRAISE: praise, EMPATHY: empathy };
  return Object.fromEntries(
    Object.entries(split)
      .filter(([, count]) => count > 0)
      .map(([reactionType, count]) => [reactionType, { reactionType, count }]),
  );
}

/** GET /rest/socialMetadata/{urn}. */
export async function socialMetadata(c: Ctx, e: Emulated) {
  const post = await ownedPost(e, c.req.param("urn") ?? "");
  const counts = await countsOf(e, post);
  return c.json({
    reactionSummaries: reactionsOf(counts.likes),
    commentsState: "OPEN",
    commentSummary: { count: counts.comments, topLevelCount: counts.comments },
    entity: post.id,
  });
}

/** GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&shares=List(…) (or ugcPosts). */
export async function shareStatistics(c: Ctx, e: Emulated) {
  const caller = await e.caller();
  if (c.req.query("q") !== "organizationalEntity") {
    return refuse(400, "invalid_request", "Unsupported finder", { code: "ILLEGAL_ARGUMENT" });
  }
  const entity = c.req.query("organizationalEntity") ?? "";
  if (!entity.startsWith("urn:li:organization:") || !(await ownsAuthor(caller, entity))) {
    return refuse(403, "forbidden", `Not enough permissions to access the statistics of ${entity}`);
  }
  const shares = listOf(c.req.query("shares")) ?? [];
  const ugcPosts = listOf(c.req.query("ugcPosts")) ?? [];
  const elements = [];
  const asked: Array<[string, string]> = [
    ...shares.map((s): [string, string] => ["share", s]),
    ...ugcPosts.map((u): [string, string] => ["ugcPost", u]),
  ];
  for (const [key, urn] of asked) {
    const post = await e.post(urn);
    if (!post || (post.platform_request as { author?: string } | null)?.author !== entity) continue;
    const counts = await countsOf(e, post);
    elements.push({
      organizationalEntity: entity,
      [key]: urn,
      totalShareStatistics: {
        impressionCount: counts.impressions,
        uniqueImpressionsCount: Math.floor(counts.impressions * 0.8),
        clickCount: Math.floor(counts.impressions / 50),
        likeCount: counts.likes,
        commentCount: counts.comments,
        shareCount: counts.shares,
        engagement:
          counts.impressions === 0
            ? 0
            : (Math.floor(counts.impressions / 50) + counts.likes + counts.comments + counts.shares) /
              counts.impressions,
      },
    });
  }
  return c.json(collection(elements, 0, elements.length));
}

const QUERY_TYPES = ["IMPRESSION", "MEMBERS_REACHED", "RESHARE", "REACTION", "COMMENT"] as const;
type QueryType = (typeof QUERY_TYPES)[number];

/** GET /rest/memberCreatorPostAnalytics?q=entity&entity=(share:…)&queryType=…&aggregation=TOTAL. */
export async function memberPostAnalytics(c: Ctx, e: Emulated) {
  await e.caller();
  // The permission the app must have been granted (Member Post Statistics): 403 without it.
  if (!grantedScopes(c.env).has(MEMBER_ANALYTICS)) {
    return refuse(
      403,
      "forbidden",
      "Not enough permissions to access: memberCreatorPostAnalytics.FINDER-entity",
    );
  }
  if (c.req.query("q") !== "entity") {
    return refuse(400, "invalid_request", "Unsupported finder", { code: "ILLEGAL_ARGUMENT" });
  }
  const queryType = c.req.query("queryType") ?? "";
  if (!(QUERY_TYPES as readonly string[]).includes(queryType)) {
    return refuse(
      400,
      "invalid_request",
      `/queryType :: "${queryType}" is not one of ${QUERY_TYPES.join(", ")}`,
      {
        code: "ILLEGAL_ARGUMENT",
      },
    );
  }
  const aggregation = c.req.query("aggregation") ?? "TOTAL";
  if (aggregation !== "TOTAL" && aggregation !== "DAILY") {
    return refuse(400, "invalid_request", `/aggregation :: "${aggregation}" is not TOTAL or DAILY`, {
      code: "ILLEGAL_ARGUMENT",
    });
  }
  const entity = /^\((share|ugc):(urn:li:(?:share|ugcPost):\d+)\)$/.exec(c.req.query("entity") ?? "");
  if (!entity)
    return refuse(
      400,
      "invalid_request",
      "/entity :: must be (share:urn:li:share:…) or (ugc:urn:li:ugcPost:…)",
    );
  const post = await ownedPost(e, entity[2]!);
  if (!(post.platform_request as { author?: string }).author?.startsWith("urn:li:person:")) {
    return refuse(403, "forbidden", "Member post analytics are for the member's own posts");
  }
  const counts = await countsOf(e, post);
  const value: Record<QueryType, number> = {
    IMPRESSION: counts.impressions,
    MEMBERS_REACHED: Math.floor(counts.impressions * 0.8),
    RESHARE: counts.shares,
    REACTION: counts.likes,
    COMMENT: counts.comments,
  };
  const element = {
    count: value[queryType as QueryType],
    metricType: {
      "com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1": queryType,
    },
  };
  return c.json(collection([element], 0, 1));
}
