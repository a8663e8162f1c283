// The calls that make a Page post of each kind. Facebook pulls every media file from its URL (our
// signed link), so no bytes pass through the worker: photos by `url`, videos by `file_url` (on the Graph
// host: graph-video is deprecated), reels and
// video stories by a hosted-file upload to rupload.facebook.com (`file_url` header).
// developers.facebook.com › Pages API › Posts; Video API › Publishing, Reels Publishing API;
// Facebook Stories API. Each function answers the id of what it made public.
import { z } from "zod";
import { platformCall } from "../call";
import { GRAPH_VERSION, metaCall, node, shaped } from "../meta";
import { type DraftMedia, PlatformError } from "../types";
import { LABEL, type PageApi } from "./api";
import { created, photoCreated, success, uploadStarted } from "./schemas";

/** A text (or link) post on the Page's feed. */
export async function feedPost(api: PageApi, message: string, link: string | null): Promise<string> {
  const params = { message: message || undefined, link: link ?? undefined };
  return (await api.graph.post("post", node(api.pageId, "feed"), params, created)).id;
}

/** One published photo, the text as its caption: the answer names the post it made. */
export async function photoPost(api: PageApi, media: DraftMedia, caption: string): Promise<string> {
  const params = { url: media.url, message: caption || undefined };
  const photo = await api.graph.post("photo", node(api.pageId, "photos"), params, photoCreated);
  return photo.post_id ?? photo.id;
}

/** Uploads a photo without publishing it, for a multi-photo post or a photo story. */
async function unpublishedPhoto(api: PageApi, media: DraftMedia): Promise<string> {
  const params = { url: media.url, published: false };
  return (await api.graph.post("photo upload", node(api.pageId, "photos"), params, photoCreated)).id;
}

/** Several photos: each uploaded unpublished, then one feed post attaching them all. */
export async function albumPost(api: PageApi, media: DraftMedia[], message: string): Promise<string> {
  const ids: string[] = [];
  for (const item of media) ids.push(await unpublishedPhoto(api, item));
  const params = { message: message || undefined, attached_media: ids.map((id) => ({ media_fbid: id })) };
  return (await api.graph.post("post", node(api.pageId, "feed"), params, created)).id;
}

/** A feed video, pulled from `file_url`: its id is the video's. */
export async function videoPost(api: PageApi, media: DraftMedia, description: string): Promise<string> {
  const params = { file_url: media.url, description: description || undefined };
  return (await api.graph.post("video", node(api.pageId, "videos"), params, created)).id;
}

const uploaded = z.object({ success: z.boolean() });

/**
 * The hosted-file upload of an upload session: Facebook fetches `file_url` itself. The documented
 * call authenticates with `Authorization: OAuth <Page token>`.
 */
async function hostedUpload(api: PageApi, session: z.output<typeof uploadStarted>, media: DraftMedia) {
  const what = `${LABEL} video upload`;
  // Only an upload URL on the upload host is trusted with the Page token; else the documented one.
  const fallback = `${api.upload}/video-upload/${GRAPH_VERSION}/${encodeURIComponent(session.video_id)}`;
  const url = session.upload_url?.startsWith(`${api.upload}/`) ? session.upload_url : fallback;
  const reply = await platformCall(
    api.context.fetch,
    what,
    url,
    {
      method: "POST",
      headers: { authorization: `OAuth ${api.token}`, file_url: media.url, accept: "application/json" },
    },
    metaCall(what),
  );
  if (!shaped(uploaded, reply.body, what, "POST").success) {
    throw new PlatformError(`${what}: Facebook did not accept the video file`, {
      kind: "permanent",
      code: "upload_failed",
    });
  }
}

const notPublished = (what: string) =>
  new PlatformError(`${LABEL} ${what}: Facebook did not publish it`, {
    kind: "permanent",
    code: "not_published",
  });

/** A reel: start an upload session, have Facebook fetch the file, then publish it with its text. */
export async function reelPost(api: PageApi, media: DraftMedia, description: string): Promise<string> {
  const edge = node(api.pageId, "video_reels");
  const session = await api.graph.post("reel", edge, { upload_phase: "start" }, uploadStarted);
  await hostedUpload(api, session, media);
  const params = {
    upload_phase: "finish",
    video_id: session.video_id,
    video_state: "PUBLISHED",
    description: description || undefined,
  };
  const finished = await api.graph.post("reel", edge, params, success);
  if (!finished.success) throw notPublished("reel");
  return session.video_id;
}

/** A Page story: a photo (uploaded unpublished, then published as a story) or a video (upload session). */
export async function storyPost(api: PageApi, media: DraftMedia): Promise<string> {
  if (media.kind === "image") {
    const photoId = await unpublishedPhoto(api, media);
    const params = { photo_id: photoId };
    const story = await api.graph.post("story", node(api.pageId, "photo_stories"), params, success);
    if (!story.success) throw notPublished("story");
    return story.post_id ?? photoId;
  }
  const edge = node(api.pageId, "video_stories");
  const session = await api.graph.post("story", edge, { upload_phase: "start" }, uploadStarted);
  await hostedUpload(api, session, media);
  const params = { upload_phase: "finish", video_id: session.video_id };
  const story = await api.graph.post("story", edge, params, success);
  if (!story.success) throw notPublished("story");
  return story.post_id ?? session.video_id;
}
