// Publishing on Threads: each post is a media container (POST /{user-id}/threads) published with
// POST /{user-id}/threads_publish. Media is pulled by Threads from our signed URLs; image, video and
// carousel containers are polled until FINISHED before publishing (media.ts).
// A thread is a chain: each next item is its own post with reply_to_id = the item before.
// Also `find`: what earlier attempts recorded, else the post by its text (Threads keeps no hidden field).
// developers.facebook.com › Threads › Posts; Reply Management; Troubleshooting (container status).
import { progressOf } from "../progress";
import type {
  AccountAuth,
  DraftItem,
  FindLookup,
  Progress,
  PublishDraft,
  PublishedPost,
  PublishingContext,
} from "../types";
import { PlatformError } from "../types";
import { PROFILE, type ThreadsApi, userPath } from "./api";
import { containerState, createContainer, DeadContainer, mediaFields, whenReady } from "./media";
import { created, mediaLink, postList } from "./schemas";

/** How far before a container was made a post's timestamp may read (clocks differ). */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * What a publication records under PROGRESS_KEY (types.ts `Progress`), per item of the thread: its
 * containers as soon as each is made (a carousel's children, then the container published), when the
 * first was made, how many times a dead set was replaced, and the post once threads_publish answered.
 * `total` is the thread's length; `stopped` says a later item failed for good (the thread stays as far
 * as it got).
 */
export type ItemProgress = {
  children?: string[];
  container?: string;
  at?: number;
  replaced?: number;
  post?: string;
};
export type ThreadsProgress = { total?: number; stopped?: boolean; items?: ItemProgress[] };
export const PROGRESS_KEY = "threads";

export const recorded = (progress: Progress | undefined): ThreadsProgress => {
  const value = progress?.get(PROGRESS_KEY);
  return typeof value === "object" && value !== null ? (value as ThreadsProgress) : {};
};

/** The post's fields every container of an item carries. */
type PostFields = { replyControl?: string; topicTag?: string; replyTo?: string };

/**
 * Once a post is out, a failure must not make the engine publish again: an `auth` failure would rerun
 * the whole publish after a token refresh, so it becomes an unknown outcome, reconciled with `find`.
 */
export function afterPublished(error: unknown): unknown {
  if (!(error instanceof PlatformError) || error.kind !== "auth") return error;
  return new PlatformError(error.message, { kind: "unknown_outcome", code: error.code });
}

/**
 * A thread whose first post is out but a later item failed: an unknown outcome, so that `find`
 * recognises the first post and the row is published with it (the items after the failure are not).
 */
function threadIncomplete(error: unknown): unknown {
  if (!(error instanceof PlatformError)) return error;
  return new PlatformError(
    `The thread's first post is published, but a later item failed: ${error.message}`,
    {
      kind: "unknown_outcome",
      code: "thread_incomplete",
    },
  );
}

