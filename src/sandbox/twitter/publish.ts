// X's publishing endpoints (docs.x.com › X API › Posts): create (POST /2/tweets, validated as X validates
// it: 280 weighted characters, up to four media ids of the caller's, a poll apart from media, duplicate
// content refused) and the user's timeline that `find` reads (GET /2/users/{id}/tweets, newest first,
// replies included unless excluded, media keys with expansions=attachments.media_keys).
import { z } from "zod";
import { type Caller, type Emulated, lostAnswer, refuse } from "../emulator";
import { notFoundError } from "./errors";
import { attachable, ownMedia } from "./media";
import {
  expansionsOf,
  listOf,
  maxResults,
  mediaIncludes,
  meta,
  page,
  postsOf,
  tweetFields,
  tweetOf,
} from "./read";
import { shownText, snowflake, WEIGHTED_LIMIT, weightedLength } from "./rules";

const xId = z.string().regex(/^\d{1,19}$/, "must be a numeric id of up to 19 digits");

/** The POST /2/tweets body as X documents it (unknown fields refused). */
export const createBody = z
  .object({
    text: z.string().max(25_000).optional(),
    media: z
      .object({
        media_ids: z.array(xId).min(1).max(4),
        tagged_user_ids: z.array(xId).max(10).optional(),
      })
      .strict()
      .optional(),
    reply: z
      .object({ in_reply_to_tweet_id: xId, exclude_reply_user_ids: z.array(xId).optional() })
      .strict()
      .optional(),
    quote_tweet_id: xId.optional(),
    poll: z
      .object({
        options: z.array(z.string().min(1).max(25)).min(2).max(4),
        duration_minutes: z.number().int().min(5).max(10_080),
        reply_settings: z.enum(["following", "mentionedUsers", "subscribers", "verified"]).optional(),
      })
      .strict()
      .optional(),
    reply_settings: z.enum(["following", "mentionedUsers", "subscribers", "verified"]).optional(),
    for_super_followers_only: z.boolean().optional(),
    community_id: xId.optional(),
    share_with_followers: z.boolean().optional(),
    direct_message_deep_link: z.string().max(1000).optional(),
    nullcast: z.boolean().optional(),
    made_with_ai: z.boolean().optional(),
    paid_partnership: z.boolean().optional(),
    geo: z
      .object({ place_id: z.string().max(100) })
      .strict()
      .optional(),
  })
  .strict();
type CreateBody = z.infer<typeof createBody>;

/** The body checked against `schema`, refused the way X refuses a parameter (`$.field: why`). */
export async function readX<T>(x: Emulated, schema: z.ZodType<T>): Promise<T> {
  const value = await x.json(z.unknown());
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = ["$", ...issue.path.map(String)].join(".");
  const why =
    issue.code === "unrecognized_keys"
      ? `${issue.keys.join(", ")} is not defined in the schema and the schema does not allow additional properties`
      : issue.message;
  return refuse(400, "invalid_request", `${path}: ${why}`);
}

const DUPLICATE = "You are not allowed to create a Tweet with duplicate content.";

/** The ledger's item of a post: the text X received and its media as the page shows them. */
async function mediaOfPost(x: Emulated, caller: Caller, body: CreateBody) {
  const ids = body.media?.media_ids ?? [];
  const found = [];
  for (const id of ids) {
    const { object, media } = await ownMedia(x, id, caller.handle, caller.platformId).catch(() =>
      refuse(400, "invalid_request", "Your media IDs are invalid."),
    );
    if (!attachable(object, media)) refuse(400, "invalid_request", "Your media IDs are invalid.");
    found.push(media);
  }
  // Four images, or one video or GIF alone.
  if (found.some((media) => media.category !== "tweet_image") && found.length > 1)
    refuse(400, "invalid_request", "Your media IDs are invalid.");
  if (new Set(ids).size !== ids.length) refuse(400, "invalid_request", "Your media IDs are invalid.");
  return found.map((media) => ({ url: media.url ?? "", type: media.media_type }));
}

