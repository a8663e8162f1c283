// Pinterest API v5: authorize at www.pinterest.com/oauth/, exchange the code at /v5/oauth/token with HTTP
// Basic client authentication, identity from GET /v5/user_account. No PKCE is documented.
// developers.pinterest.com › Set up authentication and authorization; user_account.
import { accessToken, bearerGet, flatIdentity } from "./adapter";
import { digits } from "./sandbox/ids";
import type { PlatformSpec } from "./types";

export const pinterest: PlatformSpec = {
  platform: "pinterest",
  label: "Pinterest",
  endpoints: {
    authorize: "https://www.pinterest.com/oauth/",
    token: "https://api.pinterest.com/v5/oauth/token",
    identity: "https://api.pinterest.com/v5/user_account",
  },
  scopes: ["user_accounts:read"],
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "basic",
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body),
  identityRequest: bearerGet(),
  parseIdentity: flatIdentity("id", "username"),
  sandbox: {
    denial: "access_denied",
    platformId: (digest) => digits(digest, 18),
    tokenResponse: (token) => ({
      access_token: token,
      refresh_token: "pinr.sandbox",
      response_type: "authorization_code",
      token_type: "bearer",
      expires_in: 2592000,
      refresh_token_expires_in: 31536000,
      scope: "user_accounts:read",
    }),
    identityResponse: (id, handle) => ({
      account_type: "PINNER",
      id,
      username: handle,
      profile_image: "",
      website_url: "",
      about: "",
      business_name: null,
      board_count: 0,
      pin_count: 0,
      follower_count: 0,
      following_count: 0,
      monthly_views: 0,
    }),
  },
};
