// Reading X's posts (docs.x.com › X API › Posts): a post as X's Post object with the `tweet.fields` and
// `expansions` asked for (its `public_metrics`, its media's keys), the lookup (GET /2/tweets/{id}) that
// insights read, and the recent search of a conversation (GET /2/tweets/search/recent?query=
// conversation_id:{id}) that comments read, where the emulator's made-up comments appear as other users'
// replies; the account's posts and X's paging, which the timeline (publish.ts) shares.

import { type Emulated, type LedgerPost, refuse } from "../emulator";
import { sandboxPlatformId } from "../shapes";
import { notFoundError } from "./errors";
import { MEDIA_KIND, mediaOf, mediaTypeOf } from "./media";
import { shownText } from "./rules";

/** What a post's stored request (its POST /2/tweets body) says that its Post object shows. */
type StoredRequest = { reply_settings?: string; quote_tweet_id?: string; media?: { media_ids?: string[] } };

const textOf = (post: LedgerPost) => post.text[0] ?? "";

/** Every post the account wrote (top-level and replies, its threads' items), newest first. */
export async function postsOf(x: Emulated, handle: string, limit: number): Promise<LedgerPost[]> {
  const found: LedgerPost[] = [];
  const queue = await x.posts(handle);
  const tops = queue.slice(-limit);
  const seen = new Set<string>();
  const walk = async (post: LedgerPost) => {
    if (seen.has(post.id)) return;
    seen.add(post.id);
    if (post.handle === handle) found.push(post);
    if (post.replies.length === 0) return;
    for (const reply of await x.replies(post.id)) await walk(reply);
  };
  for (const post of tops) await walk(post);
  return found
    .map((post, order) => ({ post, order }))
    .sort((a, b) => b.post.published_at.localeCompare(a.post.published_at) || b.order - a.order)
    .map(({ post }) => post);
}

/** The `tweet.fields` (and `expansions`) a lookup asked for. */
export const listOf = (value: string | undefined) =>
  new Set(
    (value ?? "")
      .split(",")
      .map((field) => field.trim())
      .filter(Boolean),
  );

const TWEET_FIELDS = new Set([
  "article",
  "attachments",
  "author_id",
  "card_uri",
  "community_id",
  "context_annotations",
  "conversation_id",
  "created_at",
  "display_text_range",
  "edit_controls",
  "edit_history_tweet_ids",
  "entities",
  "geo",
  "id",
  "in_reply_to_user_id",
  "lang",
  "media_metadata",
  "non_public_metrics",
  "note_tweet",
  "organic_metrics",
  "possibly_sensitive",
  "promoted_metrics",
  "public_metrics",
  "referenced_tweets",
  "reply_settings",
  "scopes",
  "source",
  "text",
  "withheld",
]);
const PRIVATE_FIELDS = ["non_public_metrics", "organic_metrics", "promoted_metrics"];

/** The expansions X documents for a post (docs.x.com › Fields and expansions). */
const EXPANSIONS = new Set([
  "attachments.poll_ids",
  "attachments.media_keys",
  "author_id",
  "edit_history_tweet_ids",
  "entities.mentions.username",
  "geo.place_id",
  "in_reply_to_user_id",
  "referenced_tweets.id",
  "referenced_tweets.id.author_id",
]);

/** The requested expansions, refused the way X refuses an unknown one. */
export function expansionsOf(query: URLSearchParams): Set<string> {
  const expansions = listOf(query.get("expansions") ?? undefined);
  for (const expansion of expansions)
    if (!EXPANSIONS.has(expansion))
      refuse(
        400,
        "invalid_request",
        `The \`expansions\` query parameter value [${expansion}] is not one of [${[...EXPANSIONS].join(",")}]`,
      );
  return expansions;
}

