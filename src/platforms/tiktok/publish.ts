// Direct Post to TikTok: the creator's info first (the docs require it; its privacy options decide
// whether the row's privacy level can be used), then a video (init with FILE_UPLOAD, the chunks PUT
// from R2) or photos (init with PULL_FROM_URL from our signed links), then the post's status polled
// until TikTok gives its public id. A post is one video or up to 35 photos; text alone and threads
// do not exist on TikTok and are refused.
// developers.tiktok.com › Content Posting API › Direct Post; Photo; Get Post Status; Media Transfer.
import {
  type AccountAuth,
  type DraftItem,
  type DraftMedia,
  type Fetch,
  PlatformError,
  type PublishDraft,
  type PublishedPost,
} from "../types";
import type { TiktokApi } from "./api";
import { creatorInfo, photoInit, postStatus, videoInit } from "./schemas";
import { chunkPlan, uploadChunks } from "./upload";

/** How long to wait for the post: `attempts` status checks, `delayMs` apart. */
export type Pacing = { attempts: number; delayMs: number };
/** Up to a minute (the status endpoint allows 30 calls a minute): moderation usually takes under one. */
export const DEFAULT_PACING: Pacing = { attempts: 20, delayMs: 3_000 };

const PHOTO_TITLE_MAX = 90;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const refuse = (message: string, code: string) => new PlatformError(message, { kind: "permanent", code });

/** `text` cut to `max` UTF-16 units (TikTok's unit) without splitting a character. */
function cut(text: string, max: number): string {
  let out = "";
  for (const character of text) {
    if (out.length + character.length > max) break;
    out += character;
  }
  return out;
}

/**
 * The status answer with its post ids quoted: they are int64 numbers that JSON.parse would round.
 * Only the body of a 2xx is rewritten, before call.ts parses it.
 */
export const quotingPostIds =
  (fetcher: Fetch): Fetch =>
  async (input, init) => {
    const response = await fetcher(input, init);
    if (!response.ok) return response;
    const body = (await response.text()).replace(
      /("publicaly_available_post_id"\s*:\s*\[)([^\]]*)\]/g,
      (_, head: string, ids: string) =>
        `${head}${ids
          .split(",")
          .map((id) => (/^\s*-?\d+\s*$/.test(id) ? `"${id.trim()}"` : id))
          .join(",")}]`,
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };

/** What a FAILED status means for a retry: nothing was posted, so some reasons are worth another try. */
function failed(reason: string | undefined): PlatformError {
  const code = reason && /^[a-z][a-z0-9_]{0,63}$/.test(reason) ? reason : "publish_failed";
  const message = `TikTok did not publish the post: ${reason ?? "no reason given"}`;
  if (code === "spam_risk_too_many_posts")
    return new PlatformError(message, { kind: "rate_limited", code, retryAfterSeconds: 3600 });
  if (code === "internal" || code === "video_pull_failed" || code === "photo_pull_failed")
    return new PlatformError(message, { kind: "transient", code });
  return new PlatformError(message, { kind: "permanent", code });
}

/**
 * After the init call TikTok holds a publish: an `auth` failure would make the engine refresh the
 * token and publish again, so it becomes an unknown outcome, reconciled with `find`.
 */
function afterInit(error: unknown): unknown {
  if (!(error instanceof PlatformError) || error.kind !== "auth") return error;
  return new PlatformError(error.message, { kind: "unknown_outcome", code: error.code });
}

/**
 * The one video, or the photos, of the item. The platform's check (src/platforms/tiktok/rules.ts) refused
 * everything else before this call: a thread, no media, a video beside anything, too many photos or
 * photos of another type.
 */
function mediaOf(draft: PublishDraft): { video: DraftMedia } | { photos: DraftMedia[] } {
  const item: DraftItem | undefined = draft.items[0];
  const media = item?.media ?? [];
  if (media.length === 0) throw refuse("A TikTok post needs a video or photos.", "media_required");
  const video = media.find((m) => m.kind === "video");
  return video ? { video } : { photos: media };
}

