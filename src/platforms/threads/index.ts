// Threads API: the Authorization Window at threads.com, the code exchanged at graph.threads.net
// /oauth/access_token (answers access_token and user_id), identity from /v1.0/me. No PKCE.
// developers.facebook.com › Threads › Get Access Tokens; Threads Profiles. The profile call's token goes
// in an `Authorization: Bearer` header rather than the documented access_token query parameter:
// graph.threads.net is a Graph API host and reads either, and a header stays out of URL logs.
// A connect asks for publishing, insights, replies and deleting (the inbox deletes the account's replies), and swaps its one-hour token for a 60-day one
// (token.ts); Threads has no endpoint that revokes a token, so `revoke` is absent.

import { accessToken, bearerGet, flatIdentity } from "../adapter";
import { definePlatform } from "../define";
import type { AccountAuth, Publishing, PublishingContext } from "../types";
import { HOSTS, threadsApi, tokenOf } from "./api";
import { commentRules, deleteComment, hideComment, replyToComment } from "./comments";
import { findOnThreads, threadsPublisher } from "./publish";
import { threadsReader } from "./read";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";
import { exchangeForLongLived, refreshLongLived } from "./token";

/** The publishing half: every call acts with the account's own token (async: a missing one rejects). */
export function threadsPublishing(context: PublishingContext): Publishing {
  const api = (account: AccountAuth) => threadsApi(context, tokenOf(account));
  return {
    publish: async (account, draft) => threadsPublisher(api(account), context).publish(account, draft),
    reply: async (account, postId, text) =>
      threadsPublisher(api(account), context).reply(account, postId, text),
    find: async (account, lookup) => findOnThreads(api(account), context, account, lookup),
    insights: async (account, postId) => threadsReader(api(account)).insights(account, postId),
    comments: async (account, postId) => threadsReader(api(account)).comments(account, postId),
    replyToComment: async (account, comment, text) =>
      replyToComment(api(account), context, account, comment, text),
    hideComment: async (account, comment, hidden) => hideComment(api(account), comment, hidden),
    deleteComment: async (account, comment) => deleteComment(api(account), comment),
  };
}

export const threads = definePlatform({
  platform: "threads",
  label: "Threads",
  endpoints: {
    authorize: "https://threads.com/oauth/authorize",
    token: "https://graph.threads.net/oauth/access_token",
    identity: "https://graph.threads.net/v1.0/me",
  },
  scopes: ["threads_basic"],
  connect: {
    scopes: [
      "threads_basic",
      "threads_content_publish",
      "threads_manage_insights",
      "threads_read_replies",
      "threads_manage_replies",
      // Deleting the account's own replies from the comment inbox (Threads › Delete Posts).
      "threads_delete",
    ],
  },
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "body",
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body, "user_id"),
  identityRequest: bearerGet("?fields=id,username"),
  parseIdentity: flatIdentity("id", "username"),
  connectToken: exchangeForLongLived,
  refresh: refreshLongLived,
  // As Instagram: a 60-day long-lived token renewable while valid and a day old, renewed at half its life.
  keepAlive: { beforeExpiry: 30 * 86_400 },
  // Meta refreshes a long-lived token only once it is a day old: a 401 before then is passing.
  refreshableAfter: 86_400,
  publishing: (context) => threadsPublishing(context),
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
  commentRules,
});
