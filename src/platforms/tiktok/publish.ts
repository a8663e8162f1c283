// Direct Post to TikTok: the creator's info first (the docs require it; its privacy options decide
// whether the row's privacy level can be used), then a video (init with FILE_UPLOAD, the chunks PUT
// from R2) or photos (init with PULL_FROM_URL from our signed links), then the post's status polled
// until TikTok has published it. A post is one video or up to 35 photos; text alone and threads do not
// exist on TikTok and are refused.
//
// What TikTok hands out before the post exists is kept on the row (PublishDraft.progress), each piece
// as soon as it exists: `publish_id` right after the init, before any chunk, and `upload` (the upload
// URL, when it was issued, the chunks sent) after the init and after every chunk. A row that has a
// publish_id is never initialised again: a later attempt asks TikTok the publish's status, goes on with
// the upload from the byte TikTok has (`uploaded_bytes`), and polls the same publish. The one exception
// is a publish TikTok reports FAILED: TikTok will never publish it, so it is forgotten and, where the
// reason is worth another try, the next attempt inits afresh (`failed` below).
// PUBLISH_COMPLETE (or SEND_TO_USER_INBOX) makes the row PUBLISHED at once: with the public id when
// moderation already gave it, else with the publish id, no URL, awaiting the public id (`resolve`
// reads it later). Only a PUBLIC_TO_EVERYONE post is moderated into a public id: one for friends,
// followers or the creator alone never gets one and does not await it. `resolve` waits a week at most.
// developers.tiktok.com › Content Posting API › Direct Post; Photo; Get Post Status; Media Transfer Guide.
import { pastDeadline, pollUntil, progressOf, stillProcessing } from "../progress";
import {
  type AccountAuth,
  type DraftItem,
  type DraftMedia,
  type Fetch,
  PlatformError,
  type Progress,
  type PublishDraft,
  type PublishedPost,
  type PublishingContext,
} from "../types";
import type { TiktokApi } from "./api";
import { type ChunkPlan, chunkPlan, uploadChunk } from "./media";
import { creatorInfo, photoInit, postStatus, videoInit } from "./schemas";

/** How long one attempt waits for the post: `attempts` status checks, `delayMs` apart (context.sleep). */
export type Pacing = { attempts: number; delayMs: number };
/** Up to a minute (the status endpoint allows 30 calls a minute); past it the next attempt polls on. */
export const DEFAULT_PACING: Pacing = { attempts: 20, delayMs: 3_000 };
/** When the next attempt comes back to a publish TikTok is still processing. */
export const RESUME_AFTER_SECONDS = 30;
/** When the next attempt goes on with an upload this attempt had no time left to finish. */
const UPLOAD_RESUME_AFTER_SECONDS = 5;
/**
 * Direct Post reference (the init's `upload_url`): valid for one hour after it is issued. A later
 * attempt sends no chunk to a URL within 5 minutes of that end.
 */
export const UPLOAD_URL_VALID_MS = 60 * 60_000;
const UPLOAD_URL_MARGIN_MS = 5 * 60_000;

/**
 * How long after publication `resolve` waits for the public id. Get Post Status: moderation "usually
 * finishes within one minute", "in some cases ... a few hours"; a week on, none will come (a post made
 * private or removed in the meantime), and the row stays published without a public URL.
 */
export const PUBLIC_ID_WAIT_SECONDS = 7 * 86_400;

/** The privacy level TikTok moderates into a public post id (Get Post Status); no other gets one. */
const PUBLIC = "PUBLIC_TO_EVERYONE";

/** The keys this adapter keeps on the row (PublishDraft.progress). */
export const PUBLISH_ID = "publish_id";
export const UPLOAD = "upload";
/** The upload in progress: its URL, when TikTok issued it (ms), and how many chunks were sent. */
type UploadProgress = { url: string; issued_at: number; sent: number };

/** The statuses in which TikTok has the post for good (Get Post Status). */
const ACCEPTED = new Set(["PUBLISH_COMPLETE", "SEND_TO_USER_INBOX"]);

const PHOTO_TITLE_MAX = 90;

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

