// Pinterest API v5: authorize at www.pinterest.com/oauth/, exchange the code at /v5/oauth/token with HTTP
// Basic client authentication, identity from GET /v5/user_account. No PKCE is documented.
// developers.pinterest.com › Set up authentication and authorization; user_account.
import { accessToken, bearerGet, flatIdentity } from "./adapter";
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
};
