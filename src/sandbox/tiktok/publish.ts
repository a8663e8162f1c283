// The Content Posting API's publishing endpoints as the emulator answers them (developers.tiktok.com ›
// Content Posting API: Query Creator Info, Direct Post, Photo Post, Get Post Status), and a post's page.
//
// A publish is an object of the ledger (kind "publish") until TikTok has the whole video (or has pulled
// the photos) and processed it: the post is stored then (`settle`), under the creator's handle, public
// only for PUBLIC_TO_EVERYONE. Moderation takes 90 s more (on the sandbox's clock): only then does the
// status name `publicaly_available_post_id`, and only for a PUBLIC_TO_EVERYONE post.
import { toHex } from "../../lib/encoding";
import { type Emulated, isReady, type LedgerObject, lostAnswer, refuse } from "../emulator";
import { logId, ok } from "./errors";
import {
  CREATOR_PRIVACY_OPTIONS,
  checkChunks,
  checkPrivacy,
  MODERATED_PRIVACY,
  MODERATION_SECONDS,
  photoInit,
  publishId,
  statusFetch,
  videoId,
  videoInit,
} from "./rules";

/** The publish as the ledger keeps it between init and the post. */
export type Publish = {
  mode: "FILE_UPLOAD" | "PULL_FROM_URL" | "PHOTO";
  /** DIRECT_POST publishes; MEDIA_UPLOAD (photos) goes to the creator's inbox. */
  postMode: "DIRECT_POST" | "MEDIA_UPLOAD";
  request: unknown;
  text: string;
  title: string;
  description: string;
  privacy: string;
  uploadToken?: string;
  /** When the upload URL was issued (ms): it is valid for UPLOAD_URL_VALID_MS. */
  uploadIssuedAt?: number;
  videoSize?: number;
  chunkSize?: number;
  chunkCount?: number;
  /** Bytes received so far (FILE_UPLOAD). */
  uploaded: number;
  media: { url: string; type: string }[];
  /** All bytes (or the photos) are in: processing runs until the object's ready time. */
  complete: boolean;
  /** The video id TikTok gives the post; stored in the ledger once processed. */
  videoId: string;
  stored: boolean;
  /** When processing ended (ms): moderation counts from here. */
  completedAt?: number;
};

export const publishOf = (object: LedgerObject) => object.data as unknown as Publish;

/** Stores the post once its media is in and processed (once only); the publish after. */
export async function settle(emulated: Emulated, object: LedgerObject): Promise<LedgerObject> {
  const publish = publishOf(object);
  if (publish.stored || !publish.complete || !isReady(object) || publish.postMode !== "DIRECT_POST")
    return object;
  const existing = await emulated.post(publish.videoId);
  if (!existing) {
    await emulated.publish({
      id: publish.videoId,
      handle: object.handle,
      items: [{ text: publish.text, media: publish.media }],
      platformRequest: publish.request,
      visible: publish.privacy === MODERATED_PRIVACY,
    });
  }
  return (
    (await emulated.updateObject(object.id, {
      stored: true,
      completedAt: Math.max(object.readyAt, object.createdAt),
    })) ?? object
  );
}

/** Every ready publish of the account stored as its post: what the Display API lists is current. */
export async function settleAll(emulated: Emulated, handle: string) {
  for (const object of await emulated.objects(handle, "publish")) await settle(emulated, object);
}

/** The caller's publish `id`, settled; TikTok's invalid_params when it is not the caller's. */
async function ownPublish(emulated: Emulated, handle: string, id: string) {
  const object = await emulated.object(id);
  if (object?.kind !== "publish" || object.handle !== handle)
    return refuse(400, "invalid_request", "The publish_id does not exist or does not belong to this user.", {
      code: "invalid_publish_id",
    });
  return settle(emulated, object);
}

/** Query Creator Info: what the creator may post, asked before every Direct Post. */
export async function creatorInfo(emulated: Emulated) {
  const caller = await emulated.caller();
  return ok({
    creator_avatar_url: "",
    creator_username: caller.handle,
    creator_nickname: caller.handle,
    privacy_level_options: CREATOR_PRIVACY_OPTIONS,
    comment_disabled: false,
    duet_disabled: false,
    stitch_disabled: false,
    max_video_post_duration_sec: 600,
  });
}

