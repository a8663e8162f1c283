// Publishing on X: a post through POST /2/tweets, a thread as a reply chain (each item replies to the one
// before), the row's X settings mapped onto the request body, and the auto-plug's reply. Every media file
// of the thread is uploaded before the first post is created, so a media failure never leaves half a
// thread behind. What X hands out on the way (media ids, each post's id) is recorded on the row as it
// exists, and a later attempt resumes from it.
import type { z } from "zod";
import { memoryProgress, progressOf } from "../progress";
import {
  type AccountAuth,
  type DraftItem,
  type FindLookup,
  PlatformError,
  type Progress,
  type PublishDraft,
  type PublishedPost,
} from "../types";
import { LABEL, postId, type XApi } from "./api";
import {
  mediaKey,
  processed,
  recordedMediaKeys,
  type UploadContext,
  type Uploaded,
  uploadMedia,
} from "./media";
import { withoutLinks } from "./rules";
import { createdPost, sentText, timeline, type XPost } from "./schemas";
import { settings as settingsSchema } from "./settings";

type Settings = z.output<typeof settingsSchema>;

function settingsOf(raw: Record<string, unknown>): Settings {
  const parsed = settingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new PlatformError(`${LABEL} publish: the row's X settings are not valid`, {
    kind: "permanent",
    code: "invalid_settings",
  });
}

/** The first item's text: the `text` setting replaces it when set (a shorter text for X alone). */
export const firstText = (items: DraftItem[], settings: { text: string | null }) =>
  settings.text?.trim() ? settings.text : (items[0]?.text ?? "");

/**
 * The POST /2/tweets body of item `index`. Who may reply and super-followers-only apply to every post of
 * the thread; the quote, the poll, the community and the post replied to belong to the first.
 */
export function postBody(
  text: string,
  mediaIds: string[],
  index: number,
  previousId: string | undefined,
  settings: Settings,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (text !== "") body.text = text;
  if (mediaIds.length > 0) body.media = { media_ids: mediaIds };
  if (settings.reply_settings !== "everyone") body.reply_settings = settings.reply_settings;
  if (settings.for_super_followers_only) body.for_super_followers_only = true;
  const replyTo = index === 0 ? settings.reply.in_reply_to_tweet_id : previousId;
  if (replyTo) body.reply = { in_reply_to_tweet_id: replyTo };
  if (index > 0) return body;
  if (settings.quote_tweet_id) body.quote_tweet_id = settings.quote_tweet_id;
  if (settings.poll.enabled) {
    body.poll = { options: settings.poll.options, duration_minutes: settings.poll.duration_minutes };
  }
  if (settings.community_id) {
    body.community_id = settings.community_id;
    if (settings.share_with_followers) body.share_with_followers = true;
  }
  return body;
}

const createPost = async (api: XApi, account: AccountAuth, what: string, body: object) =>
  (await api.post(account, what, api.url("/tweets"), body, createdPost)).data.id;

/**
 * What the row keeps of the thread (the publication's progress): `items`, how many posts it has (written
 * before anything is sent, so `find` knows whether a recorded thread is complete); `tweets`, the id of
 * each item's post as it is created, in order; `sending`, the index of the item whose create was sent
 * last (its answer may have been lost).
 */
export const THREAD = {
  items: "items",
  tweets: "tweets",
  sending: "sending",
  reuploaded: "reuploaded",
} as const;

/** The items whose media were uploaded again after X refused their ids (once each: `reuploaded`). */
const reuploadedItems = (progress: Progress): number[] => {
  const value = progress.get(THREAD.reuploaded);
  return Array.isArray(value) ? value.filter((index) => typeof index === "number") : [];
};

/**
 * X's refusal of a post's media ids (`Your media IDs are invalid.`): an id past its expires_after_secs
 * (docs.x.com › FINALIZE: "any attempt to use mediaId after this time period … will result in a Bad
 * Request"), or one X lost. The files are uploaded again, once.
 */
