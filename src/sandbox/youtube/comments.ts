// The comments of a video on the YouTube emulator, in one list: the audience's (the sandbox's made-up
// ones and the follower tool's) and the channels' own (commentThreads.insert, comments.insert: stored
// under the video, a reply naming its thread's top-level comment in `snippet.parentId`), with what the
// API changed on top: each comment's moderation status (comments.setModerationStatus, by the video's
// owner) and the deleted ones (comments.delete, by their author; a deleted top-level comment takes its
// replies with it). developers.google.com › YouTube Data API › Comments: setModerationStatus; Comments:
// delete; the comment resource's `snippet.moderationStatus`.
import { type Caller, type Emulated, type LedgerPost, refuse, requireScope } from "../emulator";
import { sandboxPlatformId } from "../shapes";
import type { Req } from "./rules";

/** The scope comments.insert, setModerationStatus and delete need (Comments: Authorization). */
export const FORCE_SSL = "https://www.googleapis.com/auth/youtube.force-ssl";

/** The moderation statuses YouTube names (Comments: setModerationStatus; the comment resource). */
export const MODERATION = ["heldForReview", "likelySpam", "published", "rejected"] as const;
export type Moderation = (typeof MODERATION)[number];

export type VideoComment = {
  id: string;
  text: string;
  name: string;
  username: string;
  authorId: string;
  at: string;
  /** The top-level comment it answers; null for a top-level comment. */
  parentId: string | null;
  /** Written through the API by a channel (its handle), else null (the audience's). */
  channel: string | null;
  status: Moderation;
};

const MODERATED = "comment_moderation";
const DELETED = "comment_deleted";

/** Every comment of the video, oldest first, as its owner sees them (every status); deleted ones left out. */
export async function videoComments(emulated: Emulated, video: LedgerPost): Promise<VideoComment[]> {
  const audience = await Promise.all(
    ((await emulated.comments(video.id)) ?? []).map(
      async (comment): Promise<VideoComment> => ({
        id: comment.id,
        text: comment.text,
        name: comment.author.name,
        username: comment.author.username,
        authorId: await sandboxPlatformId("youtube", comment.author.username),
        at: new Date(comment.created_at).toISOString(),
        parentId: comment.parent_id,
        channel: null,
        status: "published",
      }),
    ),
  );
  const own = await Promise.all(
    (await emulated.replies(video.id)).map(async (post): Promise<VideoComment> => {
      const request = post.platform_request as { snippet?: { parentId?: string } } | null;
      return {
        id: post.id,
        text: post.text.join("\n"),
        name: post.handle,
        username: post.handle,
        authorId: await emulated.platformId(post.handle),
        at: post.published_at,
        parentId: request?.snippet?.parentId ?? null,
        channel: post.handle,
        status: "published",
      };
    }),
  );
  const marks = async (kind: string) =>
    (await emulated.objects(video.handle, kind)).filter((mark) => mark.data.video === video.id);
  const deleted = new Set((await marks(DELETED)).map((mark) => String(mark.data.id)));
  // Objects come oldest first: the last status set wins.
  const status = new Map(
    (await marks(MODERATED)).map((mark) => [String(mark.data.id), mark.data.status as Moderation]),
  );
  return [...audience, ...own]
    .filter((c) => !deleted.has(c.id) && !(c.parentId !== null && deleted.has(c.parentId)))
    .map((c) => ({ ...c, status: status.get(c.id) ?? c.status }))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/**
 * The comment `id` among the comments on `caller`'s videos (the emulator looks only there: moderating
 * is the owner's, and its tests delete on the channel's own videos), with its video.
 */
async function findOnOwnVideos(emulated: Emulated, caller: Caller, id: string) {
  for (const video of await emulated.posts(caller.handle)) {
    const found = (await videoComments(emulated, video)).find((comment) => comment.id === id);
    if (found) return { video, comment: found };
  }
  return null;
}

/** The comment `id` on one of the caller's videos, or on any video when the caller wrote it. */
export async function locate(emulated: Emulated, caller: Caller, id: string) {
  const mine = await emulated.post(id);
  const video = mine && mine.parent_id !== null ? await emulated.post(mine.parent_id) : null;
  if (video) {
    const comment = (await videoComments(emulated, video)).find((c) => c.id === id);
    if (comment) return { video, comment };
  }
  return findOnOwnVideos(emulated, caller, id);
}

const notFound = () =>
  refuse(404, "not_found", "The comment identified by the id parameter could not be found.", {
    code: "commentNotFound",
  });

/**
 * comments.setModerationStatus?id=…&moderationStatus=…[&banAuthor=]: the video's owner only (403
 * forbidden otherwise); `published` cannot undo `rejected`; 204.
 */
export async function setModerationStatus(emulated: Emulated, req: Req): Promise<Response> {
  const caller = await emulated.caller();
  requireScope(caller, [FORCE_SSL], "Request had insufficient authentication scopes.", {
    code: "insufficientPermissions",
  });
  const ids = (req.query("id") ?? "").split(",").filter((id) => id !== "");
  const status = req.query("moderationStatus") ?? "";
  if (ids.length === 0 || ids.length > 50)
    return refuse(400, "invalid_request", "The id parameter must name 1 to 50 comments.", {
      code: ids.length === 0 ? "missingRequiredParameter" : "invalidParameter",
    });
  if (status !== "heldForReview" && status !== "published" && status !== "rejected")
    return refuse(400, "invalid_request", `Invalid value '${status}' for moderationStatus.`, {
      code: "invalidParameter",
    });
  if (req.query("banAuthor") === "true" && status !== "rejected")
    return refuse(400, "invalid_request", "The banAuthor parameter can only be used with rejected.", {
      code: "banWithoutReject",
    });
  const found = [];
  for (const id of ids) {
    const located = await locate(emulated, caller, id);
    if (!located) return notFound();
    if (located.video.handle !== caller.handle)
      return refuse(403, "forbidden", "Insufficient permissions to moderate the comment.", {
        code: "forbidden",
      });
    // The emulator's reading of "You can't change the moderation status of a rejected comment to published".
    if (located.comment.status === "rejected" && status === "published")
      return refuse(400, "invalid_request", "A rejected comment cannot be published again.", {
        code: "operationNotSupported",
      });
    found.push(located);
  }
  for (const { video, comment } of found) {
    await emulated.createObject({
      handle: video.handle,
      kind: MODERATED,
      data: { video: video.id, id: comment.id, status },
      upload: false,
    });
  }
  return new Response(null, { status: 204 });
}

/** comments.delete?id=…: the comment's author only (403 forbidden otherwise); 204; 404 commentNotFound. */
export async function deleteComment(emulated: Emulated, req: Req): Promise<Response> {
  const caller = await emulated.caller();
  requireScope(caller, [FORCE_SSL], "Request had insufficient authentication scopes.", {
    code: "insufficientPermissions",
  });
  const id = req.query("id");
  if (!id) return refuse(400, "invalid_request", "No id given.", { code: "missingRequiredParameter" });
  const located = await locate(emulated, caller, id);
  if (!located) return notFound();
  const author = located.comment.channel ?? located.comment.username;
  if (author !== caller.handle)
    return refuse(403, "forbidden", "The comment could not be deleted because of insufficient permissions.", {
      code: "forbidden",
    });
  await emulated.createObject({
    handle: located.video.handle,
    kind: DELETED,
    data: { video: located.video.id, id },
    upload: false,
  });
  return new Response(null, { status: 204 });
}
