// The emulator of the Facebook Graph API as a Page publisher uses it (SANDBOX=true): the real adapter
// (src/platforms/facebook/) runs against these routes with every host at /sandbox/facebook. Each route
// follows the page of developers.facebook.com that docs/platforms.md names (Facebook › The emulator):
// the code exchange and the long-lived token exchange, /me and /me/accounts (the user's Pages, each with
// its Page token), a Page's feed, photos, videos, reels and stories, the Page's posts and reels, a post's
// fields, insights and comments, a comment by the Page (under a post or a comment), a comment hidden, shown or deleted, DELETE
// /me/permissions. Publishing as a Page takes
// that Page's token; insights only go to the Page (or its owner); comments are public.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { emulate, emulatorRouter } from "../emulator";
import { accounts } from "./channels";
import { deleteComment, updateComment } from "./comments";
import { facebookError, throttled } from "./errors";
import { hostedUpload, photoStories, reels, videoStories } from "./media";
import { comment, feed, pagePosts, pageReels, photos, videos } from "./publish";
import { listComments, node, postInsights, videoInsights } from "./read";
import { V } from "./rules";
import { accessToken, type GraphCall, me, revokePermissions } from "./token";

/** A route of the emulator: the handler reads the call (the emulated platform, the request, its path's names). */
const on =
  (handler: (call: GraphCall) => Promise<Response>) =>
  (c: Context<BareEnv>): Promise<Response> =>
    handler({ e: emulate(c, "facebook"), req: c.req.raw, params: c.req.param() });

export const facebookEmulator = emulatorRouter(facebookError);

facebookEmulator
  .get(`${V}/oauth/access_token`, on(accessToken))
  .post(`${V}/oauth/access_token`, on(accessToken))
  .get(`${V}/me`, on(me))
  .get(`${V}/me/accounts`, on(accounts))
  .delete(`${V}/me/permissions`, on(revokePermissions))
  .post(`${V}/:node/feed`, on(throttled(feed)))
  .post(`${V}/:node/photos`, on(throttled(photos)))
  .post(`${V}/:node/videos`, on(throttled(videos)))
  .post(`${V}/:node/video_reels`, on(throttled(reels)))
  .get(`${V}/:node/video_reels`, on(pageReels))
  .post(`${V}/:node/photo_stories`, on(throttled(photoStories)))
  .post(`${V}/:node/video_stories`, on(throttled(videoStories)))
  .get(`${V}/:node/posts`, on(pagePosts))
  .get(`${V}/:node/published_posts`, on(pagePosts))
  .get(`${V}/:node/feed`, on(pagePosts))
  .get(`${V}/:node/insights`, on(postInsights))
  .get(`${V}/:node/video_insights`, on(videoInsights))
  .get(`${V}/:node/comments`, on(listComments))
  .post(`${V}/:node/comments`, on(throttled(comment)))
  .get(`${V}/:node`, on(node))
  .post(`${V}/:node`, on(updateComment))
  .delete(`${V}/:node`, on(deleteComment))
  .post(`/video-upload${V}/:id`, on(hostedUpload));
