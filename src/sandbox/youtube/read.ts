// The reads of a video on the YouTube emulator: commentThreads.list by video, the audience's comments (the
// sandbox's deterministic ones) and the channels' own, newest first, paged. The statistics are part of
// the video resource (publish.ts, videos.list part=statistics).
// developers.google.com › YouTube Data API › CommentThreads: list.

import { type Emulated, refuse } from "../emulator";
import { sandboxPlatformId } from "../shapes";
import { json } from "./errors";
import { threadOf, visibleVideo } from "./publish";
import { listAnswer, maxResultsOf, paged, partsOf, type Req } from "./rules";

/** commentThreads.list by video: the audience's comments and the channels' own, newest first. */
export async function listCommentThreads(emulated: Emulated, req: Req): Promise<Response> {
  const caller = await emulated.caller();
  const parts = partsOf(req, ["id", "snippet", "replies"]);
  const videoId = req.query("videoId");
  if (!videoId)
    return refuse(
      400,
      "invalid_request",
      "No filter selected. Expected one of: videoId, allThreadsRelatedToChannelId, id",
      {
        code: "missingRequiredParameter",
      },
    );
  const seen = await visibleVideo(emulated, caller, videoId);
  if (!seen)
    return refuse(404, "not_found", "The video identified by the videoId parameter could not be found.", {
      code: "videoNotFound",
    });
  const channelId = await emulated.platformId(seen.post.handle);
  const comments = (await emulated.comments(videoId)) ?? [];
  const view = async (comment: (typeof comments)[number]) => ({
    id: comment.id,
    text: comment.text,
    name: comment.author.name,
    username: comment.author.username,
    authorId: await sandboxPlatformId("youtube", comment.author.username),
    at: new Date(comment.created_at).toISOString(),
  });
  // A follower's reply is in its thread's `replies`, not a thread of its own.
  const audience = comments
    .filter((comment) => comment.parent_id === null)
    .map(async (comment) => ({
      at: comment.created_at,
      thread: threadOf(
        videoId,
        channelId,
        await view(comment),
        false,
        await Promise.all(comments.filter((reply) => reply.parent_id === comment.id).map(view)),
        parts.has("replies"),
      ),
    }));
  const own = (await emulated.replies(videoId)).map(async (reply) => ({
    at: Date.parse(reply.published_at),
    thread: threadOf(
      videoId,
      channelId,
      {
        id: reply.id,
        text: reply.text.join("\n"),
        name: reply.handle,
        username: reply.handle,
        authorId: await emulated.platformId(reply.handle),
        at: reply.published_at,
      },
      reply.handle === caller.handle,
    ),
  }));
  const order = req.query("order") ?? "time";
  const all = (await Promise.all([...audience, ...own])).sort((a, b) => b.at - a.at).map((t) => t.thread);
  if (order !== "time" && order !== "relevance")
    return refuse(400, "invalid_request", `Invalid value '${order}' for order.`, {
      code: "invalidParameter",
    });
  const { page, next } = paged(req, all, maxResultsOf(req, 20, 100));
  return json(listAnswer("youtube#commentThreadListResponse", page, page.length, all.length, next));
}
