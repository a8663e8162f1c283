// A LinkedIn post's metrics and comments. Organization posts: likes (all reaction types) and comments
// from socialMetadata, impressions and reshares from organizationalEntityShareStatistics (lifetime,
// organic). Member posts: impressions, reactions, comments and reshares from
// memberCreatorPostAnalytics (r_member_postAnalytics), whose query types count no saves. LinkedIn has no
// quotes and reports no saves. A read LinkedIn refuses with 403 (a permission the app lacks, or a page role that may not
// read statistics) counts as unavailable: its metrics are 0, its comments none.

import { withEngagement } from "../metrics";
import type { AccountAuth, PlatformComment, PostMetrics } from "../types";
import { authorOf, isAccessDenied, isOrganization, type LinkedInApi, restli, tokenOf } from "./api";
import { listComments, toPlatformComment } from "./comments";
import { expect, memberAnalytics, shareStatistics, socialMetadata } from "./schemas";

type Counts = Omit<PostMetrics, "engagement_rate">;

const ZERO: Counts = { comments: 0, likes: 0, shares: 0, impressions: 0, quotes: 0, saves: 0 };

/** The call's answer, or `fallback` when LinkedIn refuses this app or role the read. */
async function unlessDenied<T>(read: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isAccessDenied(error)) return fallback;
    throw error;
  }
}

async function organizationCounts(api: LinkedInApi, token: string, author: string, post: string) {
  const list = post.startsWith("urn:li:ugcPost:") ? "ugcPosts" : "shares";
  const statsUrl =
    `${api.rest}/organizationalEntityShareStatistics?q=organizationalEntity` +
    `&organizationalEntity=${restli(author)}&${list}=List(${restli(post)})`;
  const [social, stats] = await Promise.all([
    unlessDenied(async () => {
      const body = await api.get("social metadata", `${api.rest}/socialMetadata/${restli(post)}`, token);
      return expect(socialMetadata, body, "social metadata", "transient");
    }, null),
    unlessDenied(async () => {
      const body = await api.get("share statistics", statsUrl, token);
      return expect(shareStatistics, body, "share statistics", "transient").elements[0]?.totalShareStatistics;
    }, undefined),
  ]);
  const reactions = social
    ? Object.values(social.reactionSummaries).reduce((sum, r) => sum + r.count, 0)
    : (stats?.likeCount ?? 0);
  return {
    ...ZERO,
    likes: reactions,
    comments: social ? social.commentSummary.count : (stats?.commentCount ?? 0),
    shares: stats?.shareCount ?? 0,
    impressions: stats?.impressionCount ?? 0,
  };
}

/** memberCreatorPostAnalytics names a share as (share:…) and a ugcPost as (ugc:…). */
const entityOf = (post: string) =>
  `(${post.startsWith("urn:li:ugcPost:") ? "ugc" : "share"}:${restli(post)})`;

async function memberCounts(api: LinkedInApi, token: string, post: string) {
  const metric = (queryType: string) =>
    unlessDenied(async () => {
      const url =
        `${api.rest}/memberCreatorPostAnalytics?q=entity&entity=${entityOf(post)}` +
        `&queryType=${queryType}&aggregation=TOTAL`;
      const body = await api.get(`post analytics (${queryType})`, url, token);
      const answer = expect(memberAnalytics, body, "post analytics", "transient");
      return answer.elements.reduce((sum, e) => sum + e.count, 0);
    }, 0);
  // LinkedIn's query types are IMPRESSION, MEMBERS_REACHED, RESHARE, REACTION and COMMENT: it counts
  // no saves (a POST_SAVE is refused as a bad request).
  const [impressions, likes, comments, shares] = await Promise.all(
    ["IMPRESSION", "REACTION", "COMMENT", "RESHARE"].map(metric),
  );
  return {
    ...ZERO,
    impressions: impressions ?? 0,
    likes: likes ?? 0,
    comments: comments ?? 0,
    shares: shares ?? 0,
  };
}

export async function insights(api: LinkedInApi, account: AccountAuth, post: string): Promise<PostMetrics> {
  const token = tokenOf(account);
  const author = authorOf(account);
  const counts = isOrganization(author)
    ? await organizationCounts(api, token, author, post)
    : await memberCounts(api, token, post);
  return withEngagement(counts);
}

export async function comments(
  api: LinkedInApi,
  account: AccountAuth,
  post: string,
): Promise<PlatformComment[]> {
  const token = tokenOf(account);
  const found = await unlessDenied(() => listComments(api, token, post), []);
  return found.map((c) => toPlatformComment(post, c)).filter((c): c is PlatformComment => c !== null);
}
