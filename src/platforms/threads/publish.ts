// Publishing on Threads: each post is a media container (POST /{user-id}/threads) published with
// POST /{user-id}/threads_publish. Media is pulled by Threads from our signed URLs; image, video and
// carousel containers are polled (GET /{container-id}?fields=status) until FINISHED before publishing.
// A thread is a chain: each next item is its own post with reply_to_id = the item before.
// developers.facebook.com › Threads › Posts; Reply Management; Troubleshooting (container status).
import type { AccountAuth, DraftItem, DraftMedia, PublishDraft, PublishedPost } from "../types";
import { PlatformError } from "../types";
import { PROFILE, type ThreadsApi, userPath } from "./api";
import { containerStatus, created, mediaLink } from "./schemas";

/** How long a container may process: `attempts` status checks, `delayMs` apart. */
export type Pacing = { attempts: number; delayMs: number };
/** Up to a minute: images are ready in seconds, short videos in well under a minute. */
export const DEFAULT_PACING: Pacing = { attempts: 20, delayMs: 3_000 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The post's fields every container of an item carries. */
type PostFields = { replyControl?: string; topicTag?: string; replyTo?: string };

const mediaFields = (media: DraftMedia): Record<string, string> =>
  media.kind === "video"
    ? { media_type: "VIDEO", video_url: media.url }
    : { media_type: "IMAGE", image_url: media.url };

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

export function threadsPublisher(api: ThreadsApi, pacing: Pacing) {
  const create = async (account: AccountAuth, fields: Record<string, string>) =>
    (await api.post("container", `${userPath(account)}/threads`, fields, created)).id;

  /** Polls a media container until Threads has fetched and processed its media. */
  async function ready(containerId: string): Promise<void> {
    for (let attempt = 0; attempt < pacing.attempts; attempt++) {
      if (attempt > 0) await sleep(pacing.delayMs);
      const { status, error_message } = await api.get(
        "container status",
        encodeURIComponent(containerId),
        { fields: "status,error_message" },
        containerStatus,
      );
      if (status === "FINISHED") return;
      if (status === "ERROR")
        throw new PlatformError(`Threads could not process the media: ${error_message ?? "UNKNOWN"}`, {
          kind: "permanent",
          code: "media_processing_failed",
        });
      if (status === "EXPIRED")
        throw new PlatformError("Threads let the media container expire.", {
          kind: "transient",
          code: "container_expired",
        });
    }
    // Nothing of this item is public yet: it can be tried again (publish() handles a thread under way).
    throw new PlatformError("Threads was still processing the media; the attempt gave up waiting.", {
      kind: "transient",
      code: "processing_timeout",
    });
  }

  /** The item's container: text, one image or video, or a carousel of up to 20. */
  async function container(account: AccountAuth, item: DraftItem, post: PostFields): Promise<string> {
    const common: Record<string, string> = {};
    if (item.text.trim() !== "") common.text = item.text;
    if (post.replyControl) common.reply_control = post.replyControl;
    if (post.topicTag) common.topic_tag = post.topicTag;
    if (post.replyTo) common.reply_to_id = post.replyTo;
    const [only, ...more] = item.media;
    if (!only) return create(account, { media_type: "TEXT", ...common });
    if (more.length === 0) {
      const id = await create(account, { ...mediaFields(only), ...common });
      await ready(id);
      return id;
    }
    // Over CAROUSEL_MAX: refused by the platform's check (src/platforms/threads/rules.ts) before any call.
    const children: string[] = [];
    for (const media of item.media) {
      const child = await create(account, { ...mediaFields(media), is_carousel_item: "true" });
      await ready(child);
      children.push(child);
    }
    const id = await create(account, { media_type: "CAROUSEL", children: children.join(","), ...common });
    await ready(id);
    return id;
  }

  /** Publishes one item (as a reply to `replyTo` when given); its post id. */
  async function publishItem(account: AccountAuth, item: DraftItem, post: PostFields) {
    const creationId = await container(account, item, post);
    return (
      await api.post("publish", `${userPath(account)}/threads_publish`, { creation_id: creationId }, created)
    ).id;
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
    async publish(account: AccountAuth, draft: PublishDraft): Promise<PublishedPost> {
      const settings = draft.settings;
      const replyControl = typeof settings.reply_control === "string" ? settings.reply_control : undefined;
      const topicTag =
        typeof settings.topic_tag === "string" && settings.topic_tag ? settings.topic_tag : undefined;
      let root: string | undefined;
      let previous: string | undefined;
      let published = 0;
      try {
        for (const item of draft.items) {
          const fields: PostFields = { replyControl };
          // The topic files the post; the thread's replies follow it.
          if (root === undefined && topicTag) fields.topicTag = topicTag;
          if (previous) fields.replyTo = previous;
          previous = await publishItem(account, item, fields);
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
        throw published < draft.items.length ? threadIncomplete(error) : afterPublished(error);
      }
    },

    /** A text reply under `postId` (auto-plug). */
    async reply(account: AccountAuth, postId: string, text: string): Promise<PublishedPost> {
      const id = await publishItem(account, { text, media: [] }, { replyTo: postId });
      try {
        return await link(account, id);
      } catch (error) {
        throw afterPublished(error);
      }
    },
  };
}