async function digest(text: string) {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...bytes.slice(0, 12)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The key that counts attempts at the same post (X keeps no idempotency key: its text and place). */
const attemptKey = (body: CreateBody) =>
  digest(JSON.stringify([body.text ?? "", body.reply?.in_reply_to_tweet_id ?? "", body.media ?? null]));

export async function createTweet(x: Emulated) {
  const caller = await x.caller();
  const body = await readX(x, createBody);
  const text = body.text ?? "";
  if (
    text.trim() === "" &&
    !body.media &&
    !body.poll &&
    !body.quote_tweet_id &&
    !body.direct_message_deep_link
  )
    refuse(400, "invalid_request", "One or more of text, media, poll, quote_tweet_id is required.");
  if (body.poll && (body.media || body.quote_tweet_id))
    refuse(400, "invalid_request", "poll is mutually exclusive from media and quote_tweet_id.");
  if (body.share_with_followers && !body.community_id)
    refuse(400, "invalid_request", "share_with_followers requires community_id.");
  if (weightedLength(text) > WEIGHTED_LIMIT) refuse(403, "forbidden", "Tweet needs to be a bit shorter.");
  const media = await mediaOfPost(x, caller, body);
  const parentId = body.reply?.in_reply_to_tweet_id;
  // A reply answers a post, or a comment in one of its conversations (a follower's reply: the ledger's).
  const answered = parentId && !(await x.post(parentId)) ? await x.comment(parentId) : null;
  if (parentId && answered === null && !(await x.post(parentId)))
    refuse(403, "forbidden", "You attempted to reply to a Tweet that is deleted or not visible to you.");
  if (body.quote_tweet_id && !(await x.post(body.quote_tweet_id)))
    refuse(403, "forbidden", "You attempted to quote a Tweet that is deleted or not visible to you.");

  const outcome = await x.attempt(caller.handle, await attemptKey(body), text);
  // The account's texts are remembered as they are published: the same text a second time is refused.
  if (text.trim() !== "" && (await x.store.countTry(caller.handle, `text:${await digest(text.trim())}`)) > 1)
    refuse(403, "forbidden", DUPLICATE);
  if (answered) {
    const id = await x.addComment({
      postId: answered.post_id,
      parentId: answered.id,
      author: { name: caller.handle, username: caller.handle },
      text,
    });
    if (outcome === "lost") return lostAnswer(201);
    return Response.json({ data: { id, text, edit_history_tweet_ids: [id] } }, { status: 201 });
  }
  const published = await x.publish({
    id: snowflake(x.now()),
    handle: caller.handle,
    items: [{ text, media }],
    platformRequest: body,
    parentId: parentId ?? null,
  });
  if (outcome === "lost") return lostAnswer(201);
  const shown = await shownText(published.id, text, media.length > 0);
  return Response.json(
    { data: { id: published.id, text: shown, edit_history_tweet_ids: [published.id] } },
    {
      status: 201,
    },
  );
}

export async function userTimeline(x: Emulated, userId: string, query: URLSearchParams) {
  const caller = await x.caller();
  if (!/^\d{1,19}$/.test(userId))
    refuse(400, "invalid_request", `The \`id\` query parameter value [${userId}] is not valid`);
  // The emulator knows the handle of the caller's own id only (an id is a digest of the handle).
  if (userId !== caller.platformId) return { errors: [notFoundError("user", userId)] };
  const fields = tweetFields(query);
  const size = maxResults(query, 5, 100, 10);
  const exclude = listOf(query.get("exclude") ?? undefined);
  for (const value of exclude)
    if (value !== "replies" && value !== "retweets")
      refuse(
        400,
        "invalid_request",
        `The \`exclude\` query parameter value [${value}] is not one of [replies,retweets]`,
      );
  let posts = await postsOf(x, caller.handle, 800);
  if (exclude.has("replies")) posts = posts.filter((post) => !post.parent_id);
  const { items, next } = page(posts, query.get("pagination_token"), size);
  const expansions = expansionsOf(query);
  const data = await Promise.all(items.map((post) => tweetOf(x, post, fields, true, expansions)));
  if (data.length === 0) return { meta: { result_count: 0 } };
  const media = expansions.has("attachments.media_keys") ? await mediaIncludes(x, items) : [];
  return { data, ...(media.length > 0 ? { includes: { media } } : {}), meta: meta(data, next, "next_token") };
}
