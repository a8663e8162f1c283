// The calls that make a Page post of each kind. Facebook pulls every media file from its URL (our
// signed link), so no bytes pass through the worker: photos by `url`, videos by `file_url` (on the Graph
// host: graph-video is deprecated), reels and
// video stories by a hosted-file upload to rupload.facebook.com (`file_url` header).
// developers.facebook.com › Pages API › Posts; Video API › Publishing, Reels Publishing API;
// Facebook Stories API. Each function answers the id of what it made public.
import { z } from "zod";
import { platformCall } from "../call";
import { GRAPH_VERSION, metaCall, node, shaped } from "../meta";
import { type DraftMedia, PlatformError, type Progress } from "../types";
import { LABEL, type PageApi } from "./api";
import { created, photoCreated, success, uploadStarted } from "./schemas";

/** A text (or link) post on the Page's feed. */
export async function feedPost(api: PageApi, message: string, link: string | null): Promise<string> {
  const params = { message: message || undefined, link: link ?? undefined };
  return (await api.graph.post("post", node(api.pageId, "feed"), params, created)).id;
}

/** One published photo, the text as its caption: the answer names the photo and the post it made. */
export async function photoPost(
  api: PageApi,
  media: DraftMedia,
  caption: string,
): Promise<{ postId: string; photoId: string }> {
  const params = { url: media.url, message: caption || undefined };
  const photo = await api.graph.post("photo", node(api.pageId, "photos"), params, photoCreated);
  return { postId: photo.post_id ?? photo.id, photoId: photo.id };
}

/**
 * What a publication records under PROGRESS_KEY before its final call (types.ts `Progress`): the
 * unpublished photos of a multi-photo post or photo story, in order, each as soon as Facebook gives its
 * id; a reel's or video story's upload session (its video id) as soon as it is started, and whether the
 * file was handed to it. A later attempt attaches the same photos and finishes the same session instead
 * of uploading again.
 */
export type FacebookProgress = {
  photos?: string[];
  video?: { id: string; upload_url?: string; uploaded?: boolean };
};
export const PROGRESS_KEY = "facebook";

export const recorded = (progress: Progress): FacebookProgress => {
  const value = progress.get(PROGRESS_KEY);
  return typeof value === "object" && value !== null ? (value as FacebookProgress) : {};
};

/** The unpublished photos of `media`, those an earlier attempt recorded reused, the rest uploaded. */
async function unpublishedPhotos(api: PageApi, media: DraftMedia[], progress: Progress): Promise<string[]> {
  const ids = [...(recorded(progress).photos ?? [])];
  for (const item of media.slice(ids.length)) {
    ids.push(await unpublishedPhoto(api, item));
    await progress.set(PROGRESS_KEY, { ...recorded(progress), photos: [...ids] });
  }
  return ids.slice(0, media.length);
}

/**
 * The upload session of a reel or video story with the file handed to it: the recorded one resumed
 * (started once; the file handed once it is recorded as uploaded), else a new one, recorded at once.
 */
async function videoSession(
  api: PageApi,
  edge: string,
  what: string,
  media: DraftMedia,
  progress: Progress,
): Promise<string> {
  let video = recorded(progress).video;
  if (!video) {
    const session = await api.graph.post(what, edge, { upload_phase: "start" }, uploadStarted);
    video = { id: session.video_id, ...(session.upload_url ? { upload_url: session.upload_url } : {}) };
    await progress.set(PROGRESS_KEY, { ...recorded(progress), video });
  }
  if (!video.uploaded) {
    await hostedUpload(api, { video_id: video.id, upload_url: video.upload_url }, media);
    await progress.set(PROGRESS_KEY, { ...recorded(progress), video: { ...video, uploaded: true } });
  }
  return video.id;
}

/** Uploads a photo without publishing it, for a multi-photo post or a photo story. */
async function unpublishedPhoto(api: PageApi, media: DraftMedia): Promise<string> {
  const params = { url: media.url, published: false };
  return (await api.graph.post("photo upload", node(api.pageId, "photos"), params, photoCreated)).id;
}

/** Several photos: each uploaded unpublished (and recorded), then one feed post attaching them all. */
export async function albumPost(
  api: PageApi,
  media: DraftMedia[],
  message: string,
  progress: Progress,
): Promise<string> {
  const ids = await unpublishedPhotos(api, media, progress);
  const params = { message: message || undefined, attached_media: ids.map((id) => ({ media_fbid: id })) };
  return (await api.graph.post("post", node(api.pageId, "feed"), params, created)).id;
}

/** A feed video, pulled from `file_url`: its id is the video's. */
export async function videoPost(api: PageApi, media: DraftMedia, description: string): Promise<string> {
  const params = { file_url: media.url, description: description || undefined };
  // Facebook fetches the file during this call: it takes the upload timeout.
  return (await api.graph.post("video", node(api.pageId, "videos"), params, created, "upload")).id;
}

const uploaded = z.object({ success: z.boolean() });

/**
 * The hosted-file upload of an upload session: Facebook fetches `file_url` itself. The documented
 * call authenticates with `Authorization: OAuth <Page token>`.
 */
async function hostedUpload(
  api: PageApi,
  session: { video_id: string; upload_url?: string | undefined },
  media: DraftMedia,
) {
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
    // Facebook fetches the file during this call: it takes the upload timeout.
    { ...metaCall(what), timeoutMs: api.context.timeouts.upload },
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
export async function reelPost(
  api: PageApi,
  media: DraftMedia,
  description: string,
  progress: Progress,
): Promise<string> {
  const edge = node(api.pageId, "video_reels");
  const videoId = await videoSession(api, edge, "reel", media, progress);
  const params = {
    upload_phase: "finish",
    video_id: videoId,
    video_state: "PUBLISHED",
    description: description || undefined,
  };
  const finished = await api.graph.post("reel", edge, params, success);
  if (!finished.success) throw notPublished("reel");
  return videoId;
}

/** A Page story: a photo (uploaded unpublished, then published as a story) or a video (upload session). */
export async function storyPost(api: PageApi, media: DraftMedia, progress: Progress): Promise<string> {
  if (media.kind === "image") {
    const [photoId] = (await unpublishedPhotos(api, [media], progress)) as [string];
    const params = { photo_id: photoId };
    const story = await api.graph.post("story", node(api.pageId, "photo_stories"), params, success);
    if (!story.success) throw notPublished("story");
    return story.post_id ?? photoId;
  }
  const edge = node(api.pageId, "video_stories");
  const videoId = await videoSession(api, edge, "story", media, progress);
  const params = { upload_phase: "finish", video_id: videoId };
  const story = await api.graph.post("story", edge, params, success);
  if (!story.success) throw notPublished("story");
  return story.post_id ?? videoId;
}
