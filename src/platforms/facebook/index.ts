// Facebook Login, manually built flow: the dialog at www.facebook.com, the code exchanged at the Graph
// API's /oauth/access_token, identity from /me with appsecret_proof. PKCE exists only in the OIDC variant
// (still in testing), so none is sent. Facebook exposes no public handle: `name` stands in. `id` is
// app-scoped. developers.facebook.com › Facebook Login › Manually Build a Login Flow; Securing Graph API
// Requests. The docs show the exchange as a GET with client_secret and code in the query; the Graph API
// takes any parameter as a POST form field too, so they go in a POST body, out of every URL log. The
// user token likewise goes in an `Authorization: Bearer` header, which the Graph API reads as the
// access_token parameter (developers.facebook.com › Graph API › Overview › Access Tokens).
//
// A connect asks for the Pages permissions, swaps the user token for a long-lived one and lets the user
// pick a Page (channels.ts): the account then publishes as that Page, with its Page token.

import { accessToken, flatIdentity } from "../adapter";
import { definePlatform } from "../define";
import type { Publishing, PublishingContext } from "../types";
import { GRAPH, HOSTS, pageApi, permalinkOf } from "./api";
import { pageChannels } from "./channels";
import { commentRules, deleteComment, hideComment, replyToComment } from "./comments";
import { commentAs, publishToPage } from "./publish";
import { findOnPage, postComments, postInsights } from "./read";
import { check, MEDIA, STORY_SECONDS, TEXT_LIMIT } from "./rules";
import { facebookSettings } from "./schemas";
import { settings, settingsShape } from "./settings";
import { CONNECT_SCOPES, identityRequest, longLivedUserToken, SCOPES } from "./token";

export function facebookPublishing(context: PublishingContext): Publishing {
  return {
    publish: async (account, draft) => publishToPage(pageApi(context, account), draft),
    find: async (account, lookup) => findOnPage(pageApi(context, account), lookup),
    insights: async (account, postId) => postInsights(pageApi(context, account), postId),
    comments: async (account, postId) =>
      postComments(pageApi(context, account), postId, account.platformUserId),
    async reply(account, postId, text) {
      // Facebook keeps nothing hidden with a comment: the plug's text is how `find` recognises it.
      const api = pageApi(context, account);
      const id = await commentAs(api, postId, { text, media: [] });
      return { id, url: await permalinkOf(api, id) };
    },
    replyToComment: async (account, comment, text) =>
      replyToComment(pageApi(context, account), comment, text),
    hideComment: async (account, comment, hidden) => hideComment(pageApi(context, account), comment, hidden),
    deleteComment: async (account, comment) => deleteComment(pageApi(context, account), comment),
    channels: (token) => pageChannels(token, context),
  };
}

export const facebook = definePlatform({
  platform: "facebook",
  label: "Facebook",
  endpoints: {
    authorize: "https://www.facebook.com/v25.0/dialog/oauth",
    token: `${GRAPH}/oauth/access_token`,
    identity: `${GRAPH}/me`,
  },
  scopes: SCOPES,
  connect: { scopes: CONNECT_SCOPES },
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "body",
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body),
  identityRequest,
  parseIdentity: flatIdentity("id", "name"),
  connectToken: longLivedUserToken,
  publishing: facebookPublishing,
  // Meta refreshes a long-lived token only once it is a day old: a 401 before then is passing.
  refreshableAfter: 86_400,
  // A story's insights end with the story; a post, reel or video has them for as long as it exists.
  insightsLifetime: (rowSettings) =>
    facebookSettings.parse(rowSettings).post_type === "story" ? STORY_SECONDS : undefined,
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
  commentRules,
});
