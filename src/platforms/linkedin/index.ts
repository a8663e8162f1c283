// LinkedIn: Sign In with LinkedIn using OpenID Connect (scopes openid profile) proves who the member
// is, identity from the OIDC userinfo endpoint (sub, name, picture). LinkedIn offers PKCE only to native
// apps, so a web server flow sends none, and exposes no public handle through this product: `name`
// stands in. A connect also asks for Share on LinkedIn (w_member_social) and the Community Management
// API (organization posting, reading and statistics; member post analytics), then offers the member's
// profile and the pages they administer as channels. Publishing goes through the versioned REST API
// (api.ts). learn.microsoft.com › LinkedIn › Sign In with LinkedIn using OpenID Connect; Community
// Management API; Posts API.

import { accessToken, bearerGet, flatIdentity, text } from "../adapter";
import { callPlatform } from "../call";
import { definePlatform } from "../define";
import type { Publishing, PublishingContext } from "../types";
import { HOSTS, linkedinApi } from "./api";
import { channels } from "./channels";
import { comments, insights } from "./insights";
import type { MediaOptions } from "./media";
import { find, publish, reply } from "./publish";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";

const identityOf = flatIdentity("sub", "name");

/** LinkedIn's publishing half; `media` bounds the wait for video processing (tests shorten it). */
export function linkedinPublishing(context: PublishingContext, media: MediaOptions = {}): Publishing {
  const api = linkedinApi(context);
  return {
    publish: (account, draft) => publish(api, account, draft, media),
    find: (account, lookup) => find(api, account, lookup),
    insights: (account, post) => insights(api, account, post),
    comments: (account, post) => comments(api, account, post),
    reply: (account, post, message) => reply(api, account, post, message),
    channels: (token, identity) => channels(api, token, identity),
    async revoke(account) {
      if (!account.accessToken) return;
      const { clientId, clientSecret } = context.credentials;
      await callPlatform(
        context.fetch,
        "LinkedIn token revocation",
        api.revokeUrl,
        {
          method: "POST",
          headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            client_id: clientId,
            client_secret: clientSecret,
            token: account.accessToken,
          }),
        },
        { quoteErrors: false },
      );
    },
  };
}

export const linkedin = definePlatform({
  platform: "linkedin",
  label: "LinkedIn",
  // Access tokens live 60 days (the refresh token a fixed 365 from the consent, not extended by use):
  // renewed a week before they end, so a publish never waits on a refresh.
  keepAlive: { beforeExpiry: 7 * 86_400 },
  endpoints: {
    authorize: "https://www.linkedin.com/oauth/v2/authorization",
    token: "https://www.linkedin.com/oauth/v2/accessToken",
    identity: "https://api.linkedin.com/v2/userinfo",
  },
  scopes: ["openid", "profile"],
  connect: {
    scopes: [
      "openid",
      "profile",
      "w_member_social",
      "w_organization_social",
      "r_organization_social",
      "rw_organization_admin",
      "r_member_postAnalytics",
    ],
  },
  scopeSeparator: " ",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "body",
  denialErrors: ["user_cancelled_login", "user_cancelled_authorize", "access_denied"],
  parseToken: (body) => accessToken(body),
  identityRequest: bearerGet(),
  parseIdentity(body, token) {
    const identity = identityOf(body, token);
    if (!identity) return null;
    const name = text(body, "name");
    const picture = text(body, "picture");
    return { ...identity, ...(name ? { name } : {}), ...(picture ? { avatar: picture } : {}) };
  },
  publishing: (context) => linkedinPublishing(context),
  hosts: HOSTS,
  capabilities: {
    text: true,
    images: true,
    video: true,
    carousels: true,
    threads: "comments",
    stories: false,
    replies: true,
    comments: true,
    insights: true,
  },
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
});
