// Reading from X: `find` (X keeps no hidden field with a post, so an earlier attempt is recognised by
// its text among the account's latest posts), a post's public metrics, and the replies in its
// conversation as comments (recent search: the last 7 days only).
import { withEngagement } from "../metrics";
import {
  type AccountAuth,
  type FindLookup,
  type PlatformComment,
  PlatformError,
  type PostMetrics,
  type PublishedPost,
} from "../types";
import { LABEL, type XApi } from "./api";
import { withoutLinks } from "./rules";
import { postMetrics, searchPage, timeline, type XPost } from "./schemas";

/** How many of the account's latest posts `find` looks through (X's maximum page is 100). */
export const FIND_WINDOW = 50;
/** At most this many comments are kept per post, newest first, from at most MAX_COMMENT_PAGES pages. */
export const MAX_COMMENTS = 100;
export const MAX_COMMENT_PAGES = 5;

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };

/**
 * Text as compared by `find`: X shortens every link to a t.co link (and appends one for attached media),
 * so links are left out; whitespace is collapsed and Unicode normalised.
 */
export const comparable = (text: string) => withoutLinks(text).normalize("NFC").replace(/\s+/g, " ").trim();

/** A post's text as X renders it, back to what was sent: X escapes &, < and > in `text`. */
const sentText = (post: XPost) =>
  (post.note_tweet?.text ?? post.text).replace(/&(?:amp|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);

const repliesTo = (post: XPost, id: string) =>
  post.referenced_tweets?.some((ref) => ref.type === "replied_to" && ref.id === id) ?? false;

function postId(id: string): string {
  // Goes into a URL path and a search query: only X's decimal ids.
  if (/^\d{1,19}$/.test(id)) return id;
  throw new PlatformError(`${LABEL}: "${id.slice(0, 40)}" is not an X post id`, {
    kind: "permanent",
    code: "invalid_post_id",
  });
}

/**
 * The account's post that an earlier attempt created: among its latest posts (replies to `replyTo` only,
 * when set), the one showing the recorded `mediaKeys` (a media key is its uploader's and attached once;
 * X names a post's media in `attachments.media_keys` with `expansions=attachments.media_keys`), else the
 * one whose text is the text sent as X shows it. A post of media alone with no recorded key has nothing
 * to recognise it by: null.
 */
export async function findPost(
  api: XApi,
  account: AccountAuth,
  lookup: FindLookup,
  mediaKeys: string[] = [],
): Promise<PublishedPost | null> {
  // `settings.text` replaces the first item's text when it is set (publish.ts).
  const replaced = lookup.settings?.text;
  const wanted = comparable(typeof replaced === "string" && replaced !== "" ? replaced : lookup.text);
  if (wanted === "" && mediaKeys.length === 0) return null;
  if (!account.platformUserId) {
    throw new PlatformError(`${LABEL} find: the account has no X user id; reconnect it.`, {
      kind: "permanent",
      code: "account_incomplete",
    });
  }
  const replyTo = lookup.replyTo === undefined ? undefined : postId(lookup.replyTo);
  const query = new URLSearchParams({
    max_results: String(FIND_WINDOW),
    exclude: "retweets",
    "tweet.fields": `referenced_tweets,note_tweet${mediaKeys.length > 0 ? ",attachments" : ""}`,
  });
  if (mediaKeys.length > 0) query.set("expansions", "attachments.media_keys");
  const url = api.url(`/users/${encodeURIComponent(account.platformUserId)}/tweets`, query);
  const { data = [] } = await api.get(account, `${LABEL} find`, url, timeline);
  const sameMedia = (post: XPost) =>
    post.attachments?.media_keys?.some((key) => mediaKeys.includes(key)) ?? false;
  const hit = data.find(
    (post) =>
      (replyTo === undefined || repliesTo(post, replyTo)) &&
      (mediaKeys.length > 0 ? sameMedia(post) : comparable(sentText(post)) === wanted),
  );
  return hit ? api.publishedAs(account, hit.id) : null;
}

export async function postInsights(
  api: XApi,
  account: AccountAuth,
  platformPostId: string,
): Promise<PostMetrics> {
  const url = api.url(`/tweets/${postId(platformPostId)}`, { "tweet.fields": "public_metrics" });
  const metrics = (await api.get(account, `${LABEL} insights`, url, postMetrics)).data.public_metrics;
  const likes = metrics.like_count;
  const comments = metrics.reply_count;
  const shares = metrics.retweet_count;
  const quotes = metrics.quote_count;
  const saves = metrics.bookmark_count ?? 0;
  const impressions = metrics.impression_count ?? 0;
  return withEngagement({ comments, likes, shares, impressions, quotes, saves });
}

/**
 * The replies in the post's conversation, newest first, by anyone but the account itself (its thread
 * items and its auto-plug are not comments).
 */
export async function postComments(
  api: XApi,
  account: AccountAuth,
  platformPostId: string,
  now: () => number,
): Promise<PlatformComment[]> {
  const id = postId(platformPostId);
  const found: PlatformComment[] = [];
  let next: string | undefined;
  for (let page = 0; page < MAX_COMMENT_PAGES && found.length < MAX_COMMENTS; page++) {
    const query = new URLSearchParams({
      query: `conversation_id:${id}`,
      max_results: "100",
      expansions: "author_id",
      "tweet.fields": "author_id,created_at",
      "user.fields": "username,name",
    });
    if (next) query.set("next_token", next);
    const answer = await api.get(
      account,
      `${LABEL} comments`,
      api.url("/tweets/search/recent", query),
      searchPage,
    );
    const users = new Map((answer.includes?.users ?? []).map((user) => [user.id, user]));
    for (const post of answer.data ?? []) {
      if (post.id === id || post.author_id === account.platformUserId || found.length >= MAX_COMMENTS)
        continue;
      const author = post.author_id ? users.get(post.author_id) : undefined;
      const created = post.created_at ? new Date(post.created_at) : new Date(Number.NaN);
      found.push({
        id: post.id,
        content: sentText(post),
        author_name: author?.name || author?.username || "",
        created_at: Number.isNaN(created.getTime()) ? new Date(now()) : created,
        contact: author
          ? {
              name: author.name || author.username,
              username: author.username,
              profile_url: `https://x.com/${encodeURIComponent(author.username)}`,
            }
          : null,
      });
    }
    next = answer.meta?.next_token;
    if (!next) break;
  }
  return found;
}
