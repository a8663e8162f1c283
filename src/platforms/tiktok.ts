// TikTok Login Kit for Web (OAuth v2). PKCE is only for the mobile and desktop kits, so the web flow sends
// none. `username` needs user.info.profile. developers.tiktok.com › Login Kit for Web; Get User Info.

import { accessToken, bearerGet, child, text } from "./adapter";
import type { PlatformSpec } from "./types";

const SCOPES = ["user.info.basic", "user.info.profile"];

export const tiktok: PlatformSpec = {
  platform: "tiktok",
  label: "TikTok",
  endpoints: {
    authorize: "https://www.tiktok.com/v2/auth/authorize/",
    token: "https://open.tiktokapis.com/v2/oauth/token/",
    identity: "https://open.tiktokapis.com/v2/user/info/",
  },
  scopes: SCOPES,
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_key",
  tokenAuth: "body",
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body, "open_id"),
  identityRequest: bearerGet("?fields=open_id,username,display_name"),
  parseIdentity(body, token) {
    // TikTok answers 200 with `error.code` other than "ok" when something went wrong.
    const code = text(child(body, "error"), "code");
    if (code && code !== "ok") return null;
    const user = child(child(body, "data"), "user");
    const id = text(user, "open_id") ?? token.userId;
    return id
      ? { platform_id: id, handle: text(user, "username") ?? text(user, "display_name") ?? "" }
      : null;
  },
};