export function threadsPublisher(api: ThreadsApi, context: Pick<PublishingContext, "sleep" | "now">) {
  const create = (account: AccountAuth, fields: Record<string, string>) =>
    createContainer(api, account, fields);
  const status = (containerId: string) => containerState(api, containerId);
  const ready = (containerId: string, deadline?: number) => whenReady(api, context, containerId, deadline);

  /**
   * The post a PUBLISHED container became (its threads_publish answer was lost; the container gives no
   * post id): among the replies to `replyTo`, or the account's latest threads, by its text, else the
   * newest of the account's made since the container was.
   */
  async function publishedPost(account: AccountAuth, text: string, replyTo: string | undefined, at = 0) {
    const fields = "id,text,timestamp,username,is_reply_owned_by_me";
    const list = replyTo
      ? await api.get("find reply", `${encodeURIComponent(replyTo)}/replies`, { fields }, postList)
      : await api.get("find", `${userPath(account)}/threads`, { fields, limit: "25" }, postList);
    const mine = list.data.filter(
      (post) => !replyTo || post.is_reply_owned_by_me === true || post.username === account.handle,
    );
    const since = at - CLOCK_SKEW_MS;
    const found =
      mine.find((post) => (post.text ?? "").trim() === text.trim()) ??
      mine.find((post) => post.timestamp !== undefined && parseTime(post.timestamp) >= since);
    if (!found)
      throw new PlatformError("Threads published the post, but it is not listed yet.", {
        kind: "unknown_outcome",
        code: "not_listed",
      });
    return found.id;
  }

  /**
   * Publishes one item (as a reply to `post.replyTo` when given): its post id. Each container is
   * recorded in `entry` (through `record`) the moment Threads answers with its id, and a later attempt
   * resumes them: polls the same containers, publishes the same one, and reconciles a PUBLISHED one
   * rather than publishing again.
   */
  async function publishItem(
    account: AccountAuth,
    item: DraftItem,
    post: PostFields,
    start: ItemProgress,
    record: (entry: ItemProgress) => Promise<void>,
    deadline?: number,
  ): Promise<string> {
    let entry = start;
    const save = async (next: ItemProgress) => {
      entry = next;
      await record(entry);
    };
    const made = new Set<string>();
    const common: Record<string, string> = {};
    if (item.text.trim() !== "") common.text = item.text;
    if (post.replyControl) common.reply_control = post.replyControl;
    if (post.topicTag) common.topic_tag = post.topicTag;
    if (post.replyTo) common.reply_to_id = post.replyTo;
    const [only, ...more] = item.media;
    for (;;) {
      try {
        if (!entry.container && more.length > 0) {
          // Over CAROUSEL_MAX: refused by the platform's check (rules.ts) before any call.
          const children = [...(entry.children ?? [])];
          for (const [index, media] of item.media.entries()) {
            if (index >= children.length) {
              const child = await create(account, { ...mediaFields(media), is_carousel_item: "true" });
              made.add(child);
              children.push(child);
              await save({ ...entry, children: [...children], at: entry.at ?? context.now() });
            }
            await ready(children[index]!, deadline);
          }
        }
        if (!entry.container) {
          const fields = !only
            ? { media_type: "TEXT", ...common }
            : more.length === 0
              ? { ...mediaFields(only), ...common }
              : { media_type: "CAROUSEL", children: (entry.children ?? []).join(","), ...common };
          const id = await create(account, fields);
          made.add(id);
          await save({ ...entry, container: id, at: entry.at ?? context.now() });
        }
        const containerId = entry.container!;
        // A text container just made needs no processing; one an earlier attempt made is asked, as it
        // may be PUBLISHED already.
        const state = !only && made.has(containerId) ? "FINISHED" : await ready(containerId, deadline);
        const id =
          state === "PUBLISHED"
            ? await publishedPost(account, item.text, post.replyTo, entry.at)
            : (
                await api.post(
                  "publish",
                  `${userPath(account)}/threads_publish`,
                  { creation_id: containerId },
                  created,
                )
              ).id;
        await save({ ...entry, post: id });
        return id;
      } catch (error) {
        if (!(error instanceof DeadContainer)) throw error;
        // A dead container is replaced with all of the item's containers: EXPIRED (not published
        // within 24 hours) always; ERROR of a container an earlier attempt made once (a fetch Threads
        // may retry), but an ERROR of one made in this attempt, or of a replacement, is Threads refusing
        // the media for good.
        const replaced = entry.replaced ?? 0;
        // EXPIRED means "not published within 24 hours" (Threads › Troubleshooting): a container made
        // in this attempt cannot be, so replacing it again here could loop without end. The attempt ends
        // with it recorded; the next one finds it EXPIRED as an earlier attempt's and replaces it once.
        if (error.status === "EXPIRED" && made.has(error.id))
          throw new PlatformError(`Threads reported container ${error.id}, just made, as EXPIRED`, {
            kind: "transient",
            code: "container_expired",
          });
        if (error.status === "ERROR" && (made.has(error.id) || replaced >= 1)) {
          await save({ replaced });
          throw new PlatformError(`Threads could not process the media: ${error.detail ?? "UNKNOWN"}`, {
            kind: "permanent",
            code: "media_processing_failed",
          });
        }
        await save({ replaced: error.status === "ERROR" ? replaced + 1 : replaced });
        made.clear();
      }
    }
  }

  /** The post's permalink, else its shortcode's URL, else the profile. */
  async function link(account: AccountAuth, id: string): Promise<PublishedPost> {
    const answer = await api.get(
      "permalink",
      encodeURIComponent(id),
      { fields: "permalink,shortcode" },
      mediaLink,
    );
    const profile = `${PROFILE}${account.handle}`;
    return {
      id,
      url: answer.permalink ?? (answer.shortcode ? `${profile}/post/${answer.shortcode}` : profile),
    };
  }

  return {
    link,
    status,
    publishedPost,

    async publish(account: AccountAuth, draft: PublishDraft): Promise<PublishedPost> {
      const settings = draft.settings;
      const replyControl = typeof settings.reply_control === "string" ? settings.reply_control : undefined;
      const topicTag =
        typeof settings.topic_tag === "string" && settings.topic_tag ? settings.topic_tag : undefined;
      const progress = progressOf(draft);
      let state = recorded(progress);
      const items = [...(state.items ?? [])];
      const record = (index: number) => async (entry: ItemProgress) => {
        items[index] = entry;
        state = { ...state, total: draft.items.length, items: [...items] };
        await progress.set(PROGRESS_KEY, state);
      };
      let root: string | undefined;
      let previous: string | undefined;
      let published = 0;
      try {
        for (const [index, item] of draft.items.entries()) {
          // An item an earlier attempt published is not published again: the thread goes on after it.
          const done = items[index]?.post;
          if (done === undefined) {
            const fields: PostFields = { replyControl };
            // The topic files the post; the thread's replies follow it.
            if (root === undefined && topicTag) fields.topicTag = topicTag;
            if (previous) fields.replyTo = previous;
            previous = await publishItem(
              account,
              item,
              fields,
              items[index] ?? {},
              record(index),
              draft.deadline,
            );
          } else previous = done;
          root ??= previous;
          published++;
        }
        if (!root)
          throw new PlatformError("The post has nothing to publish.", {
            kind: "permanent",
            code: "empty_post",
          });
        return await link(account, root);
      } catch (error) {
        if (root === undefined) throw error;
        if (published >= draft.items.length) throw afterPublished(error);
        // A later item still processing, or a fault that may pass: the next attempt goes on from the
        // last published item (find answers nothing while the thread is incomplete).
        if (!(error instanceof PlatformError) || error.kind !== "permanent") throw error;
        // Refused for good: the thread stays as far as it got, and find answers its first post.
        await progress.set(PROGRESS_KEY, { ...state, stopped: true });
        throw threadIncomplete(error);
      }
    },

    /** A text reply under `postId` (auto-plug). */
    async reply(account: AccountAuth, postId: string, text: string): Promise<PublishedPost> {
      const id = await publishItem(account, { text, media: [] }, { replyTo: postId }, {}, async () => {});
      try {
        return await link(account, id);
      } catch (error) {
        throw afterPublished(error);
      }
    },
  };
}

