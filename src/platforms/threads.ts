// Threads API: the Authorization Window at threads.com, the code exchanged at graph.threads.net
// /oauth/access_token (answers access_token and user_id), identity from /v1.0/me. No PKCE.
// developers.facebook.com › Threads › Get Access Tokens; Threads Profiles. The profile call's token goes
// in an `Authorization: Bearer` header rather than the documented access_token query parameter:
// graph.threads.net is a Graph API host and reads either, and a header stays out of URL logs.
import { accessToken, bearerGet, flatIdentity } from "./adapter";
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
  identityRequest: bearerGet("?fields=id,username"),
  parseIdentity: flatIdentity("id", "username"),
};
