// LinkedIn, in one of two app configurations (LINKEDIN_PRODUCTS, token.ts): `member` (default) proves
// who the member is with Sign In with LinkedIn using OpenID Connect (openid profile; identity from the
// OIDC userinfo endpoint: sub, name, picture) and a connect adds Share on LinkedIn (w_member_social):
// the member's profile is the only channel. `community_management` is the Community Management API
// alone on its app: identity from the basic profile (r_basicprofile, /v2/me: id, names, vanity name),
// and a connect asks for its member and organization scopes, then offers the member's profile and the
// pages they administer as channels. LinkedIn offers PKCE only to native apps, so a web server flow
// sends none. OpenID Connect exposes no public handle (`name` stands in); the basic profile's vanity
// name is one. Publishing goes through the versioned REST API (api.ts). learn.microsoft.com › LinkedIn ›
// Sign In with LinkedIn using OpenID Connect; Share on LinkedIn; Community Management API; Profile API;
// Posts API.

import { accessToken, bearerGet } from "../adapter";
import { definePlatform, type PlatformDefinition } from "../define";
import type { Publishing, PublishingContext } from "../types";
import { HOSTS, linkedinApi } from "./api";
import { channels } from "./channels";
import { commentRules, deleteComment, replyToComment } from "./comments";
import type { MediaOptions } from "./media";
import { find, publish, reply } from "./publish";
import { comments, insights } from "./read";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";
import {
  connectScopes,
  IDENTITY,
  type LinkedInApp,
  linkedinApp,
  MEMBER_APP,
  parseIdentity,
  revoke,
  SCOPES,
} from "./token";

/**
 * LinkedIn's publishing half. `app`: the app's configuration (only a Community Management app lists
 * pages as channels; only one granted member analytics reads a member post's numbers); `media` bounds
 * the wait for processing (tests shorten it).
 */
export function linkedinPublishing(
  context: PublishingContext,
  media: MediaOptions = {},
  app: LinkedInApp = MEMBER_APP,
): Publishing {
  const api = linkedinApi(context);
  return {
    publish: (account, draft) => publish(api, account, draft, media),
    find: (account, lookup) => find(api, account, lookup),
    insights: (account, post) => insights(api, account, post, app.memberAnalytics),
    comments: (account, post) => comments(api, account, post),
    reply: (account, post, message) => reply(api, account, post, message),
    replyToComment: (account, comment, text) => replyToComment(api, account, comment, text),
    deleteComment: (account, comment) => deleteComment(api, account, comment),
    channels: (token, identity) => channels(api, token, identity, app.products),
    revoke: (account) => revoke(api, context.credentials, account),
  };
}

/** LinkedIn's definition for `app` (LINKEDIN_PRODUCTS, LINKEDIN_MEMBER_ANALYTICS): its scopes and identity. */
export function linkedinFor(app: LinkedInApp): typeof linkedinBase {
  return {
    ...linkedinBase,
    endpoints: { ...linkedinBase.endpoints, identity: IDENTITY[app.products] },
    scopes: SCOPES[app.products].delegation,
    connect: { scopes: connectScopes(app) },
    publishing: (context: PublishingContext) => linkedinPublishing(context, {}, app),
  };
}

const linkedinBase = definePlatform({
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
  scopes: SCOPES.member.delegation,
  connect: { scopes: SCOPES.member.connect },
  scopeSeparator: " ",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "body",
  denialErrors: ["user_cancelled_login", "user_cancelled_authorize", "access_denied"],
  parseToken: (body) => accessToken(body),
  identityRequest: bearerGet(),
  parseIdentity,
  publishing: (context) => linkedinPublishing(context),
  // LINKEDIN_PRODUCTS picks the app's products (token.ts): their scopes, identity and channels.
  configured: (env: unknown): PlatformDefinition => linkedinFor(linkedinApp(env)),
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
  commentRules,
});

/** The registry's LinkedIn: the `member` app, configured from the environment where it is looked up. */
export const linkedin = linkedinFor(MEMBER_APP);
