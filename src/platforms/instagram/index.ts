// Instagram API with Instagram Login (Business Login for Instagram): no PKCE; the code is exchanged at
// api.instagram.com, the profile read from graph.instagram.com /me, whose `user_id` is the professional
// account's id (`id` is app-scoped). developers.facebook.com › Instagram Platform › Business Login. The
// docs' /me example puts access_token in the query; graph.instagram.com also reads it from an
// `Authorization: Bearer` header (as the Instagram API with Instagram Login's messaging and publishing
// examples send it), which keeps the token out of URL logs.
//
// A connect asks for the publishing, comments and insights permissions and swaps the short-lived token
// for a long-lived one, refreshed with ig_refresh_token (token.ts). The login is the professional
// account itself (the user picks it on Instagram's consent screen), so there are no channels.

import { accessToken, bearerGet, child, flatIdentity } from "../adapter";
import { definePlatform } from "../define";
import type { AccountAuth, Publishing, PublishingContext } from "../types";
import { HOSTS, igApi } from "./api";
import { commentRules, deleteComment, hideComment, replyToComment } from "./comments";
import { findOnInstagram, publishToInstagram, replyOnInstagram } from "./publish";
import { mediaComments, mediaInsights } from "./read";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";
import { longLivedInstagramToken, refreshInstagramToken } from "./token";

/**
 * The publishing half: every call acts as the connected professional account with its Instagram user
 * token (api.ts). The Instagram API with Instagram Login has no token revocation endpoint, so a
 * disconnect only forgets the token: no `revoke`.
 */
export function instagramPublishing(context: PublishingContext): Publishing {
  const api = (account: AccountAuth) => igApi(context, account);
  return {
    publish: async (account, draft) => publishToInstagram(api(account), draft),
    find: async (account, lookup) => findOnInstagram(api(account), lookup),
    insights: async (account, mediaId) => mediaInsights(api(account), mediaId),
    comments: async (account, mediaId) => mediaComments(api(account), mediaId, account),
    reply: async (account, mediaId, text) => replyOnInstagram(api(account), mediaId, text),
    replyToComment: async (account, comment, text) => replyToComment(api(account), comment, text),
    hideComment: async (account, comment, hidden) => hideComment(api(account), comment, hidden),
    deleteComment: async (account, comment) => deleteComment(api(account), comment),
  };
}

/** How long after publication a story has insights. */
const STORY_INSIGHTS_SECONDS = 86_400;

export const instagram = definePlatform({
  platform: "instagram",
  label: "Instagram",
  endpoints: {
    authorize: "https://www.instagram.com/oauth/authorize",
    token: "https://api.instagram.com/oauth/access_token",
    identity: "https://graph.instagram.com/v25.0/me",
  },
  scopes: ["instagram_business_basic"],
  connect: {
    scopes: [
      "instagram_business_basic",
      "instagram_business_content_publish",
      "instagram_business_manage_comments",
      "instagram_business_manage_insights",
    ],
  },
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "body",
  denialErrors: ["access_denied"],
  parseToken(body) {
    // Documented as {data: [{access_token, user_id, permissions}]}; also seen flat.
    const data = child(body, "data");
    return accessToken(Array.isArray(data) ? data[0] : body, "user_id");
  },
  identityRequest: bearerGet("?fields=user_id,username"),
  parseIdentity: flatIdentity("user_id", "username"),
  connectToken: longLivedInstagramToken,
  refresh: refreshInstagramToken,
  // A long-lived token lives 60 days and is renewed only while valid and at least a day old: renewed
  // at half its life, so an idle account never reaches the end of it.
  keepAlive: { beforeExpiry: 30 * 86_400 },
  // Meta refreshes a long-lived token only once it is a day old: a 401 before then is passing.
  refreshableAfter: 86_400,
  publishing: (context) => instagramPublishing(context),
  // Story metrics are only available for 24 hours (Instagram Media Insights › Limitations).
  insightsLifetime: (settings) => (settings.post_type === "story" ? STORY_INSIGHTS_SECONDS : undefined),
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
  commentRules,
});
