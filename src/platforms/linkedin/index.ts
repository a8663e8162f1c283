// LinkedIn, in one of two app configurations (LINKEDIN_PRODUCTS, products.ts): `member` (default) proves
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

import { accessToken, bearerGet, flatIdentity, text } from "../adapter";
import { callPlatform } from "../call";
import { definePlatform, type PlatformDefinition } from "../define";
import type { Publishing, PublishingContext } from "../types";
import { HOSTS, linkedinApi } from "./api";
import { channels } from "./channels";
import { comments, insights } from "./insights";
import type { MediaOptions } from "./media";
import { IDENTITY, type LinkedInProducts, linkedinProducts, SCOPES } from "./products";
import { find, publish, reply } from "./publish";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";

const identityOf = flatIdentity("sub", "name");

/**
 * The member's identity from OpenID userinfo (`sub`, `name`, `picture`) or, on a Community Management
 * app, from the basic profile /v2/me (`id`, `localizedFirstName`, `localizedLastName`, `vanityName`):
 * the same member id either way (LinkedIn's OpenID `sub` is the person URN's id).
 */
function parseIdentity(body: unknown, token: Parameters<typeof identityOf>[1]) {
  if (text(body, "sub")) {
    const identity = identityOf(body, token);
    if (!identity) return null;
    const name = text(body, "name");
    const picture = text(body, "picture");
    return { ...identity, ...(name ? { name } : {}), ...(picture ? { avatar: picture } : {}) };
  }
  const id = text(body, "id");
  if (!id || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const name = [text(body, "localizedFirstName"), text(body, "localizedLastName")]
    .filter((part): part is string => Boolean(part))
    .join(" ");
  // The vanity name is the member's public handle (linkedin.com/in/{vanityName}).
  const vanity = text(body, "vanityName");
  return { platform_id: id, handle: vanity || name || id, ...(name ? { name } : {}) };
}

/**
 * LinkedIn's publishing half. `products`: the app's configuration (only a Community Management app lists
 * pages as channels); `media` bounds the wait for processing (tests shorten it).
 */
export function linkedinPublishing(
  context: PublishingContext,
  media: MediaOptions = {},
  products: LinkedInProducts = "member",
): Publishing {
  const api = linkedinApi(context);
  return {
    publish: (account, draft) => publish(api, account, draft, media),
    find: (account, lookup) => find(api, account, lookup),
    insights: (account, post) => insights(api, account, post),
    comments: (account, post) => comments(api, account, post),
    reply: (account, post, message) => reply(api, account, post, message),
    channels: (token, identity) => channels(api, token, identity, products),
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

/** LinkedIn's definition for an app with `products` (LINKEDIN_PRODUCTS): its scopes and identity. */
export function linkedinFor(products: LinkedInProducts): typeof linkedinBase {
  return {
    ...linkedinBase,
    endpoints: { ...linkedinBase.endpoints, identity: IDENTITY[products] },
    scopes: SCOPES[products].delegation,
    connect: { scopes: SCOPES[products].connect },
    publishing: (context: PublishingContext) => linkedinPublishing(context, {}, products),
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
  // LINKEDIN_PRODUCTS picks the app's products (products.ts): their scopes, identity and channels.
  configured: (env: unknown): PlatformDefinition => linkedinFor(linkedinProducts(env)),
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
});

/** The registry's LinkedIn: the `member` app, configured from the environment where it is looked up. */
export const linkedin = linkedinFor("member");
