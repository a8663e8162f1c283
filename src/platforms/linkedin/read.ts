// Reads of a published LinkedIn post: its comments (socialActions/{post URN}/comments, the newest, a
// page at a time) and its metrics. LinkedIn names a comment's author only by URN (names need profile
// permissions the Community Management API does not grant), so authors are shown as "LinkedIn member" or
// "LinkedIn organization", with the URN as the contact's username.
//
// Metrics of organization posts: likes (all reaction types) and comments from socialMetadata, impressions and reshares from organizationalEntityShareStatistics (lifetime,
// organic). Member posts: impressions, reactions, comments and reshares from
// memberCreatorPostAnalytics (r_member_postAnalytics), whose query types count no saves. LinkedIn has no
// quotes and reports no saves. A member post's analytics without that permission (LINKEDIN_MEMBER_ANALYTICS
// unset) or refused (403) are unavailable: null, so the row keeps what it stored. An organization
// statistic refused with 403 (a page role that may not read statistics) counts as 0; comments refused, none.

import { withEngagement } from "../metrics";
import type { AccountAuth, PlatformComment, PostMetrics } from "../types";
import { authorOf, isAccessDenied, isOrganization, type LinkedInApi, restli, tokenOf } from "./api";
import {
  commentsPage,
  expect,
  type LinkedInComment,
  memberAnalytics,
  shareStatistics,
  socialMetadata,
} from "./schemas";

/** Comments read per page, and at most in all (the newest). */
const PAGE = 50;
export const COMMENTS_MAX = 100;

export const commentsUrl = (api: LinkedInApi, postUrn: string) =>
  `${api.rest}/socialActions/${restli(postUrn)}/comments`;

/** The comment's URN: LinkedIn's `commentUrn`, else one built from the post and the comment id. */
export function commentUrnOf(postUrn: string, found: LinkedInComment, header?: string | null) {
  if (found.commentUrn) return found.commentUrn;
  if (found.$URN) return found.$URN;
  if (header?.startsWith("urn:li:comment:")) return header;
  const id = found.id ?? header;
  return id ? `urn:li:comment:(${postUrn},${id})` : null;
}

/**
 * The post's newest comments (or, for a comment's URN, the answers to it), a page at a time, up to
 * `max`.
 */
export async function listComments(api: LinkedInApi, token: string, postUrn: string, max = COMMENTS_MAX) {
  const found: LinkedInComment[] = [];
  for (let start = 0; found.length < max; start += PAGE) {
    const url = `${commentsUrl(api, postUrn)}?start=${start}&count=${PAGE}`;
    const page = expect(commentsPage, await api.get("comments", url, token), "comments", "transient");
    found.push(...page.elements);
    const total = page.paging?.total;
    if (page.elements.length < PAGE || (total !== undefined && start + PAGE >= total)) break;
  }
  return found.slice(0, max);
}

const profileUrl = (actor: string) => {
  const organization = /^urn:li:organization:(\d+)$/.exec(actor)?.[1];
  return organization ? `https://www.linkedin.com/company/${organization}/` : null;
};

/** Whether a comment's actor is the account: its id is stored as its URN, a bare id names either kind. */
const isActor = (actor: string, accountId: string) =>
  actor === accountId ||
  actor === `urn:li:person:${accountId}` ||
  actor === `urn:li:organization:${accountId}`;

/**
 * A comment as stored: its URN, the comment it answers (`parentComment`), whether the account wrote it
 * (its actor is the member's or the organization's URN of `accountId`), its page (`pageOf`: the post's,
 * scrolled to it, as the auto-plug's). LinkedIn reports no hidden state.
 */
export function toPlatformComment(
  postUrn: string,
  found: LinkedInComment,
  accountId: string | null = null,
  pageOf: ((commentUrn: string) => string) | null = null,
): PlatformComment | null {
  const id = commentUrnOf(postUrn, found);
  if (!id) return null;
  const name = found.actor.startsWith("urn:li:organization:") ? "LinkedIn organization" : "LinkedIn member";
  return {
    id,
    content: found.message.text,
    author_name: name,
    created_at: new Date(found.created?.time ?? 0),
    contact: found.actor ? { name, username: found.actor, profile_url: profileUrl(found.actor) } : null,
    parent_id: found.parentComment ?? null,
    url: pageOf ? pageOf(id) : null,
    is_own: accountId !== null && isActor(found.actor, accountId),
  };
}

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

/** A member post's numbers; null when LinkedIn refuses any of them (403): unavailable, not 0. */
async function memberCounts(api: LinkedInApi, token: string, post: string): Promise<Counts | null> {
  const metric = async (queryType: string) => {
    const url =
      `${api.rest}/memberCreatorPostAnalytics?q=entity&entity=${entityOf(post)}` +
      `&queryType=${queryType}&aggregation=TOTAL`;
    const body = await api.get(`post analytics (${queryType})`, url, token);
    const answer = expect(memberAnalytics, body, "post analytics", "transient");
    return answer.elements.reduce((sum, e) => sum + e.count, 0);
  };
  // LinkedIn's query types are IMPRESSION, MEMBERS_REACHED, RESHARE, REACTION and COMMENT: it counts
  // no saves (a POST_SAVE is refused as a bad request).
  const counts = await unlessDenied(
    () => Promise.all(["IMPRESSION", "REACTION", "COMMENT", "RESHARE"].map(metric)),
    null,
  );
  if (!counts) return null;
  const [impressions = 0, likes = 0, comments = 0, shares = 0] = counts;
  return { ...ZERO, impressions, likes, comments, shares };
}

/**
 * The post's metrics. A member post's need r_member_postAnalytics (`memberAnalytics`: the app was
 * granted it); without it they are unavailable (null) and nothing is asked.
 */
export async function insights(
  api: LinkedInApi,
  account: AccountAuth,
  post: string,
  memberAnalytics: boolean,
): Promise<PostMetrics | null> {
  const token = tokenOf(account);
  const author = authorOf(account);
  if (isOrganization(author)) return withEngagement(await organizationCounts(api, token, author, post));
  if (!memberAnalytics) return null;
  const counts = await memberCounts(api, token, post);
  return counts ? withEngagement(counts) : null;
}

export async function comments(
  api: LinkedInApi,
  account: AccountAuth,
  post: string,
): Promise<PlatformComment[]> {
  const token = tokenOf(account);
  const top = await unlessDenied(() => listComments(api, token, post), []);
  // The answers to a comment are its own collection: read only for the comments that have some.
  const found: LinkedInComment[] = [];
  for (const comment of top) {
    if (found.length >= COMMENTS_MAX) break;
    found.push(comment);
    const urn = commentUrnOf(post, comment);
    if (!urn || (comment.commentsSummary?.totalFirstLevelComments ?? 0) === 0) continue;
    const left = COMMENTS_MAX - found.length;
    if (left > 0) found.push(...(await unlessDenied(() => listComments(api, token, urn, left), [])));
  }
  return found
    .map((c) => toPlatformComment(post, c, account.platformUserId, (urn) => api.commentUrl(post, urn)))
    .filter((c): c is PlatformComment => c !== null);
}
