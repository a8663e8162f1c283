// TikTok's Open API v2 as the sandbox emulates it, following developers.tiktok.com (docs/platforms.md
// › TikTok › The emulator names each page), mounted at /sandbox/tiktok: Login Kit's user info and token
// revocation (token.ts), the Content Posting API's publishing (publish.ts) and upload URL (media.ts),
// and the Display API (read.ts). The token and code exchange are the sandbox's generic token endpoint,
// in the shape of token.ts. Every answer is TikTok's `{data, error}` (errors.ts).
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { emulate, emulatorRouter } from "../emulator";
import { tiktokError } from "./errors";
import { uploadChunk } from "./media";
import { creatorInfo, fetchStatus, initPhotos, initVideo, postPage } from "./publish";
import { listVideos, queryVideos } from "./read";
import { revoke, userInfo } from "./token";

const tiktok = (c: Context<BareEnv>) => emulate(c, "tiktok");

export const tiktokEmulator = emulatorRouter(tiktokError);

tiktokEmulator
  .get("/v2/user/info/", (c) => userInfo(tiktok(c), c.req.query("fields")))
  .post("/v2/oauth/revoke/", (c) => revoke(tiktok(c), c.req.raw))
  .post("/v2/post/publish/creator_info/query/", (c) => creatorInfo(tiktok(c)))
  .post("/v2/post/publish/video/init/", (c) => initVideo(tiktok(c)))
  .put("/upload/", (c) => uploadChunk(tiktok(c), c.req.raw))
  .post("/v2/post/publish/content/init/", (c) => initPhotos(tiktok(c)))
  .post("/v2/post/publish/status/fetch/", (c) => fetchStatus(tiktok(c)))
  .post("/v2/video/list/", (c) => listVideos(tiktok(c), c.req.query("fields")))
  .post("/v2/video/query/", (c) => queryVideos(tiktok(c), c.req.query("fields")))
  .get("/:at/video/:id", async (c) => {
    const page = await postPage(tiktok(c), c.req.param("at"), c.req.param("id"));
    return page ? c.redirect(page, 302) : c.notFound();
  });
