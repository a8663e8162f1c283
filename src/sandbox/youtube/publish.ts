// YouTube's publishing endpoints on the emulator: the video resource as the channel and others see it,
// the listings `find` reads (videos.list by id, playlistItems.list of the uploads playlist), and the
// channel's own comments (commentThreads.insert, the auto-plug; comments.insert, a reply in a thread).
// developers.google.com › YouTube Data API › Videos: list; PlaylistItems: list; CommentThreads: insert;
// Comments: insert.
import { z } from "zod";
import { toBase64Url } from "../../lib/encoding";
import {
  type Caller,
  type Emulated,
  isReady,
  type LedgerPost,
  lostAnswer,
  refuse,
  requireScope,
} from "../emulator";
import { FORCE_SSL, locate } from "./comments";
import { json } from "./errors";
import {
  checkCommentText,
  etag,
  listAnswer,
  maxResultsOf,
  newThreadId,
  paged,
  partsOf,
  type Req,
  randomId,
  uploadsOf,
  type VideoResource,
} from "./rules";

/** What a video resource shows of a stored video, by the parts asked for and to whom. */
export async function videoOf(emulated: Emulated, post: LedgerPost, parts: Set<string>, owner: boolean) {
  const request = post.platform_request as VideoResource;
  const channelId = await emulated.platformId(post.handle);
  const session = (await emulated.objects(post.handle, "upload_session")).find(
    (s) => s.data.videoId === post.id,
  );
  const processed = !session || isReady(session);
  const privacy = request.status?.privacyStatus ?? "public";
  const video: Record<string, unknown> = { kind: "youtube#video", etag: etag(), id: post.id };
  if (parts.has("snippet")) {
    video.snippet = {
      publishedAt: post.published_at,
      channelId,
      title: request.snippet.title,
      description: request.snippet.description ?? "",
      thumbnails: { default: { url: `${emulated.base}/posts/${post.id}`, width: 120, height: 90 } },
      channelTitle: post.handle,
      // Tags are shown to the video's owner only.
      ...(owner && request.snippet.tags ? { tags: request.snippet.tags } : {}),
      categoryId: request.snippet.categoryId ?? "22",
      liveBroadcastContent: "none",
      localized: { title: request.snippet.title, description: request.snippet.description ?? "" },
    };
  }
  if (parts.has("status")) {
    video.status = {
      uploadStatus: processed ? "processed" : "uploaded",
      privacyStatus: privacy,
      license: request.status?.license ?? "youtube",
      embeddable: request.status?.embeddable ?? true,
      publicStatsViewable: request.status?.publicStatsViewable ?? true,
      madeForKids: request.status?.selfDeclaredMadeForKids ?? false,
      ...(owner ? { selfDeclaredMadeForKids: request.status?.selfDeclaredMadeForKids ?? false } : {}),
    };
  }
  if (parts.has("statistics")) {
    const metrics = await emulated.metrics(post.id);
    // Counts are decimal strings; favoriteCount has been 0 since favourites became a playlist.
    video.statistics = {
      viewCount: String(metrics?.impressions ?? 0),
      likeCount: String(metrics?.likes ?? 0),
      favoriteCount: "0",
      commentCount: String(metrics?.comments ?? 0),
    };
  }
  if (parts.has("processingDetails") && owner) {
    video.processingDetails = { processingStatus: processed ? "succeeded" : "processing" };
  }
  if (parts.has("contentDetails")) {
    video.contentDetails = {
      duration: "PT15S",
      dimension: "2d",
      definition: "hd",
      caption: "false",
      licensedContent: false,
      projection: "rectangular",
    };
  }
  return video;
}

/** A stored video, if `id` names one the caller may see (private ones: only its channel). */
export async function visibleVideo(emulated: Emulated, caller: Caller, id: string) {
  const post = await emulated.post(id);
  if (!post || post.parent_id !== null) return null;
  const owner = post.handle === caller.handle;
  const privacy = (post.platform_request as VideoResource | null)?.status?.privacyStatus ?? "public";
  return owner || privacy !== "private" ? { post, owner } : null;
}

/** A top-level comment thread of the sandbox's audience, or the caller's own, as YouTube shows it. */
type ThreadComment = {
  id: string;
  text: string;
  name: string;
  username: string;
  authorId: string;
  at: string;
  /** Shown to the video's owner only (the comment resource's `snippet.moderationStatus`). */
  moderationStatus?: string;
};

