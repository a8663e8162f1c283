// LinkedIn's API as the sandbox emulates it, on LinkedIn's own paths under /sandbox/linkedin: the
// authorize request's scopes checked against the app's products (LINKEDIN_PRODUCTS, token.ts), OpenID
// userinfo or the basic profile /v2/me, token revocation, the versioned REST API under /rest (every call checked for its
// LinkedIn-Version and Rest.li headers) and the upload URLs it hands out. The OAuth authorize and token
// endpoints (www.linkedin.com/oauth/v2/authorization, /accessToken) are the sandbox's generic ones, in
// LinkedIn's token shape (src/platforms/sandbox/shapes.ts). docs/platforms.md › LinkedIn › The emulator
// names the documentation page each route follows.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { emulate, emulatorRouter, refuse } from "../emulator";
import {
  batchImages,
  finalizeVideoUpload,
  getImage,
  getVideo,
  initializeImageUpload,
  initializeVideoUpload,
  uploadBytes,
} from "./media-routes";
import { createComment, createPost, findPosts, getPost, listComments } from "./posts-routes";
import {
  memberPostAnalytics,
  organizationAcls,
  organizations,
  shareStatistics,
  socialMetadata,
} from "./reads-routes";
import { checkHeaders, linkedinError } from "./rest";
import { basicProfile, revoke, unauthorizedScope, userinfo } from "./token";

type Ctx = Context<BareEnv>;

const linkedin = (c: Ctx) => emulate(c, "linkedin");

/** A post's public page on LinkedIn (feed/update/{urn}/): the sandbox's page of the post. */
function feedUpdate(c: Ctx) {
  const e = linkedin(c);
  return c.redirect(e.postUrl(c.req.param("urn") ?? ""), 302);
}

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
  .get("/feed/update/:urn", (c) => feedUpdate(c))
  .get("/feed/update/:urn/", (c) => feedUpdate(c))
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
  .get("/rest/socialMetadata/:urn", (c) => socialMetadata(c, linkedin(c)))
  .get("/rest/organizationAcls", (c) => organizationAcls(c, linkedin(c)))
  .get("/rest/organizations", (c) => organizations(c, linkedin(c)))
  .get("/rest/organizationalEntityShareStatistics", (c) => shareStatistics(c, linkedin(c)))
  .get("/rest/memberCreatorPostAnalytics", (c) => memberPostAnalytics(c, linkedin(c)))
  .all("/rest/*", () =>
    refuse(404, "not_found", "No virtual resource found", { code: "RESOURCE_NOT_FOUND" }),
  );

function unknownAction(action: string | undefined) {
  return refuse(400, "invalid_request", `Unsupported action: ${action ?? "(none)"}`, {
    code: "ILLEGAL_ARGUMENT",
  });
}