/** A post's media as X's Media objects name them: the key each upload answered, and its kind. */
async function mediaOfTweet(x: Emulated, post: LedgerPost) {
  const ids = ((post.platform_request ?? {}) as StoredRequest).media?.media_ids ?? [];
  const found = [];
  for (const id of ids) {
    const object = await x.object(id);
    if (object?.kind === MEDIA_KIND) {
      const media = mediaOf(object);
      found.push({ media_key: media.media_key, type: mediaTypeOf(media) });
    }
  }
  return found;
}

/**
 * `includes.media` of an answer asked with `expansions=attachments.media_keys`: the Media object of every
 * key the posts name (the post's `attachments.media_keys` come with the expansion).
 */
export async function mediaIncludes(x: Emulated, posts: LedgerPost[]) {
  const all = (await Promise.all(posts.map((post) => mediaOfTweet(x, post)))).flat();
  return [...new Map(all.map((media) => [media.media_key, media])).values()];
}

/** The requested fields, refused the way X refuses an unknown one. */
export function tweetFields(query: URLSearchParams): Set<string> {
  const fields = listOf(query.get("tweet.fields") ?? undefined);
  for (const field of fields)
    if (!TWEET_FIELDS.has(field))
      refuse(
        400,
        "invalid_request",
        `The \`tweet.fields\` query parameter value [${field}] is not one of [${[...TWEET_FIELDS].join(",")}]`,
      );
  return fields;
}

/** The conversation a post belongs to: the first post of its reply chain. */
async function conversationOf(x: Emulated, post: LedgerPost): Promise<string> {
  let current = post;
  for (let depth = 0; current.parent_id && depth < 50; depth++) {
    const parent = await x.post(current.parent_id);
    if (!parent) return current.parent_id;
    current = parent;
  }
  return current.id;
}

/** A ledger post as X's Post object, with the fields asked for. */
export async function tweetOf(
  x: Emulated,
  post: LedgerPost,
  fields: Set<string>,
  owner: boolean,
  expansions: Set<string> = new Set(),
): Promise<Record<string, unknown>> {
  const request = (post.platform_request ?? {}) as StoredRequest;
  const hasMedia = post.media.length > 0;
  const tweet: Record<string, unknown> = {
    id: post.id,
    text: await shownText(post.id, textOf(post), hasMedia),
    edit_history_tweet_ids: [post.id],
  };
  const authorId = await x.platformId(post.handle);
  if (fields.has("author_id")) tweet.author_id = authorId;
  if (fields.has("created_at")) tweet.created_at = post.published_at;
  if (fields.has("conversation_id")) tweet.conversation_id = await conversationOf(x, post);
  if (fields.has("reply_settings")) tweet.reply_settings = request.reply_settings ?? "everyone";
  if (fields.has("lang")) tweet.lang = "en";
  if (fields.has("possibly_sensitive")) tweet.possibly_sensitive = false;
  if ((fields.has("attachments") || expansions.has("attachments.media_keys")) && hasMedia)
    tweet.attachments = { media_keys: (await mediaOfTweet(x, post)).map((media) => media.media_key) };
  const references = [
    ...(post.parent_id ? [{ type: "replied_to", id: post.parent_id }] : []),
    ...(request.quote_tweet_id ? [{ type: "quoted", id: request.quote_tweet_id }] : []),
  ];
  if (fields.has("referenced_tweets") && references.length > 0) tweet.referenced_tweets = references;
  if (fields.has("in_reply_to_user_id") && post.parent_id) {
    const parent = await x.post(post.parent_id);
    if (parent) tweet.in_reply_to_user_id = await x.platformId(parent.handle);
  }
  const metrics =
    fields.has("public_metrics") || fields.has("non_public_metrics") || fields.has("organic_metrics");
  if (metrics) {
    const m = await x.metrics(post.id);
    const counts = {
      retweet_count: m?.shares ?? 0,
      reply_count: m?.comments ?? 0,
      like_count: m?.likes ?? 0,
      quote_count: m?.quotes ?? 0,
      bookmark_count: m?.saves ?? 0,
      impression_count: m?.impressions ?? 0,
    };
    if (fields.has("public_metrics")) tweet.public_metrics = counts;
    if (owner && fields.has("non_public_metrics"))
      tweet.non_public_metrics = { impression_count: counts.impression_count, user_profile_clicks: 0 };
    if (owner && fields.has("organic_metrics"))
      tweet.organic_metrics = {
        impression_count: counts.impression_count,
        like_count: counts.like_count,
        reply_count: counts.reply_count,
        retweet_count: counts.retweet_count,
        user_profile_clicks: 0,
      };
  }
  return tweet;
}

