// Pinterest API v5 as developers.pinterest.com documents it, for the real adapter (src/platforms/pinterest/)
// on the sandbox: the router, mounting the route groups: OAuth and the account (token.ts), boards and Pins
// (publish.ts), video media and its storage form (media.ts), Pin analytics (read.ts); errors in
// Pinterest's `{code, message}` (errors.ts). docs/platforms.md › Pinterest › The emulator names each
// page followed.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { emulate, emulatorRouter } from "../emulator";
import { pinterestError } from "./errors";
import { mediaOf, registerMedia, storageUpload } from "./media";
import { boards, createPin, getPin, listPins } from "./publish";
import { analytics } from "./read";
import { token, userAccount } from "./token";

type Ctx = Context<BareEnv>;

const pinterest = (c: Ctx) => emulate(c, "pinterest");
const query = (c: Ctx) => new URL(c.req.url).searchParams;

export const pinterestEmulator = emulatorRouter(pinterestError);

pinterestEmulator
  .post("/v5/oauth/token", async (c) => c.json(await token(pinterest(c), c.req.raw)))
  .get("/v5/user_account", async (c) => c.json(await userAccount(pinterest(c))))
  .get("/v5/boards", async (c) => c.json(await boards(pinterest(c), c.req.query("privacy"))))
  .post("/v5/pins", (c) => createPin(pinterest(c)))
  .get("/v5/pins", async (c) => c.json(await listPins(pinterest(c), query(c))))
  .get("/v5/pins/:pin_id", async (c) => c.json(await getPin(pinterest(c), c.req.param("pin_id"))))
  .get("/v5/pins/:pin_id/analytics", async (c) =>
    c.json(await analytics(pinterest(c), c.req.param("pin_id"), query(c))),
  )
  .post("/v5/media", async (c) => c.json(await registerMedia(pinterest(c)), 201))
  .get("/v5/media/:media_id", async (c) => c.json(await mediaOf(pinterest(c), c.req.param("media_id"))))
  // A Pin's page on the site (www.pinterest.com/pin/{id}/): the sandbox's page of the post.
  .get("/pin/:pin_id/", (c) => c.redirect(pinterest(c).postUrl(c.req.param("pin_id")), 302))
  // upload_url, on the storage host the adapter declares (HOSTS.upload): its root, `/sandbox/pinterest/`.
  .post("/*", async (c, next) => {
    if (new URL(c.req.url).pathname === "/sandbox/pinterest/") return storageUpload(pinterest(c), c.req.raw);
    await next();
  });
