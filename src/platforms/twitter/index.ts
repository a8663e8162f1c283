// X (Twitter): OAuth 2.0 Authorization Code Flow with PKCE (required), confidential client (HTTP Basic on
// the token endpoint), identity from GET /2/users/me. docs.x.com › OAuth 2.0 › User access token.
// Publishing through the X API v2: publishing.ts.

import { accessToken, bearerGet, child, flatIdentity, text } from "../adapter";
import { definePlatform } from "../define";
import { HOSTS } from "./api";
import { twitterPublishing } from "./publishing";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";

const SCOPES = ["tweet.read", "users.read"];

/**
 * A connect publishes posts and threads with media (tweet.write, media.write), reads them back for
 * `find`, metrics and replies (tweet.read, users.read), and keeps a refresh token (offline.access: without
 * it the access token dies after two hours).
 */
const CONNECT_SCOPES = ["tweet.read", "tweet.write", "users.read", "media.write", "offline.access"];

export const twitter = definePlatform({
  platform: "twitter",
  label: "X (Twitter)",
  // Refresh tokens are single use (each refresh answers the next) and their life unused is not
  // documented: refreshed monthly, an idle account's grant never goes stale.
  keepAlive: { every: 30 * 86_400 },
  endpoints: {
    authorize: `${HOSTS.web}/i/oauth2/authorize`,
    token: `${HOSTS.api}/2/oauth2/token`,
    identity: `${HOSTS.api}/2/users/me`,
  },
  scopes: SCOPES,
  connect: { scopes: CONNECT_SCOPES },
  scopeSeparator: " ",
  pkce: true,
  clientIdParam: "client_id",
  tokenAuth: "basic",
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body),
  identityRequest: bearerGet(`?${new URLSearchParams({ "user.fields": "profile_image_url,verified" })}`),
  parseIdentity: (body, token) => {
    const user = child(body, "data");
    const identity = flatIdentity("id", "username")(user, token);
    if (!identity) return null;
    const name = text(user, "name");
    if (name) identity.name = name;
    const avatar = text(user, "profile_image_url");
    if (avatar) identity.avatar = avatar;
    const verified = child(user, "verified");
    if (typeof verified === "boolean") identity.verified = verified;
    return identity;
  },
  publishing: (context) => twitterPublishing(context),
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
});