/** A comment resource (YouTube Data API › Comments); a reply names its top-level comment in `parentId`. */
function commentOf(
  videoId: string,
  channelId: string,
  thread: ThreadComment,
  mine: boolean,
  parentId?: string,
) {
  const snippet = {
    channelId,
    videoId,
    textDisplay: thread.text,
    // The original text is only guaranteed to the comment's author.
    ...(mine ? { textOriginal: thread.text } : {}),
    authorDisplayName: `@${thread.username}`,
    authorProfileImageUrl: "",
    authorChannelUrl: `http://www.youtube.com/@${encodeURIComponent(thread.username)}`,
    authorChannelId: { value: thread.authorId },
    canRate: true,
    viewerRating: "none",
    likeCount: 0,
    publishedAt: thread.at,
    updatedAt: thread.at,
    ...(parentId ? { parentId } : {}),
    ...(thread.moderationStatus ? { moderationStatus: thread.moderationStatus } : {}),
  };
  return { kind: "youtube#comment", etag: etag(), id: thread.id, snippet };
}

/**
 * A commentThread resource: its top-level comment and, with `part=replies`, the replies to it, oldest
 * first.
 */
export function threadOf(
  videoId: string,
  channelId: string,
  thread: ThreadComment,
  mine: boolean,
  replies: ThreadComment[] = [],
  withReplies = false,
) {
  return {
    kind: "youtube#commentThread",
    etag: etag(),
    id: thread.id,
    snippet: {
      channelId,
      videoId,
      topLevelComment: commentOf(videoId, channelId, thread, mine),
      canReply: true,
      totalReplyCount: replies.length,
      isPublic: true,
    },
    ...(withReplies && replies.length > 0
      ? {
          replies: {
            comments: replies.map((reply) => commentOf(videoId, channelId, reply, false, thread.id)),
          },
        }
      : {}),
  };
}

const commentThreadInsert = z.object({
  snippet: z.object({
    channelId: z.string().optional(),
    videoId: z.string().min(1).max(64),
    topLevelComment: z.object({ snippet: z.object({ textOriginal: z.string() }) }),
  }),
});
const commentInsert = z.object({
  snippet: z.object({ parentId: z.string().min(1).max(200), textOriginal: z.string() }),
});

/** videos.list by id: what the caller may see of each. */
export async function listVideos(emulated: Emulated, req: Req): Promise<Response> {
  const caller = await emulated.caller();
  const parts = partsOf(req, [
    "id",
    "snippet",
    "status",
    "statistics",
    "contentDetails",
    "processingDetails",
    "player",
    "topicDetails",
    "recordingDetails",
    "fileDetails",
    "liveStreamingDetails",
    "localizations",
    "suggestions",
  ]);
  const ids = req.query("id");
  if (!ids)
    return refuse(400, "invalid_request", "No filter selected. Expected one of: id, myRating, chart", {
      code: "missingRequiredParameter",
    });
  const list = ids.split(",").filter((id) => id !== "");
  if (list.length > 50)
    return refuse(400, "invalid_request", "At most 50 ids at a time.", { code: "invalidParameter" });
  const items = [];
  for (const id of list) {
    const seen = await visibleVideo(emulated, caller, id);
    if (seen) items.push(await videoOf(emulated, seen.post, parts, seen.owner));
  }
  return json(listAnswer("youtube#videoListResponse", items, items.length, items.length));
}

/** playlistItems.list: the caller's uploads playlist, newest first. */
export async function listPlaylistItems(emulated: Emulated, req: Req): Promise<Response> {
  const caller = await emulated.caller();
  const parts = partsOf(req, ["id", "snippet", "contentDetails", "status"]);
  const playlistId = req.query("playlistId");
  if (!playlistId)
    return refuse(400, "invalid_request", "No filter selected. Expected one of: id, playlistId", {
      code: "missingRequiredParameter",
    });
  const channelId = caller.platformId;
  if (playlistId !== uploadsOf(channelId))
    return refuse(
      404,
      "not_found",
      "The playlist identified with the request's playlistId parameter cannot be found.",
      {
        code: "playlistNotFound",
      },
    );
  const size = maxResultsOf(req, 5, 50);
  const videos = (await emulated.posts(caller.handle)).reverse();
  const { page, next, total } = paged(req, videos, size);
  const items = page.map((post, index) => {
    const request = post.platform_request as VideoResource;
    const item: Record<string, unknown> = {
      kind: "youtube#playlistItem",
      etag: etag(),
      id: toBase64Url(new TextEncoder().encode(`${playlistId}.${post.id}`)),
    };
    if (parts.has("snippet"))
      item.snippet = {
        publishedAt: post.published_at,
        channelId,
        title: request.snippet.title,
        description: request.snippet.description ?? "",
        channelTitle: caller.handle,
        playlistId,
        position: index,
        resourceId: { kind: "youtube#video", videoId: post.id },
      };
    if (parts.has("contentDetails"))
      item.contentDetails = { videoId: post.id, videoPublishedAt: post.published_at };
    if (parts.has("status")) item.status = { privacyStatus: request.status?.privacyStatus ?? "public" };
    return item;
  });
  return json(listAnswer("youtube#playlistItemListResponse", items, size, total, next));
}

