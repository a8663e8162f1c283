// Pinterest API v5, facts and wiring: OAuth (token.ts), publishing (publish.ts, media.ts: Pins and video
// uploads), reads (read.ts: Pin analytics). Pinterest v5 has no comment endpoints: no `comments`, no
// `reply`; it revokes only system users' tokens: no `revoke`.
// developers.pinterest.com › API reference v5.

import { definePlatform } from "../define";
import type { Publishing, PublishingContext } from "../types";
import { HOSTS, LABEL, pinterestApi } from "./api";
import { findPin, publishPin } from "./publish";
import { pinInsights } from "./read";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";
import { CONNECT_SCOPES, EXCHANGE_EXTRAS, identityRequest, parseIdentity, parseToken, SCOPES } from "./token";

function pinterestPublishing(context: PublishingContext): Publishing {
  const api = pinterestApi(context);
  return {
    publish: (account, draft) => publishPin(api, account, draft),
    find: (account, lookup) => findPin(api, account, lookup),
    insights: (account, pinId) => pinInsights(api, account, pinId),
  };
}

export const pinterest = definePlatform({
  platform: "pinterest",
  label: LABEL,
  // Access tokens live 30 days; continuous refresh tokens 60 days, replaced by each refresh: renewed a
  // week before the access token ends, the refresh token never nears its end.
  keepAlive: { beforeExpiry: 7 * 86_400 },
  endpoints: {
    authorize: "https://www.pinterest.com/oauth/",
    token: "https://api.pinterest.com/v5/oauth/token",
    identity: "https://api.pinterest.com/v5/user_account",
  },
  scopes: SCOPES,
  connect: { scopes: CONNECT_SCOPES },
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "basic",
  exchangeExtras: EXCHANGE_EXTRAS,
  denialErrors: ["access_denied"],
  publishing: pinterestPublishing,
  parseToken,
  identityRequest,
  parseIdentity,
  hosts: HOSTS,
  // Trial-access apps may create Pins only on https://api-sandbox.pinterest.com (error code 29 here).
  hostsFromEnv: { PINTEREST_API_BASE: "api" },
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
});
