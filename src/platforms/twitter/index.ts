// X (Twitter): the definition. OAuth (token.ts), publishing, find and the auto-plug (publish.ts, media
// uploads in media.ts), insights and comments (read.ts), answering,
// hiding and deleting comments (comments.ts), all through the X API v2 facade (api.ts).
import { definePlatform } from "../define";
import type { Publishing, PublishingContext } from "../types";
import { HOSTS, LABEL, xApi } from "./api";
import { commentRules, deleteComment, hideComment, replyToComment } from "./comments";
import { findPublication, publishPost, replyTo } from "./publish";
import { postComments, postInsights } from "./read";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";
import { CONNECT_SCOPES, identityRequest, parseIdentity, parseToken, revokeTokens, SCOPES } from "./token";

/** The context's `sleep` waits between media status polls (tests pass one that moves a fake clock). */
export function twitterPublishing(context: PublishingContext): Publishing {
  const api = xApi(context);
  const publishing = {
    api,
    now: context.now,
    sleep: (ms: number) => context.sleep(ms),
    uploadTimeoutMs: context.timeouts.upload,
  };
  return {
    publish: (account, draft) => publishPost(publishing, account, draft),
    find: (account, lookup) => findPublication(api, account, lookup),
    insights: (account, postId) => postInsights(api, account, postId),
    comments: (account, postId) => postComments(api, account, postId, context.now),
    reply: (account, postId, text) => replyTo(api, account, postId, text),
    replyToComment: (account, comment, text) => replyToComment(api, account, comment, text),
    hideComment: (account, comment, hidden) => hideComment(api, account, comment, hidden),
    deleteComment: (account, comment) => deleteComment(api, account, comment),
    revoke: (account) => revokeTokens(api, account),
  };
}

export const twitter = definePlatform({
  platform: "twitter",
  label: LABEL,
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
  parseToken,
  identityRequest,
  parseIdentity,
  publishing: (context) => twitterPublishing(context),
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
  commentRules,
});