/** commentThreads.insert: a top-level comment on a video the caller can see (the auto-plug). */
export async function insertCommentThread(emulated: Emulated, req: Req): Promise<Response> {
  const caller = await emulated.caller();
  partsOf(req, ["id", "snippet", "replies"]);
  const body = await emulated.json(commentThreadInsert);
  const text = body.snippet.topLevelComment.snippet.textOriginal;
  checkCommentText(text);
  const seen = await visibleVideo(emulated, caller, body.snippet.videoId);
  if (!seen)
    return refuse(404, "not_found", "The video identified by the videoId parameter could not be found.", {
      code: "videoNotFound",
    });
  const channelId = await emulated.platformId(seen.post.handle);
  if (body.snippet.channelId !== undefined && body.snippet.channelId !== channelId)
    return refuse(400, "invalid_request", "The channelId is not the channel of the video.", {
      code: "invalidChannelId",
    });
  const outcome = await emulated.attempt(caller.handle, `comment:${body.snippet.videoId}:${text}`, text);
  const published = await emulated.publish({
    id: newThreadId(),
    handle: caller.handle,
    items: [{ text, media: [] }],
    platformRequest: body,
    parentId: body.snippet.videoId,
  });
  if (outcome === "lost") return lostAnswer();
  return json(
    threadOf(
      body.snippet.videoId,
      channelId,
      {
        id: published.id,
        text,
        name: caller.handle,
        username: caller.handle,
        authorId: caller.platformId,
        at: new Date(published.publishedAt).toISOString(),
      },
      true,
    ),
  );
}

/**
 * comments.insert: a reply in a thread, `snippet.parentId` naming its top-level comment (the channel's
 * own anywhere, or the audience's on the caller's videos); stored under the video.
 */
export async function insertComment(emulated: Emulated, req: Req): Promise<Response> {
  const caller = await emulated.caller();
  // comments.insert: "requires authorization with … youtube.force-ssl" (Comments: insert, Authorization).
  requireScope(caller, [FORCE_SSL], "Request had insufficient authentication scopes.", {
    code: "insufficientPermissions",
  });
  partsOf(req, ["id", "snippet"]);
  const body = await emulated.json(commentInsert);
  checkCommentText(body.snippet.textOriginal);
  const parent = await locate(emulated, caller, body.snippet.parentId);
  if (!parent)
    return refuse(404, "not_found", "The comment identified by the parentId parameter could not be found.", {
      code: "parentCommentNotFound",
    });
  // YouTube threads replies under top-level comments only (the emulator's reading: docs/platforms.md).
  if (parent.comment.parentId !== null)
    return refuse(400, "invalid_request", "A reply's parentId must be a top-level comment.", {
      code: "operationNotSupported",
    });
  const text = body.snippet.textOriginal;
  const outcome = await emulated.attempt(caller.handle, `reply:${parent.comment.id}:${text}`, text);
  const published = await emulated.publish({
    id: `${parent.comment.id}.${randomId(22)}`,
    handle: caller.handle,
    items: [{ text, media: [] }],
    platformRequest: body,
    parentId: parent.video.id,
  });
  if (outcome === "lost") return lostAnswer();
  const at = new Date(published.publishedAt).toISOString();
  return json({
    kind: "youtube#comment",
    etag: etag(),
    id: published.id,
    snippet: {
      channelId: await emulated.platformId(caller.handle),
      textDisplay: text,
      textOriginal: text,
      parentId: parent.comment.id,
      authorDisplayName: `@${caller.handle}`,
      authorChannelUrl: `http://www.youtube.com/@${encodeURIComponent(caller.handle)}`,
      authorChannelId: { value: caller.platformId },
      canRate: true,
      viewerRating: "none",
      likeCount: 0,
      publishedAt: at,
      updatedAt: at,
    },
  });
}