/** The field errors X adds when someone else's post is asked for with its private metrics. */
const fieldErrors = (fields: Set<string>, id: string) =>
  PRIVATE_FIELDS.filter((field) => fields.has(field)).map((field) => ({
    value: id,
    detail: `Sorry, you are not authorized to access '${field}' on the Tweet with ids: ${id}.`,
    title: "Field Authorization Error",
    resource_type: "tweet",
    parameter: "tweet.fields",
    resource_id: id,
    section: "data",
    field,
    type: "https://api.twitter.com/2/problems/not-authorized-for-field",
  }));

export async function lookupTweet(x: Emulated, id: string, query: URLSearchParams) {
  const caller = await x.caller();
  if (!/^\d{1,19}$/.test(id))
    refuse(400, "invalid_request", `The \`id\` query parameter value [${id}] is not valid`);
  const fields = tweetFields(query);
  const expansions = expansionsOf(query);
  const post = await x.post(id);
  if (!post) return { errors: [notFoundError("tweet", id)] };
  const owner = post.handle === caller.handle;
  const data = await tweetOf(x, post, fields, owner, expansions);
  const media = expansions.has("attachments.media_keys") ? await mediaIncludes(x, [post]) : [];
  const errors = owner ? [] : fieldErrors(fields, id);
  return {
    data,
    ...(media.length > 0 ? { includes: { media } } : {}),
    ...(errors.length > 0 ? { errors } : {}),
  };
}

/** `max_results` within X's bounds for the endpoint, else its 400. */
export function maxResults(query: URLSearchParams, min: number, max: number, fallback: number): number {
  const raw = query.get("max_results");
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    refuse(
      400,
      "invalid_request",
      `The \`max_results\` query parameter value [${raw}] is not between ${min} and ${max}`,
    );
  return value;
}

/** A page of `all` from the `pagination_token`/`next_token` (an offset, as opaque to the caller as X's). */
export function page<T>(all: T[], token: string | null, size: number) {
  const offset = token === null ? 0 : Number.parseInt(token, 36);
  if (token !== null && (!/^[0-9a-z]{1,10}$/.test(token) || !Number.isSafeInteger(offset)))
    refuse(400, "invalid_request", `The pagination token [${token}] is not valid`);
  const items = all.slice(offset, offset + size);
  const next = offset + size < all.length ? (offset + size).toString(36) : undefined;
  return { items, next };
}

export const meta = (data: Array<Record<string, unknown>>, next: string | undefined, tokenName: string) => ({
  result_count: data.length,
  ...(data.length > 0 ? { newest_id: data[0]!.id, oldest_id: data[data.length - 1]!.id } : {}),
  ...(next ? { [tokenName]: next } : {}),
});

const RECENT_MS = 7 * 24 * 3_600_000;

/** The operators of a recent search the emulator understands: `conversation_id:` and `from:`. */
function readQuery(query: string) {
  const terms = query.trim().split(/\s+/);
  let conversation: string | undefined;
  let from: string | undefined;
  for (const term of terms) {
    const match = /^(conversation_id|from):(\S+)$/.exec(term);
    if (match?.[1] === "conversation_id" && /^\d{1,19}$/.test(match[2]!)) conversation = match[2];
    else if (match?.[1] === "from" && /^\w{1,15}$/.test(match[2]!)) from = match[2];
    else if (term !== "-is:retweet")
      refuse(
        400,
        "invalid_request",
        `There were errors processing your request: the sandbox's X emulator does not support the query term [${term}]`,
      );
  }
  return { conversation, from };
}

