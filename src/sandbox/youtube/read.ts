// The reads of a video on the YouTube emulator: commentThreads.list by video, the audience's comments (the
// sandbox's deterministic ones) and the channels' own, newest first, paged; the published ones, or (to
// the video's owner, `moderationStatus`) those held for review, with each comment's status shown to the
// owner. The statistics are part of
// the video resource (publish.ts, videos.list part=statistics).
// developers.google.com › YouTube Data API › CommentThreads: list.

import { type Emulated, refuse } from "../emulator";
import { type VideoComment, videoComments } from "./comments";
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
  // moderationStatus: the owner's filter (published unless asked); YouTube refuses it to anyone else.
  const wanted = req.query("moderationStatus") ?? "published";
  if (!["heldForReview", "likelySpam", "published"].includes(wanted))
    return refuse(400, "invalid_request", `Invalid value '${wanted}' for moderationStatus.`, {
      code: "invalidParameter",
    });
  if (req.query("moderationStatus") !== undefined && !seen.owner)
    return refuse(403, "forbidden", "Only the video's owner may filter by moderationStatus.", {
      code: "forbidden",
    });
  const channelId = await emulated.platformId(seen.post.handle);
  const comments = await videoComments(emulated, seen.post);
  const view = (comment: VideoComment) => ({
    id: comment.id,
    text: comment.text,
    name: comment.name,
    username: comment.username,
    authorId: comment.authorId,
    at: comment.at,
    ...(seen.owner ? { moderationStatus: comment.status } : {}),
  });
  // A reply is in its thread's `replies`, not a thread of its own; only the published ones show.
  const all = comments
    .filter((comment) => comment.parentId === null && comment.status === wanted)
    .reverse()
    .map((comment) =>
      threadOf(
        videoId,
        channelId,
        view(comment),
        comment.channel === caller.handle,
        comments.filter((reply) => reply.parentId === comment.id && reply.status === "published").map(view),
        parts.has("replies"),
      ),
    );
  const order = req.query("order") ?? "time";
  if (order !== "time" && order !== "relevance")
    return refuse(400, "invalid_request", `Invalid value '${order}' for order.`, {
      code: "invalidParameter",
    });
  const { page, next } = paged(req, all, maxResultsOf(req, 20, 100));
  return json(listAnswer("youtube#commentThreadListResponse", page, page.length, all.length, next));
}
