import { utf8 } from "../../lib/encoding";
import { digits } from "../../platforms/sandbox/ids";
import { emulate, type emulatorRouter } from "../emulator";
import { pick, VERSION } from "../meta-graph";
import { exchangeCode, exchangeToken, refreshToken } from "../meta-tokens";
import type { SandboxShape } from "../shapes";

/** The emulator's router, as its route groups extend it. */
type Router = ReturnType<typeof emulatorRouter>;

/** The permissions the emulator grants a connect (Business Login for Instagram › permissions). */
const GRANTED = "instagram_business_basic";

/** Instagram's OAuth facts: ids (178414 then 11 digits), the code's one-hour token, no refresh token. */
export const instagramShape: SandboxShape = {
  // The consent and token endpoints as Instagram API with Instagram Login › Business Login names them.
  label: "Instagram",
  paths: { authorize: "/oauth/authorize", token: "/oauth/access_token", identity: "/v25.0/me" },
  clientIdParam: "client_id",
  pkce: false,
  denial: "access_denied",
  platformId: (digest) => `178414${digits(digest, 11)}`,
  // The code yields a short-lived token (an hour); the answer does not say so.
  accessTtl: 3600,
  refresh: null,
  tokenResponse: (tokens, id) => ({
    data: [{ access_token: tokens.accessToken, user_id: id, permissions: GRANTED }],
  }),
  identityResponse: (id, handle) => ({ user_id: id, username: handle, id }),
};

/** The token exchanges and /me. */
export function tokenRoutes(app: Router) {
  return (
    app
      // api.instagram.com: the code for a short-lived token, refused in this endpoint's own shape.
      .post("/oauth/access_token", (c) =>
        exchangeCode(c.req.raw, emulate(c, "instagram"), (message) =>
          Response.json({ error_type: "OAuthException", code: 400, error_message: message }, { status: 400 }),
        ),
      )
      .get("/access_token", async (c) =>
        c.json(await exchangeToken(emulate(c, "instagram"), c.req.url, "ig_exchange_token")),
      )
      .get("/refresh_access_token", async (c) =>
        c.json(await refreshToken(emulate(c, "instagram"), c.req.url, "ig_refresh_token")),
      )
      .get(`/${VERSION}/me`, async (c) => {
        const emu = emulate(c, "instagram");
        const caller = await emu.caller();
        const appScoped = digits(
          new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(`app-scoped:${caller.handle}`))),
          17,
        );
        const posts = await emu.posts(caller.handle);
        const me = {
          id: appScoped,
          user_id: caller.platformId,
          username: caller.handle,
          name: caller.handle,
          account_type: "BUSINESS",
          profile_picture_url: `${emu.base}/media/profile`,
          followers_count: 0,
          follows_count: 0,
          media_count: posts.length,
        };
        return c.json(pick(me, c.req.query("fields"), []));
      })
  );
}