export async function searchRecent(x: Emulated, query: URLSearchParams) {
  await x.caller();
  const q = query.get("query") ?? "";
  if (q.trim() === "" || q.length > 512)
    refuse(400, "invalid_request", "The `query` query parameter value must be between 1 and 512 characters.");
  const { conversation, from } = readQuery(q);
  const fields = tweetFields(query);
  const size = maxResults(query, 10, 100, 10);
  const expansions = listOf(query.get("expansions") ?? undefined);
  if (!conversation) {
    // `from:<username>` alone: that user's posts of the last 7 days.
    const since = new Date(Date.now() - RECENT_MS).toISOString();
    const posts = from ? (await postsOf(x, from, 800)).filter((post) => post.published_at >= since) : [];
    const { items, next } = page(posts, query.get("next_token") ?? query.get("pagination_token"), size);
    if (items.length === 0) return { meta: { result_count: 0 } };
    const data = await Promise.all(items.map((post) => tweetOf(x, post, fields, false)));
    const author = { id: await x.platformId(from!), name: from!, username: from! };
    return {
      data,
      ...(expansions.has("author_id") ? { includes: { users: [author] } } : {}),
      meta: meta(data, next, "next_token"),
    };
  }
  const root = await x.post(conversation);
  const tweets: Array<{
    at: string;
    tweet: Record<string, unknown>;
    author: { id: string; name: string; username: string };
  }> = [];
  const since = new Date(Date.now() - RECENT_MS).toISOString();
  if (root) {
    const walk = async (post: LedgerPost, depth: number) => {
      if (post.published_at >= since && (!from || from === post.handle)) {
        const tweet = await tweetOf(x, post, fields, false);
        const id = await x.platformId(post.handle);
        tweets.push({
          at: post.published_at,
          tweet,
          author: { id, name: post.handle, username: post.handle },
        });
      }
      if (depth > 50 || post.replies.length === 0) return;
      for (const reply of await x.replies(post.id)) await walk(reply, depth + 1);
    };
    await walk(root, 0);
    const comments = (await x.comments(root.id)) ?? [];
    for (const comment of comments) {
      const at = new Date(comment.created_at).toISOString();
      if (at < since || (from && from !== comment.author.username)) continue;
      const authorId = await sandboxPlatformId("twitter", comment.author.username);
      // A follower's reply to a comment answers that comment and its author, else the root post's.
      const parent = comments.find((other) => other.id === comment.parent_id);
      const answered = parent ? parent.id : root.id;
      const answeredAuthor = parent
        ? await sandboxPlatformId("twitter", parent.author.username)
        : await x.platformId(root.handle);
      const tweet: Record<string, unknown> = {
        id: comment.id,
        text: comment.text,
        edit_history_tweet_ids: [comment.id],
      };
      if (fields.has("author_id")) tweet.author_id = authorId;
      if (fields.has("created_at")) tweet.created_at = at;
      if (fields.has("conversation_id")) tweet.conversation_id = root.id;
      if (fields.has("referenced_tweets")) tweet.referenced_tweets = [{ type: "replied_to", id: answered }];
      if (fields.has("in_reply_to_user_id")) tweet.in_reply_to_user_id = answeredAuthor;
      tweets.push({ at, tweet, author: { id: authorId, ...comment.author } });
    }
  }
  tweets.sort((a, b) => b.at.localeCompare(a.at));
  const { items, next } = page(tweets, query.get("next_token") ?? query.get("pagination_token"), size);
  if (items.length === 0) return { meta: { result_count: 0 } };
  const data = items.map((item) => item.tweet);
  const users = [...new Map(items.map((item) => [item.author.id, item.author])).values()];
  return {
    data,
    ...(expansions.has("author_id") ? { includes: { users } } : {}),
    meta: meta(data, next, "next_token"),
  };
}
