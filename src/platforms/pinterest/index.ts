// Pinterest API v5: authorize at www.pinterest.com/oauth/, exchange the code at /v5/oauth/token with HTTP
// Basic client authentication, identity from GET /v5/user_account. No PKCE is documented. A connect asks
// for the scopes that create Pins (the v5 reference lists boards:read, boards:write, pins:read and
// pins:write for Create Pin) and read the account; Pinterest always sends a refresh token. Publishing
// (publish.ts, media.ts, insights.ts): Pins, video uploads and Pin analytics. Pinterest revokes only
// tokens of system users (POST /v5/oauth/token/revoke), so a disconnect revokes nothing.
// developers.pinterest.com › Set up authentication and authorization; user_account; Scopes.

import { accessToken, bearerGet, flatIdentity } from "../adapter";
import { definePlatform } from "../define";
import type { Publishing, PublishingContext } from "../types";
import { HOSTS, pinterestApi } from "./api";
import { pinComments, pinInsights, refuseReply } from "./insights";
import { findPin, publishPin } from "./publish";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";

const CONNECT_SCOPES = ["boards:read", "boards:write", "pins:read", "pins:write", "user_accounts:read"];

function pinterestPublishing(context: PublishingContext): Publishing {
  const api = pinterestApi(context);
  return {
    publish: (account, draft) => publishPin(api, account, draft),
    find: (account, lookup) => findPin(api, account, lookup),
    insights: (account, pinId) => pinInsights(api, account, pinId),
    comments: pinComments,
    reply: refuseReply,
  };
}

export const pinterest = definePlatform({
  platform: "pinterest",
  label: "Pinterest",
  // Access tokens live 30 days; continuous refresh tokens 60 days, replaced by each refresh: renewed a
  // week before the access token ends, the refresh token never nears its end.
  keepAlive: { beforeExpiry: 7 * 86_400 },
  endpoints: {
    authorize: "https://www.pinterest.com/oauth/",
    token: "https://api.pinterest.com/v5/oauth/token",
    identity: "https://api.pinterest.com/v5/user_account",
  },
  scopes: ["user_accounts:read"],
  connect: { scopes: CONNECT_SCOPES },
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "basic",
  // A refresh token that is renewed on every refresh (60 days from each), as Pinterest now asks of apps.
  exchangeExtras: { continuous_refresh: "true" },
  denialErrors: ["access_denied"],
  publishing: pinterestPublishing,
  parseToken: (body) => accessToken(body),
  identityRequest: bearerGet(),
  parseIdentity: flatIdentity("id", "username"),
  hosts: HOSTS,
  // Trial-access apps may create Pins only on https://api-sandbox.pinterest.com (error code 29 here).
  hostsFromEnv: { PINTEREST_API_BASE: "api" },
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
});