/**
 * What a FAILED status means for a retry. TikTok will never publish a FAILED publish, so nothing was
 * posted and the row forgets it (publish below); whether another attempt inits afresh depends on the
 * reason (Get Post Status › fail_reason): TikTok's own fault and a pull that failed (our signed link may
 * have expired) are worth another try, the daily post cap after its wait; the content's faults
 * (format, duration, size, a spam verdict) and the creator's (auth removed, banned) are permanent.
 */
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
 * token and publish again within the same attempt, so it becomes an unknown outcome; the next attempt
 * reconciles by the recorded publish_id.
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

const privacyOf = (settings: Record<string, unknown> | undefined) =>
  typeof settings?.privacy_level === "string" ? settings.privacy_level : "PUBLIC_TO_EVERYONE";

const recordedUpload = (progress: Progress): UploadProgress | undefined => {
  const value = progress.get(UPLOAD) as Partial<UploadProgress> | undefined;
  return typeof value?.url === "string" &&
    typeof value.issued_at === "number" &&
    typeof value.sent === "number"
    ? (value as UploadProgress)
    : undefined;
};

type Status = {
  status: string;
  fail_reason?: string;
  publicaly_available_post_id?: string[];
  uploaded_bytes?: number;
};

export function tiktokPublisher(
  api: TiktokApi,
  context: Pick<PublishingContext, "fetch" | "sleep" | "now" | "timeouts">,
  pacing: Pacing,
) {
  /** One read of the publish's status (the int64 post ids quoted before parsing). */
  async function status(publishId: string): Promise<Status> {
    const { data } = await api.post(
      "post status",
      "post/publish/status/fetch/",
      { publish_id: publishId },
      postStatus,
      { write: false, fetch: quotingPostIds(context.fetch) },
    );
    return data;
  }

  /**
   * The post TikTok has accepted for good: its public id when moderation gave it; else the publish id,
   * no URL, awaiting the public id only for a public post: no other is ever given one (Get Post Status).
   */
  function accepted(account: AccountAuth, publishId: string, data: Status, privacy: string): PublishedPost {
    const id = data.publicaly_available_post_id?.[0];
    if (id) return { id, url: api.postUrl(account.handle, id) };
    if (privacy !== PUBLIC) return { id: publishId, url: null };
    return { id: publishId, url: null, awaiting: true };
  }

  /** A FAILED publish is forgotten (TikTok will never publish it), then the attempt fails by its reason. */
  async function dead(progress: Progress, data: Status): Promise<never> {
    await progress.set(PUBLISH_ID, undefined);
    await progress.set(UPLOAD, undefined);
    throw failed(data.fail_reason);
  }

  /**
   * Polls the publish until TikTok has it for good, `pacing.attempts` times at most and not past the
   * draft's deadline: then the attempt ends with `still_processing` and the next one polls the same
   * publish (never an unknown outcome, which could lead to a second init).
   */
  async function settle(
    account: AccountAuth,
    publishId: string,
    draft: PublishDraft,
    progress: Progress,
    first?: Status,
  ): Promise<PublishedPost> {
    const privacy = privacyOf(draft.settings);
    const polling = {
      looks: pacing.attempts,
      intervalMs: pacing.delayMs,
      deadline: draft.deadline,
      message: "TikTok is still processing the post; the next attempt polls the same publish.",
      retryAfterSeconds: RESUME_AFTER_SECONDS,
    };
    return pollUntil(context, polling, async (look) => {
      const data = look === 0 && first ? first : await status(publishId);
      if (data.status === "FAILED") return dead(progress, data);
      if (ACCEPTED.has(data.status)) return accepted(account, publishId, data, privacy);
      return undefined;
    });
  }

  /**
   * Sends the chunks of `video` from the `from`-th on, recording each one sent; past the deadline the
   * attempt ends and the next one goes on from the next chunk.
   */
  async function upload(
    video: DraftMedia,
    plan: ChunkPlan,
    recorded: UploadProgress,
    from: number,
    draft: PublishDraft,
    progress: Progress,
  ) {
    for (let index = from; index < plan.count; index++) {
      if (pastDeadline(draft, context.now()))
        throw stillProcessing(
          `TikTok has ${index} of ${plan.count} chunks; the next attempt sends the rest.`,
          UPLOAD_RESUME_AFTER_SECONDS,
        );
      await uploadChunk(context.fetch, recorded.url, video, plan.ranges[index]!, context.timeouts.upload);
      await progress.set(UPLOAD, { ...recorded, sent: index + 1 });
    }
  }

  /** Inits a FILE_UPLOAD video post, records it, and sends its chunks; the publish id. */
  async function postVideo(
    video: DraftMedia,
    postInfo: Record<string, unknown>,
    draft: PublishDraft,
    progress: Progress,
  ): Promise<string> {
    const plan = chunkPlan(video.size);
    const issuedAt = context.now();
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
    // Before any chunk: from here on, this row is never initialised again.
    await progress.set(PUBLISH_ID, data.publish_id);
    const recorded: UploadProgress = { url: data.upload_url, issued_at: issuedAt, sent: 0 };
    await progress.set(UPLOAD, recorded);
    await upload(video, plan, recorded, 0, draft, progress);
    return data.publish_id;
  }

  /** Inits a photo post TikTok pulls from our signed links, and records it; the publish id. */
  async function postPhotos(
    photos: DraftMedia[],
    postInfo: Record<string, unknown>,
    progress: Progress,
  ): Promise<string> {
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
    await progress.set(PUBLISH_ID, data.publish_id);
    return data.publish_id;
  }

  /**
   * A later attempt on a recorded publish: its status says where it is. Accepted: the post. FAILED:
   * forgotten, failed by its reason. An upload TikTok does not have whole: the chunks go on from the
   * byte TikTok has (`uploaded_bytes`; else the chunks recorded as sent) while the upload URL is
   * valid. Otherwise: polled.
   */
  /**
   * A publish whose video TikTok can never receive in full (its upload URL is gone, and TikTok's count
   * says bytes are missing): TikTok cannot publish it, so it is forgotten, and the row fails; a retry
   * of the post inits afresh, with no risk of a second post.
   */
  async function uploadLost(progress: Progress, reason: string): Promise<PlatformError> {
    await progress.set(PUBLISH_ID, undefined);
    await progress.set(UPLOAD, undefined);
    return new PlatformError(`${reason}; a retry of the post sends it again.`, {
      kind: "permanent",
      code: "upload_expired",
    });
  }

  async function resume(
    account: AccountAuth,
    publishId: string,
    media: { video: DraftMedia } | { photos: DraftMedia[] },
    draft: PublishDraft,
    progress: Progress,
  ): Promise<PublishedPost> {
    const data = await status(publishId);
    if (data.status === "FAILED") return dead(progress, data);
    if (ACCEPTED.has(data.status)) return accepted(account, publishId, data, privacyOf(draft.settings));
    const recorded = recordedUpload(progress);
    if (
      "video" in media &&
      !recorded &&
      data.status === "PROCESSING_UPLOAD" &&
      data.uploaded_bytes !== undefined &&
      data.uploaded_bytes < media.video.size
    )
      // The attempt died between recording the publish id and its upload URL: the rest of the video
      // has nowhere to go, so TikTok can never publish it (its own status says the bytes are not all
      // there): the publish is forgotten and the row fails, for a retry to send it afresh.
      throw await uploadLost(
        progress,
        "TikTok's upload URL for this video was not kept, so the upload cannot go on",
      );
    if ("video" in media && recorded && data.status === "PROCESSING_UPLOAD") {
      const plan = chunkPlan(media.video.size);
      const has = data.uploaded_bytes;
      const next =
        has === undefined
          ? recorded.sent
          : has >= media.video.size
            ? plan.count
            : plan.ranges.findIndex((range) => range.offset === has);
      // TikTok names a byte count that is no chunk's start: the chunks recorded as sent are what we know.
      const from = next === -1 ? recorded.sent : next;
      if (from < plan.count) {
        // The URL is dead past its hour: TikTok cannot get the rest of this upload, and this row is not
        // initialised again while TikTok holds the publish (it may yet report it FAILED): the row fails
        // for the user to publish again, rather than risk a second post.
        if (context.now() >= recorded.issued_at + UPLOAD_URL_VALID_MS - UPLOAD_URL_MARGIN_MS) {
          const reason = "TikTok's upload URL expired before the whole video was sent";
          // Forgotten only when TikTok's own count says bytes are missing: by our record alone, the last
          // chunk may have arrived unrecorded, and TikTok may yet publish it.
          if (has !== undefined && has < media.video.size) throw await uploadLost(progress, reason);
          throw new PlatformError(`${reason}; publish the post again.`, {
            kind: "permanent",
            code: "upload_expired",
          });
        }
        await upload(media.video, plan, recorded, from, draft, progress);
        return settle(account, publishId, draft, progress);
      }
    }
    return settle(account, publishId, draft, progress, data);
  }

  return {
    async publish(account: AccountAuth, draft: PublishDraft): Promise<PublishedPost> {
      const media = mediaOf(draft);
      const progress = progressOf(draft);
      const recorded = progress.get(PUBLISH_ID);
      if (typeof recorded === "string" && recorded !== "") {
        try {
          return await resume(account, recorded, media, draft, progress);
        } catch (error) {
          throw afterInit(error);
        }
      }

      const text = draft.items[0]?.text ?? "";
      const settings = draft.settings;
      const flag = (key: string) => settings[key] === true;
      const privacy = privacyOf(settings);
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
      try {
        if ("video" in media) {
          const caption = title ?? text;
          publishId = await postVideo(
            media.video,
            {
              ...(caption ? { title: caption } : {}),
              privacy_level: privacy,
              disable_comment,
              disable_duet: flag("disable_duet") || creator.duet_disabled === true,
              disable_stitch: flag("disable_stitch") || creator.stitch_disabled === true,
              ...brand,
              is_aigc: flag("is_aigc"),
            },
            draft,
            progress,
          );
        } else {
          publishId = await postPhotos(
            media.photos,
            {
              ...(title ? { title: cut(title, PHOTO_TITLE_MAX) } : {}),
              ...(text ? { description: text } : {}),
              privacy_level: privacy,
              disable_comment,
              ...brand,
            },
            progress,
          );
        }
        return await settle(account, publishId, draft, progress);
      } catch (error) {
        // Before the init answered, a failure is the init's own (an auth failure refreshes the token).
        if (progress.get(PUBLISH_ID) === undefined) throw error;
        throw afterInit(error);
      }
    },

    /**
     * The publication an earlier attempt started: with a recorded publish_id, by its status alone (the
     * post when TikTok has it for good; null while it processes or after it FAILED, and `publish` goes
     * on with it or decides). Never by text then: the video list shows public, moderated videos only.
     * Null without one, for the text search (read.ts) to try as the last resort.
     */
    async reconcile(account: AccountAuth, progress: Progress, settings?: Record<string, unknown>) {
      const publishId = progress.get(PUBLISH_ID);
      if (typeof publishId !== "string" || publishId === "") return undefined;
      const data = await status(publishId);
      return ACCEPTED.has(data.status) ? accepted(account, publishId, data, privacyOf(settings)) : null;
    },

    /**
     * The follow-up read of a post published before moderation gave its public id: the post with it
     * once TikTok names it; null while it does not yet. A publish TikTok reports FAILED after accepting it
     * (taken down in moderation) will never have one, nor will one still without it PUBLIC_ID_WAIT_SECONDS
     * after `publishedAt` (ms, when known): it resolves to its publish id with no URL, so the row stops
     * awaiting and keeps no address.
     */
    async resolve(
      account: AccountAuth,
      publishId: string,
      publishedAt?: number,
    ): Promise<PublishedPost | null> {
      const data = await status(publishId);
      if (data.status === "FAILED") return { id: publishId, url: null };
      const id = data.publicaly_available_post_id?.[0];
      if (id) return { id, url: api.postUrl(account.handle, id) };
      const waited =
        publishedAt !== undefined && context.now() - publishedAt >= PUBLIC_ID_WAIT_SECONDS * 1000;
      return waited ? { id: publishId, url: null } : null;
    },
  };
}
