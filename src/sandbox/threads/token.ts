import { digits } from "../../platforms/sandbox/ids";
import { emulate, type emulatorRouter } from "../emulator";
import { metaErrorResponse, pick, VERSION } from "../meta-graph";
import { exchangeCode, exchangeToken, refreshToken } from "../meta-tokens";
import type { SandboxShape } from "../shapes";

/** The emulator's router, as its route groups extend it. */
type Router = ReturnType<typeof emulatorRouter>;

/** Threads' OAuth facts: 17-digit user ids, the code's one-hour token, no refresh token. */
export const threadsShape: SandboxShape = {
  // The consent and token endpoints as Threads API › Get Access Tokens and Permissions names them.
  label: "Threads",
  paths: { authorize: "/oauth/authorize", token: "/oauth/access_token", identity: "/v1.0/me" },
  clientIdParam: "client_id",
  pkce: false,
  denial: "access_denied",
  platformId: (digest) => digits(digest, 17),
  // A short-lived token (an hour), exchanged for a long-lived one outside OAuth's refresh grant.
  accessTtl: 3600,
  refresh: null,
  tokenResponse: (tokens, id) => ({ access_token: tokens.accessToken, user_id: id }),
  identityResponse: (id, handle) => ({ id, username: handle }),
};

/** The token exchanges and /me. */
export function tokenRoutes(app: Router): void {
  app
    .post("/oauth/access_token", (c) =>
      exchangeCode(c.req.raw, emulate(c, "threads"), (message) =>
        metaErrorResponse({ status: 400, type: "OAuthException", code: 100, message }),
      ),
    )
    .get("/access_token", async (c) =>
      c.json(await exchangeToken(emulate(c, "threads"), c.req.url, "th_exchange_token")),
    )
    .get("/refresh_access_token", async (c) =>
      c.json(await refreshToken(emulate(c, "threads"), c.req.url, "th_refresh_token")),
    )
    .get(`/${VERSION}/me`, async (c) => {
      const emu = emulate(c, "threads");
      const caller = await emu.caller();
      const me = {
        id: caller.platformId,
        username: caller.handle,
        name: caller.handle,
        threads_profile_picture_url: `${emu.base}/media/profile`,
        threads_biography: "",
      };
      return c.json(pick(me, c.req.query("fields"), []));
    });
}