const mediaIdsRefused = (error: unknown) =>
  error instanceof PlatformError &&
  error.kind === "permanent" &&
  /media ?ids? (?:are|is) (?:invalid|expired)|media.{0,40}expired/i.test(error.message);

export const recordedTweets = (progress: Progress): string[] => {
  const value = progress.get(THREAD.tweets);
  return Array.isArray(value) && value.every((id) => typeof id === "string") ? value : [];
};

export type PublishContext = {
  api: XApi;
  now(): number;
  sleep(ms: number): Promise<void>;
  uploadTimeoutMs: number;
};

/**
 * Publishes the post (a thread as a reply chain), resuming what earlier attempts of this publication
 * recorded: the media uploads (media.ts), and the posts of the thread already created — the next item
 * replies to the last recorded one, none is created twice. An item whose create was sent but whose
 * answer was lost is looked for by its text among the replies to the post before it (the first item:
 * the engine's `find` did that on the account's timeline) before it is sent again.
 */
export async function publishPost(
  context: PublishContext,
  account: AccountAuth,
  draft: PublishDraft,
): Promise<PublishedPost> {
  const { api } = context;
  const settings = settingsOf(draft.settings);
  const items = draft.items;
  if (items.length === 0) {
    throw new PlatformError(`${LABEL} publish: the post has no content`, {
      kind: "permanent",
      code: "empty_post",
    });
  }
  // A single post of text alone hands out nothing before its create and has no thread to continue: its
  // lost answer is found by text (`find`), so it costs no write to the row.
  const resumable = items.length > 1 || items.some((item) => item.media.length > 0);
  const progress = resumable ? progressOf(draft) : memoryProgress();
  if (progress.get(THREAD.items) !== items.length) await progress.set(THREAD.items, items.length);
  const tweets = recordedTweets(progress);
  const upload: UploadContext = {
    api,
    account,
    progress,
    now: context.now,
    sleep: context.sleep,
    deadline: draft.deadline,
    uploadTimeoutMs: context.uploadTimeoutMs,
  };
  // The platform's check (src/platforms/twitter/rules.ts) refused, before this call, a poll beside media
  // and media X would refuse after the upload: more than four, a video or GIF beside others, over its size.
  // Every file of the items still to post is uploaded (and finalized) before any is waited on, so X
  // processes them side by side, and before the next post is created.
  const uploads: Array<Array<{ key: string; uploaded: Uploaded }>> = [];
  for (const [index, item] of items.entries()) {
    const done: Array<{ key: string; uploaded: Uploaded }> = [];
    if (index >= tweets.length) {
      for (const [position, media] of item.media.entries()) {
        const key = mediaKey(index, position);
        done.push({ key, uploaded: await uploadMedia(upload, media, key) });
      }
    }
    uploads.push(done);
  }
  for (const item of uploads) for (const { key, uploaded } of item) await processed(upload, key, uploaded);

  const sending = progress.get(THREAD.sending);
  for (let index = tweets.length; index < items.length; index++) {
    const previous = tweets[index - 1];
    const text = index === 0 ? firstText(items, settings) : items[index]!.text;
    // This item's create went out in an earlier attempt and its answer was lost: it may exist.
    if (sending === index && previous !== undefined) {
      const lookup = { fingerprint: draft.fingerprint, text, replyTo: previous };
      const found = await findPost(api, account, lookup, recordedMediaKeys(progress, index));
      if (found) {
        tweets.push(found.id);
        await progress.set(THREAD.tweets, [...tweets]);
        continue;
      }
    }
    const what = items.length > 1 ? `${LABEL} publish (item ${index + 1})` : `${LABEL} publish`;
    await progress.set(THREAD.sending, index);
    for (;;) {
      const mediaIds = (uploads[index] ?? []).map(({ uploaded }) => uploaded.record.id);
      const body = postBody(text, mediaIds, index, previous, settings);
      try {
        tweets.push(await createPost(api, account, what, body));
        break;
      } catch (error) {
        const reuploaded = reuploadedItems(progress);
        if (mediaIds.length > 0 && mediaIdsRefused(error) && !reuploaded.includes(index)) {
          await progress.set(THREAD.reuploaded, [...reuploaded, index]);
          uploads[index] = await uploadAgain(upload, items[index]!, index);
          continue;
        }
        throw tweets.length === 0 ? error : threadIncomplete(error, tweets, index, items.length);
      }
    }
    await progress.set(THREAD.tweets, [...tweets]);
  }
  return api.publishedAs(account, tweets[0]!);
}