/** Direct Post, video: FILE_UPLOAD answers an upload URL; PULL_FROM_URL fetches from the URL given. */
export async function initVideo(emulated: Emulated) {
  const caller = await emulated.caller();
  const body = await emulated.json(videoInit);
  checkPrivacy(body.post_info.privacy_level);
  const source = body.source_info;
  if (source.source === "FILE_UPLOAD")
    checkChunks(source.video_size, source.chunk_size, source.total_chunk_count);
  const text = body.post_info.title ?? "";
  const outcome = await emulated.attempt(caller.handle, `video:${text}`, text);
  const pulled = source.source === "PULL_FROM_URL";
  const publish: Publish = {
    mode: source.source,
    postMode: "DIRECT_POST",
    request: body,
    text,
    title: text,
    description: text,
    privacy: body.post_info.privacy_level,
    uploaded: 0,
    media: pulled ? [{ url: source.video_url, type: "video/mp4" }] : [],
    complete: pulled,
    videoId: videoId(),
    stored: false,
  };
  if (!pulled) {
    publish.uploadToken = toHex(crypto.getRandomValues(new Uint8Array(16)));
    publish.uploadIssuedAt = emulated.now();
    publish.videoSize = source.video_size;
    publish.chunkSize = source.chunk_size;
    publish.chunkCount = source.total_chunk_count;
  }
  const object = await emulated.createObject({
    id: publishId(publish.mode),
    handle: caller.handle,
    kind: "publish",
    data: publish,
    readyAt: emulated.readyAt(text),
  });
  // #sandbox-lost: the init's answer never arrives. A pulled video is published all the same; an
  // upload never gets its bytes, so TikTok never publishes it.
  if (pulled) await settle(emulated, object);
  if (outcome === "lost") return lostAnswer();
  if (pulled) return ok({ publish_id: object.id });
  const query = new URLSearchParams({ upload_id: object.id, upload_token: publish.uploadToken! });
  return ok({ publish_id: object.id, upload_url: `${emulated.base}/upload/?${query}` });
}

/** Photo posts: TikTok pulls the images from the URLs given. */
export async function initPhotos(emulated: Emulated) {
  const caller = await emulated.caller();
  const body = await emulated.json(photoInit);
  if (body.source_info.photo_images.length === 0)
    return refuse(400, "invalid_request", "photo_images must name at least one image.");
  const cover = body.source_info.photo_cover_index ?? 0;
  if (cover >= body.source_info.photo_images.length)
    return refuse(400, "invalid_request", "photo_cover_index is out of range.");
  const privacy = body.post_info.privacy_level;
  if (body.post_mode === "DIRECT_POST") {
    if (!privacy)
      return refuse(400, "invalid_request", "post_info.privacy_level is required for DIRECT_POST.");
    checkPrivacy(privacy);
  }
  const title = body.post_info.title ?? "";
  const description = body.post_info.description ?? "";
  const text = description || title;
  const outcome = await emulated.attempt(
    caller.handle,
    `photo:${title}\n${description}`,
    `${title}\n${description}`,
  );
  const object = await emulated.createObject({
    id: publishId("PHOTO"),
    handle: caller.handle,
    kind: "publish",
    data: {
      mode: "PHOTO",
      postMode: body.post_mode,
      request: body,
      text,
      title,
      description,
      privacy: privacy ?? "SELF_ONLY",
      uploaded: 0,
      media: body.source_info.photo_images.map((url) => ({ url, type: "image/jpeg" })),
      complete: true,
      videoId: videoId(),
      stored: false,
    } satisfies Publish,
    readyAt: emulated.readyAt(`${title}\n${description}`),
  });
  await settle(emulated, object);
  if (outcome === "lost") return lostAnswer();
  return ok({ publish_id: object.id });
}

/** Get Post Status: processing, then PUBLISH_COMPLETE; the public id once moderation is done. */
export async function fetchStatus(emulated: Emulated) {
  const caller = await emulated.caller();
  const { publish_id } = await emulated.json(statusFetch);
  const object = await ownPublish(emulated, caller.handle, publish_id);
  const publish = publishOf(object);
  let data: string;
  if (!publish.complete) {
    data = JSON.stringify({ status: "PROCESSING_UPLOAD", uploaded_bytes: publish.uploaded });
  } else if (!isReady(object)) {
    data = JSON.stringify({
      status: publish.mode === "FILE_UPLOAD" ? "PROCESSING_UPLOAD" : "PROCESSING_DOWNLOAD",
      ...(publish.mode === "FILE_UPLOAD" ? { uploaded_bytes: publish.uploaded } : {}),
    });
  } else if (publish.postMode === "MEDIA_UPLOAD") {
    data = JSON.stringify({ status: "SEND_TO_USER_INBOX" });
  } else {
    // Only a post for public viewership is moderated into a public id (Get Post Status).
    const moderated =
      publish.privacy === MODERATED_PRIVACY &&
      emulated.now() >= (publish.completedAt ?? object.readyAt) + emulated.scaledMs(MODERATION_SECONDS);
    // The ids are int64 numbers in TikTok's JSON: written as digits, never as strings.
    data = `{"status":"PUBLISH_COMPLETE","publicaly_available_post_id":[${moderated ? publish.videoId : ""}]}`;
  }
  return new Response(`{"data":${data},"error":{"code":"ok","message":"","log_id":"${logId()}"}}`, {
    headers: { "content-type": "application/json; charset=UTF-8" },
  });
}

/**
 * A post's page on tiktok.com (the adapter's post_url), `/@<handle>/video/<id>`: the sandbox's page of
 * the post, also by publish id; null for a path that is no post's page.
 */
export async function postPage(emulated: Emulated, at: string, id: string): Promise<string | null> {
  if (!at.startsWith("@")) return null;
  const object = /^[vp]_pub_/.test(id) ? await emulated.object(id) : null;
  return emulated.postUrl(object?.kind === "publish" ? publishOf(object).videoId : id);
}
