// LinkedIn: Sign In with LinkedIn using OpenID Connect (scopes openid profile), identity from the OIDC
// userinfo endpoint. LinkedIn offers PKCE only to native apps, so a web server flow sends none. LinkedIn
// exposes no public handle through this product: `name` stands in. learn.microsoft.com › LinkedIn ›
// Sign In with LinkedIn using OpenID Connect; Authorization Code Flow.
import { accessToken, bearerGet, flatIdentity } from "./adapter";
import type { PlatformSpec } from "./types";

export const linkedin: PlatformSpec = {
  platform: "linkedin",
  label: "LinkedIn",
  endpoints: {
    authorize: "https://www.linkedin.com/oauth/v2/authorization",
    token: "https://www.linkedin.com/oauth/v2/accessToken",
    identity: "https://api.linkedin.com/v2/userinfo",
  },
  scopes: ["openid", "profile"],
  scopeSeparator: " ",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "body",
  denialErrors: ["user_cancelled_login", "user_cancelled_authorize", "access_denied"],
  parseToken: (body) => accessToken(body),
  identityRequest: bearerGet(),
  parseIdentity: flatIdentity("sub", "name"),
};
