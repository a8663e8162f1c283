// The YouTube Data API v3 and Google's OAuth revocation as the sandbox emulates them, following
// developers.google.com (docs/platforms.md › YouTube › The emulator names each page): the router, mounting
// the route groups: the revocation (token.ts), channels.list (channels.ts), videos.insert by the
// resumable upload protocol (media.ts), videos.list, playlistItems.list, commentThreads.insert and
// comments.insert (publish.ts), commentThreads.list (read.ts), comments.setModerationStatus and
// comments.delete (comments.ts); errors in Google's format (errors.ts). The
// code exchange and refresh are the sandbox's generic token endpoint, in Google's answer shape
// (token.ts).
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { emulate, emulatorRouter } from "../emulator";
import { listChannels } from "./channels";
import { deleteComment, setModerationStatus } from "./comments";
import { youtubeError } from "./errors";
import { openUpload, uploadBytes } from "./media";
import { insertComment, insertCommentThread, listPlaylistItems, listVideos } from "./publish";
import { listCommentThreads } from "./read";
import { revoke } from "./token";

type Ctx = Context<BareEnv>;

const youtube = (c: Ctx) => emulate(c, "youtube");

export const youtubeEmulator = emulatorRouter(youtubeError);

youtubeEmulator
  .post("/revoke", (c) => revoke(youtube(c), c.req))
  .get("/youtube/v3/channels", (c) => listChannels(youtube(c), c.req))
  .post("/upload/youtube/v3/videos", (c) => openUpload(youtube(c), c.req))
  .put("/upload/youtube/v3/videos", (c) => uploadBytes(youtube(c), c.req))
  .get("/youtube/v3/videos", (c) => listVideos(youtube(c), c.req))
  .get("/youtube/v3/playlistItems", (c) => listPlaylistItems(youtube(c), c.req))
  .get("/youtube/v3/commentThreads", (c) => listCommentThreads(youtube(c), c.req))
  .post("/youtube/v3/commentThreads", (c) => insertCommentThread(youtube(c), c.req))
  .post("/youtube/v3/comments", (c) => insertComment(youtube(c), c.req))
  .post("/youtube/v3/comments/setModerationStatus", (c) => setModerationStatus(youtube(c), c.req))
  .delete("/youtube/v3/comments", (c) => deleteComment(youtube(c), c.req))
  // The watch page (the adapter's post_url): the sandbox's page of the video.
  .get("/watch", (c) => {
    const id = c.req.query("v");
    if (!id) return c.notFound();
    return c.redirect(youtube(c).postUrl(id), 302);
  });