/** Forgets item `index`'s uploads and uploads (and waits for) its files again. */
async function uploadAgain(upload: UploadContext, item: DraftItem, index: number) {
  const done: Array<{ key: string; uploaded: Uploaded }> = [];
  for (const [position, media] of item.media.entries()) {
    const key = mediaKey(index, position);
    await upload.progress.set(key, undefined);
    done.push({ key, uploaded: await uploadMedia(upload, media, key) });
  }
  for (const { key, uploaded } of done) await processed(upload, key, uploaded);
  return done;
}

/**
 * A later item failed once the first post exists. A refusal for good fails the publication, naming the
 * posts already on X (they are not deleted); any other failure keeps its kind, and the next attempt
 * continues the thread after the last recorded post.
 */
function threadIncomplete(error: unknown, tweets: string[], index: number, count: number): unknown {
  if (!(error instanceof PlatformError) || error.kind !== "permanent") return error;
  return new PlatformError(
    `${LABEL} publish: the thread's first ${tweets.length} post(s) are published (${tweets.join(", ")}), but item ${index + 1} of ${count} was refused: ${error.message}`,
    { kind: "permanent", code: "thread_incomplete" },
  );
}

/** How many of the account's latest posts `find` looks through (X's maximum page is 100). */
export const FIND_WINDOW = 50;
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

/**
 * Text as compared by `find`: X shortens every link to a t.co link (and appends one for attached media),
 * so links are left out; whitespace is collapsed and Unicode normalised.
 */
export const comparable = (text: string) => withoutLinks(text).normalize("NFC").replace(/\s+/g, " ").trim();

const repliesTo = (post: XPost, id: string) =>
  post.referenced_tweets?.some((ref) => ref.type === "replied_to" && ref.id === id) ?? false;

/**
 * `find` for a publication: by what earlier attempts recorded before any text. A thread whose posts are
 * all recorded is found by its first; one recorded only in part is not "found", so `publish` continues it
 * after its last recorded post. With no post recorded, a create that was never sent (media still
 * uploading or processing) means there is nothing to find; otherwise (the first create was sent and its
 * answer lost, or nothing was recorded at all) the first post is looked for by its text on the account's
 * timeline, and when the thread has more items the post found is recorded so `publish` continues after it.
 */
export async function findPublication(
  api: XApi,
  account: AccountAuth,
  lookup: FindLookup,
): Promise<PublishedPost | null> {
  const progress = lookup.progress;
  if (!progress) return findPost(api, account, lookup);
  const tweets = recordedTweets(progress);
  const count = progress.get(THREAD.items);
  if (tweets.length > 0) {
    return typeof count === "number" && tweets.length < count ? null : api.publishedAs(account, tweets[0]!);
  }
  if (typeof count === "number" && progress.get(THREAD.sending) === undefined) return null;
  const found = await findPost(api, account, lookup, recordedMediaKeys(progress, 0));
  if (found && typeof count === "number" && count > 1) {
    await progress.set(THREAD.tweets, [found.id]);
    return null;
  }
  return found;
}

/** The auto-plug: a reply under the published post. X keeps no fingerprint; `find` matches its text. */
export async function replyTo(
  api: XApi,
  account: AccountAuth,
  platformPostId: string,
  text: string,
): Promise<PublishedPost> {
  const body = { text, reply: { in_reply_to_tweet_id: platformPostId } };
  return api.publishedAs(account, await createPost(api, account, `${LABEL} reply`, body));
}
