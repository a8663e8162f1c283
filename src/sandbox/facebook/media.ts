// The emulator's upload endpoints (developers.facebook.com › Video API › Reels Publishing API; Facebook
// Stories API): the upload session a reel or a video story starts, the hosted-file upload on the upload
// host (`file_url` header, `Authorization: OAuth`), the session's finish, and a photo story made of an
// unpublished photo.
import { type Emulated, refuse } from "../emulator";
import { unsupported } from "./errors";
import { attempt, media, publishAs, publishingCall, received } from "./publish";
import { fetchable, freshId } from "./rules";
import { callerOf, type GraphCall } from "./token";

/** The upload session a reel or a video story starts (Reels Publishing API; Stories API), on the upload host. */
async function startSession(
  e: Emulated,
  handle: string,
  kind: "reel" | "video_story",
  params: URLSearchParams,
) {
  const session = await e.createObject({
    id: freshId(e.now()),
    handle,
    kind,
    data: { start: received(params) },
  });
  return {
    video_id: session.id,
    upload_url: `${e.base}/video-upload/v25.0/${session.id}`,
  };
}

/** A session the Page finishes: its own, with its file uploaded, not yet finished. */
async function sessionToFinish(e: Emulated, handle: string, kind: string, videoId: string | null) {
  const session = videoId ? await e.object(videoId) : null;
  if (!session || session.kind !== kind || session.handle !== handle)
    return refuse(400, "invalid_request", `(#100) Invalid video_id: ${videoId ?? ""}`, { code: 100 });
  if (!session.data.file_url)
    return refuse(400, "not_ready", "The video file has not been uploaded to the session yet.", {
      code: 6000,
    });
  if (session.data.finished)
    return refuse(400, "invalid_request", "(#100) The video has already been published.", { code: 100 });
  return session;
}

/** POST /{page-id}/video_reels, upload_phase start | finish (Video API › Reels Publishing API). */
export async function reels(call: GraphCall) {
  const { e, params, pageId, handle } = await publishingCall(call);
  const phase = params.get("upload_phase");
  if (phase === "start") return Response.json(await startSession(e, handle, "reel", params));
  if (phase !== "finish")
    return refuse(400, "invalid_request", "(#100) upload_phase must be one of {start, finish}", {
      code: 100,
    });
  const session = await sessionToFinish(e, handle, "reel", params.get("video_id"));
  const description = params.get("description") ?? "";
  const state = params.get("video_state") ?? "DRAFT";
  if (state !== "PUBLISHED") return Response.json({ success: true });
  const decision = await attempt(e, handle, pageId, `reel:${description}`, description);
  await e.updateObject(session.id, { finished: true, description }, e.readyAt(description, 5_000));
  return publishAs(
    e,
    decision,
    {
      handle,
      id: session.id,
      items: [{ text: description, media: media(String(session.data.file_url), "video/*") }],
      platformRequest: [session.data.start, received(params)],
    },
    () => ({ success: true }),
  );
}

/** POST {upload host}/video-upload/{version}/{video-id}: the hosted file (`file_url` header), `Authorization: OAuth`. */
export async function hostedUpload(call: GraphCall) {
  const { e } = call;
  const authorization = call.req.headers.get("authorization") ?? "";
  const token = /^OAuth\s+(\S+)$/i.exec(authorization)?.[1];
  if (!token)
    return refuse(400, "invalid_token", "The upload needs an `Authorization: OAuth <token>` header.");
  const caller = await callerOf(e, new URLSearchParams(), token);
  const session = await e.object(call.params.id!);
  if (!session || !["reel", "video_story"].includes(session.kind) || session.handle !== caller.handle)
    return unsupported("post", call.params.id!);
  const fileUrl = fetchable("file_url", call.req.headers.get("file_url") ?? null);
  await e.updateObject(session.id, { file_url: fileUrl });
  return Response.json({ success: true });
}

/** Marks a post as a story, which Facebook removes 24 h after publication (rules.ts `expiredStory`). */
const storyMarker = (e: Emulated, handle: string, id: string) =>
  e.createObject({ id, handle, kind: "story", data: {}, upload: false });

/** POST /{page-id}/photo_stories with an unpublished photo (Facebook Stories API › Photo Stories). */
export async function photoStories(call: GraphCall) {
  const { e, params, pageId, handle } = await publishingCall(call);
  const photoId = params.get("photo_id");
  const photo = photoId ? await e.object(photoId) : null;
  if (photo?.kind !== "photo" || photo.handle !== handle || photo.data.post_id)
    return refuse(400, "invalid_request", `(#100) Invalid photo_id: ${photoId ?? ""}`, { code: 100 });
  const decision = await attempt(e, handle, pageId, `story:${photo.id}`, "");
  const postId = `${pageId}_${freshId(e.now())}`;
  await e.updateObject(photo.id, { post_id: postId, postId });
  await storyMarker(e, handle, postId);
  return publishAs(
    e,
    decision,
    {
      handle,
      id: postId,
      items: [{ text: "", media: media(String(photo.data.url), "image/*") }],
      platformRequest: [photo.data.request, received(params)],
      visible: false,
    },
    (post) => ({ success: true, post_id: post.id }),
  );
}

/** POST /{page-id}/video_stories, upload_phase start | finish (Facebook Stories API › Video Stories). */
export async function videoStories(call: GraphCall) {
  const { e, params, pageId, handle } = await publishingCall(call);
  const phase = params.get("upload_phase");
  if (phase === "start") return Response.json(await startSession(e, handle, "video_story", params));
  if (phase !== "finish")
    return refuse(400, "invalid_request", "(#100) upload_phase must be one of {start, finish}", {
      code: 100,
    });
  const session = await sessionToFinish(e, handle, "video_story", params.get("video_id"));
  const decision = await attempt(e, handle, pageId, `story:${session.id}`, "");
  await e.updateObject(session.id, { finished: true });
  const storyId = `${pageId}_${freshId(e.now())}`;
  await storyMarker(e, handle, storyId);
  return publishAs(
    e,
    decision,
    {
      handle,
      id: storyId,
      items: [{ text: "", media: media(String(session.data.file_url), "video/*") }],
      platformRequest: [session.data.start, received(params)],
      visible: false,
    },
    (post) => ({ success: true, post_id: post.id }),
  );
}
