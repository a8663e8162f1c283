// X (Twitter): OAuth 2.0 Authorization Code Flow with PKCE (required), confidential client (HTTP Basic on
// the token endpoint), identity from GET /2/users/me. docs.x.com › OAuth 2.0 › User access token.
import { accessToken, bearerGet, child, flatIdentity } from "./adapter";
import type { PlatformSpec } from "./types";

const SCOPES = ["tweet.read", "users.read"];

export const twitter: PlatformSpec = {
  platform: "twitter",
  label: "X (Twitter)",
  endpoints: {
    authorize: "https://x.com/i/oauth2/authorize",
    token: "https://api.x.com/2/oauth2/token",
    identity: "https://api.x.com/2/users/me",
  },
  scopes: SCOPES,
  scopeSeparator: " ",
  pkce: true,
  clientIdParam: "client_id",
  tokenAuth: "basic",
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body),
  identityRequest: bearerGet(),
  parseIdentity: (body, token) => flatIdentity("id", "username")(child(body, "data"), token),
};
