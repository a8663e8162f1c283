// Threads API: the Authorization Window at threads.com, the code exchanged at graph.threads.net
// /oauth/access_token (answers access_token and user_id), identity from /v1.0/me. No PKCE.
// developers.facebook.com › Threads › Get Access Tokens; Threads Profiles.
import { accessToken, flatIdentity, tokenInQuery } from "./adapter";
import type { PlatformSpec } from "./types";

export const threads: PlatformSpec = {
  platform: "threads",
  label: "Threads",
  endpoints: {
    authorize: "https://threads.com/oauth/authorize",
    token: "https://graph.threads.net/oauth/access_token",
    identity: "https://graph.threads.net/v1.0/me",
  },
  scopes: ["threads_basic"],
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "body",
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body, "user_id"),
  identityRequest: tokenInQuery("id,username"),
  parseIdentity: flatIdentity("id", "username"),
};
