// Publishing on X: a post through POST /2/tweets, a thread as a reply chain (each item replies to the one
// before), the row's X settings mapped onto the request body, and the auto-plug's reply. Every media file
// of the thread is uploaded before the first post is created, so a media failure never leaves half a
// thread behind.
import type { z } from "zod";
import {
  type AccountAuth,
  type DraftItem,
  PlatformError,
  type PublishDraft,
  type PublishedPost,
} from "../types";
import { LABEL, type XApi } from "./api";
import { type Sleep, uploadMedia } from "./media";
import { createdPost } from "./schemas";
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
 * Once the first post exists, a later item's failure must not lead to the thread being published again:
 * the outcome is reported unknown, so the engine reconciles with `find`, which finds the first post.
 */
function threadIncomplete(error: unknown, root: string, index: number, count: number): PlatformError {
  const reason = error instanceof Error ? error.message : String(error);
  return new PlatformError(
    `${LABEL} publish: the thread's first post (${root}) is published, but item ${index + 1} of ${count} failed: ${reason}`,
    { kind: "unknown_outcome", code: "thread_incomplete" },
  );
}

export async function publishPost(
  api: XApi,
  account: AccountAuth,
  draft: PublishDraft,
  sleep: Sleep,
): Promise<PublishedPost> {
  const settings = settingsOf(draft.settings);
  const items = draft.items;
  if (items.length === 0) {
    throw new PlatformError(`${LABEL} publish: the post has no content`, {
      kind: "permanent",
      code: "empty_post",
    });
  }
  // The platform's check (src/platforms/twitter/rules.ts) refused, before this call, a poll beside media
  // and media X would refuse after the upload: more than four, a video or GIF beside others, over its size.
  const mediaIds: string[][] = [];
  for (const item of items) {
    const ids: string[] = [];
    for (const media of item.media) ids.push(await uploadMedia(api, account, media, sleep));
    mediaIds.push(ids);
  }

  let root: string | undefined;
  let previous: string | undefined;
  for (const [index, item] of items.entries()) {
    const text = index === 0 ? firstText(items, settings) : item.text;
    const body = postBody(text, mediaIds[index] ?? [], index, previous, settings);
    const what = items.length > 1 ? `${LABEL} publish (item ${index + 1})` : `${LABEL} publish`;
    try {
      previous = await createPost(api, account, what, body);
    } catch (error) {
      if (root === undefined) throw error;
      throw threadIncomplete(error, root, index, items.length);
    }
    root ??= previous;
  }
  return api.publishedAs(account, root!);
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