export function tiktokPublisher(api: TiktokApi, fetcher: Fetch, pacing: Pacing) {
  /**
   * Polls the publish until TikTok has published it (PUBLISH_COMPLETE): its public id when moderation
   * already gave one, else the publish id (the public id comes only after moderation, and never for a
   * SELF_ONLY post).
   */
  async function settle(publishId: string): Promise<string> {
    for (let attempt = 0; attempt < pacing.attempts; attempt++) {
      if (attempt > 0) await sleep(pacing.delayMs);
      const { data } = await api.post(
        "post status",
        "post/publish/status/fetch/",
        { publish_id: publishId },
        postStatus,
        { write: false, fetch: quotingPostIds(fetcher) },
      );
      if (data.status === "FAILED") throw failed(data.fail_reason);
      // PUBLISH_COMPLETE comes before the public id while the post awaits moderation.
      if (data.status === "PUBLISH_COMPLETE") return data.publicaly_available_post_id?.[0] ?? publishId;
    }
    throw new PlatformError("TikTok was still processing the post; it will be looked up.", {
      kind: "unknown_outcome",
      code: "processing_timeout",
    });
  }

  /** Inits a FILE_UPLOAD video post and sends its chunks; the publish id. */
  async function postVideo(video: DraftMedia, postInfo: Record<string, unknown>): Promise<string> {
    const plan = chunkPlan(video.size);
    const { data } = await api.post(
      "video init",
      "post/publish/video/init/",
      {
        post_info: postInfo,
        source_info: {
          source: "FILE_UPLOAD",
          video_size: video.size,
          chunk_size: plan.chunkSize,
          total_chunk_count: plan.count,
        },
      },
      videoInit,
    );
    try {
      await uploadChunks(fetcher, data.upload_url, video, plan);
    } catch (error) {
      throw afterInit(error);
    }
    return data.publish_id;
  }

  /** Inits a photo post TikTok pulls from our signed links; the publish id. */
  async function postPhotos(photos: DraftMedia[], postInfo: Record<string, unknown>): Promise<string> {
    const { data } = await api.post(
      "photo init",
      "post/publish/content/init/",
      {
        media_type: "PHOTO",
        post_mode: "DIRECT_POST",
        post_info: postInfo,
        source_info: {
          source: "PULL_FROM_URL",
          photo_cover_index: 0,
          photo_images: photos.map((photo) => photo.url),
        },
      },
      photoInit,
    );
    return data.publish_id;
  }

  return {
    async publish(account: AccountAuth, draft: PublishDraft): Promise<PublishedPost> {
      const media = mediaOf(draft);
      const text = draft.items[0]?.text ?? "";
      const settings = draft.settings;
      const flag = (key: string) => settings[key] === true;
      const privacy =
        typeof settings.privacy_level === "string" ? settings.privacy_level : "PUBLIC_TO_EVERYONE";
      const title = typeof settings.title === "string" && settings.title !== "" ? settings.title : undefined;

      const { data: creator } = await api.post(
        "creator info",
        "post/publish/creator_info/query/",
        undefined,
        creatorInfo,
        { write: false },
      );
      const allowed = creator.privacy_level_options;
      if (!allowed.includes(privacy))
        throw refuse(
          `This TikTok account cannot post with privacy level ${privacy}; it allows ${allowed.join(", ")}.`,
          "privacy_level_not_allowed",
        );
      // What the creator turned off in TikTok stays off.
      const disable_comment = flag("disable_comment") || creator.comment_disabled === true;
      const brand = {
        brand_content_toggle: flag("brand_content_toggle"),
        brand_organic_toggle: flag("brand_organic_toggle"),
      };

      let publishId: string;
      if ("video" in media) {
        const caption = title ?? text;
        publishId = await postVideo(media.video, {
          ...(caption ? { title: caption } : {}),
          privacy_level: privacy,
          disable_comment,
          disable_duet: flag("disable_duet") || creator.duet_disabled === true,
          disable_stitch: flag("disable_stitch") || creator.stitch_disabled === true,
          ...brand,
          is_aigc: flag("is_aigc"),
        });
      } else {
        publishId = await postPhotos(media.photos, {
          ...(title ? { title: cut(title, PHOTO_TITLE_MAX) } : {}),
          ...(text ? { description: text } : {}),
          privacy_level: privacy,
          disable_comment,
          ...brand,
        });
      }
      try {
        const id = await settle(publishId);
        return { id, url: api.postUrl(account.handle, id) };
      } catch (error) {
        throw afterInit(error);
      }
    },
  };
}
