// LinkedIn's API as the sandbox emulates it, on LinkedIn's own paths under /sandbox/linkedin: the router
// only. OAuth and identity (token.ts), organizations (channels.ts), posts and comments written
// (publish.ts), uploads (media.ts), comments and numbers read (read.ts), comments deleted (comments.ts), every /rest call checked for
// its LinkedIn-Version and Rest.li headers (errors.ts). The OAuth authorize and token endpoints are the
// sandbox's generic ones, in LinkedIn's token shape (token.ts `linkedinShape`). docs/platforms.md ›
// LinkedIn › The emulator names the documentation page each route follows.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { emulate, emulatorRouter, refuse } from "../emulator";
import { organizationAcls, organizations } from "./channels";
import { deleteComment } from "./comments";
import { checkHeaders, linkedinError, unknownAction } from "./errors";
import {
  batchImages,
  finalizeVideoUpload,
  getImage,
  getVideo,
  initializeImageUpload,
  initializeVideoUpload,
  uploadBytes,
} from "./media";
import { createComment, createPost, feedUpdate, findPosts, getPost } from "./publish";
import { listComments, memberPostAnalytics, shareStatistics, socialMetadata } from "./read";
import { basicProfile, revoke, unauthorizedScope, userinfo } from "./token";

const linkedin = (c: Context<BareEnv>) => emulate(c, "linkedin");

export const linkedinEmulator = emulatorRouter(linkedinError);

linkedinEmulator
  // A scope outside the app's products is refused before the (generic) consent page.
  .use("/oauth/v2/authorization", async (c, next) => {
    const refused = unauthorizedScope(c);
    if (refused) return refused;
    await next();
  })
  .get("/v2/userinfo", (c) => userinfo(c, linkedin(c)))
  .get("/v2/me", (c) => basicProfile(c, linkedin(c)))
  .post("/oauth/v2/revoke", (c) => revoke(c, linkedin(c)))
  .get("/feed/update/:urn", (c) => feedUpdate(c, linkedin(c)))
  .get("/feed/update/:urn/", (c) => feedUpdate(c, linkedin(c)))
  .put("/dms-uploads/:id", (c) => uploadBytes(c, linkedin(c)))
  .put("/dms-uploads/:id/parts/:part", (c) => uploadBytes(c, linkedin(c)))
  .use("/rest/*", async (c, next) => {
    checkHeaders((name) => c.req.header(name), c.req.url);
    await next();
  })
  .post("/rest/posts", (c) => createPost(c, linkedin(c)))
  .get("/rest/posts", (c) => findPosts(c, linkedin(c)))
  .get("/rest/posts/:urn", (c) => getPost(c, linkedin(c)))
  .post("/rest/images", (c) => {
    if (c.req.query("action") !== "initializeUpload") return unknownAction(c.req.query("action"));
    return initializeImageUpload(c, linkedin(c));
  })
  .get("/rest/images", (c) => batchImages(c, linkedin(c)))
  .get("/rest/images/:urn", (c) => getImage(c, linkedin(c)))
  .post("/rest/videos", (c) => {
    const action = c.req.query("action");
    if (action === "initializeUpload") return initializeVideoUpload(c, linkedin(c));
    if (action === "finalizeUpload") return finalizeVideoUpload(c, linkedin(c));
    return unknownAction(action);
  })
  .get("/rest/videos/:urn", (c) => getVideo(c, linkedin(c)))
  .get("/rest/socialActions/:urn/comments", (c) => listComments(c, linkedin(c)))
  .post("/rest/socialActions/:urn/comments", (c) => createComment(c, linkedin(c)))
  .delete("/rest/socialActions/:urn/comments/:id", (c) => deleteComment(c, linkedin(c)))
  .get("/rest/socialMetadata/:urn", (c) => socialMetadata(c, linkedin(c)))
  .get("/rest/organizationAcls", (c) => organizationAcls(c, linkedin(c)))
  .get("/rest/organizations", (c) => organizations(c, linkedin(c)))
  .get("/rest/organizationalEntityShareStatistics", (c) => shareStatistics(c, linkedin(c)))
  .get("/rest/memberCreatorPostAnalytics", (c) => memberPostAnalytics(c, linkedin(c)))
  .all("/rest/*", () =>
    refuse(404, "not_found", "No virtual resource found", { code: "RESOURCE_NOT_FOUND" }),
  );