/** Threads sends "+0000" offsets; Date.parse wants "+00:00". */
const parseTime = (value: string) => {
  const time = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isNaN(time) ? 0 : time;
};

/** How many of the account's latest threads `find` looks through. */
const RECENT = "25";

/** A post's address: its permalink, else the profile (with the post's shortcode where known). */
const urlOf = (
  account: AccountAuth,
  post: { permalink?: string | undefined; shortcode?: string | undefined },
) => post.permalink ?? `${PROFILE}${account.handle}${post.shortcode ? `/post/${post.shortcode}` : ""}`;

/**
 * An earlier attempt's post by its exact text among the account's 25 latest threads, or a reply among
 * the replies to the post it answered: Threads keeps no hidden field for a fingerprint.
 * developers.facebook.com › Threads › Retrieve Posts; Retrieve and Manage Replies.
 */
async function findByText(api: ThreadsApi, account: AccountAuth, lookup: FindLookup) {
  const text = lookup.text.trim();
  const fields = "id,text,permalink,shortcode,username,is_reply_owned_by_me";
  const list = lookup.replyTo
    ? await api.get(
        "find reply",
        `${encodeURIComponent(lookup.replyTo)}/replies`,
        { fields, reverse: "true" },
        postList,
      )
    : await api.get("find", `${userPath(account)}/threads`, { fields, limit: RECENT }, postList);
  const found = list.data.find(
    (post) =>
      (post.text ?? "").trim() === text &&
      // Among replies, only the account's own.
      (!lookup.replyTo || post.is_reply_owned_by_me === true || post.username === account.handle),
  );
  return found ? { id: found.id, url: urlOf(account, found) } : null;
}

/**
 * `find` by what earlier attempts recorded before any text: the thread's first post once published
 * (null while later items are still to publish, so that publish goes on after the last one), else the
 * first item's container, whose PUBLISHED status means its threads_publish answer was lost (its post is
 * then looked up and recorded); any other status is resumed by publish. Nothing recorded: by text.
 */
export async function findOnThreads(
  api: ThreadsApi,
  context: Pick<PublishingContext, "sleep" | "now">,
  account: AccountAuth,
  lookup: FindLookup,
): Promise<PublishedPost | null> {
  const state = lookup.replyTo ? {} : recorded(lookup.progress);
  const items = state.items ?? [];
  if (items.length === 0) return findByText(api, account, lookup);
  const publisher = threadsPublisher(api, context);
  const total = state.total ?? 1;
  const first = items[0] ?? {};
  let root = first.post;
  if (!root) {
    if (!first.container) return null;
    if ((await publisher.status(first.container)).status !== "PUBLISHED") return null;
    root = await publisher.publishedPost(account, lookup.text, undefined, first.at);
    items[0] = { ...first, post: root };
    await lookup.progress?.set(PROGRESS_KEY, { ...state, items });
  }
  const done = items.filter((item) => item?.post).length;
  return done >= total || state.stopped ? publisher.link(account, root) : null;
}
