// Publishing on Pinterest: a post is one Pin on the board the row's settings name, made of its only
// item: one image (pulled by Pinterest from the media's signed URL), 2 to 5 images (a carousel), or one
// video (uploaded first, media.ts; an image beside it becomes its cover). Pin v5 has no private field
// left to carry the fingerprint (the Pin `note` was dropped from the API in v5.20), so `find` matches the
// text sent as the description among the account's latest Pins.
// developers.pinterest.com › API reference v5 › Create Pin; List Pins.

import { progressOf } from "../progress";
import type { AccountAuth, DraftMedia, FindLookup, PublishDraft, PublishedPost } from "../types";
import { type PinterestApi, permanent, tokenOf } from "./api";
import { uploadVideo, videoPinPossible } from "./media";
import { pin, pinList } from "./schemas";
import { settings as settingsSchema } from "./settings";

/** Images a carousel Pin takes at most. */
export { CAROUSEL_MAX } from "./rules";
/** How many of the account's latest Pins `find` looks through (one page). */
export const FIND_WINDOW = 25;
/** The second of the video whose frame becomes the cover when no image is given for it. */
export const COVER_FRAME_SECONDS = 1;

function settingsOf(draft: PublishDraft) {
  const parsed = settingsSchema.safeParse(draft.settings);
  if (!parsed.success)
    throw permanent("invalid_settings", "The Pinterest settings of the post are not valid.");
  return parsed.data;
}

/** The media_source of the Pin, once its media are checked (and a video uploaded). */
async function mediaSource(api: PinterestApi, token: string, media: DraftMedia[], draft: PublishDraft) {
  const videos = media.filter((m) => m.kind === "video");
  const images = media.filter((m) => m.kind === "image");
  const [video] = videos;
  if (video) {
    const mediaId = await uploadVideo(api, token, video, draft);
    const cover = images[0]
      ? { cover_image_url: images[0].url }
      : { cover_image_key_frame_time: COVER_FRAME_SECONDS };
    return { source_type: "video_id", media_id: mediaId, ...cover };
  }
  if (images.length === 1) return { source_type: "image_url", url: images[0]!.url };
  return { source_type: "multiple_image_urls", items: images.map((image) => ({ url: image.url })) };
}

export async function publishPin(
  api: PinterestApi,
  account: AccountAuth,
  draft: PublishDraft,
): Promise<PublishedPost> {
  const token = tokenOf(account);
  // The platform's check (src/platforms/pinterest/rules.ts) refused everything else before this call: a
  // thread, a post without media, too many images or videos, no board.
  const item = draft.items[0];
  if (!item) throw permanent("media_required", "Pinterest publishes images and videos: the post is empty.");
  const settings = settingsOf(draft);
  // The API Sandbox takes no media upload: refused before registering anything.
  if (api.onSandbox && item.media.some((m) => m.kind === "video"))
    throw permanent(
      "video_not_available_on_trial",
      "Video Pins cannot be created on Pinterest's API Sandbox (trial access, PINTEREST_API_BASE): publish images, or get Standard access and point PINTEREST_API_BASE back at api.pinterest.com.",
    );

  const body: Record<string, unknown> = {
    board_id: settings.board_id,
    media_source: await mediaSource(api, token, item.media, draft),
  };
  if (item.text !== "") body.description = item.text;
  if (settings.title) body.title = settings.title;
  if (settings.link) body.link = settings.link;
  if (settings.alt_text) body.alt_text = settings.alt_text;
  const created = await api.post("Pin", "pins", token, body, pin);
  return { id: created.id, url: api.pinUrl(created.id) };
}

/**
 * The Pin an earlier attempt created. A video Pin whose recorded media Pinterest has not processed yet
 * cannot exist (Create Pin refuses such a media): none, without a search. Otherwise the latest Pin whose description is exactly the text sent. A post
 * without text cannot be told apart from the account's other Pins, so nothing is found for it (the
 * retry publishes again rather than take someone else's Pin for this one). Pins have no replies.
 */
export async function findPin(
  api: PinterestApi,
  account: AccountAuth,
  lookup: FindLookup,
): Promise<PublishedPost | null> {
  const text = lookup.text.trim();
  if (lookup.replyTo || text === "") return null;
  const token = tokenOf(account);
  if (lookup.progress && !(await videoPinPossible(api, token, progressOf(lookup)))) return null;
  const latest = await api.get("latest Pins", "pins", { page_size: String(FIND_WINDOW) }, token, pinList);
  const found = latest.items.find((p) => (p.description ?? "").trim() === text);
  return found ? { id: found.id, url: api.pinUrl(found.id) } : null;
}
