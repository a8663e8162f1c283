// TikTok Login Kit for Web (OAuth v2). PKCE is only for the mobile and desktop kits, so the web flow sends
// none. `username` needs user.info.profile. developers.tiktok.com › Login Kit for Web; Get User Info.
// A connect also asks for video.publish (Content Posting API, Direct Post) and video.list (Display API:
// find and insights); TikTok rotates refresh tokens on the standard refresh_token grant.

import { accessToken, bearerGet, child, text } from "../adapter";
import { definePlatform } from "../define";
import type { AccountAuth, Publishing, PublishingContext } from "../types";
import { HOSTS, tiktokApi, tokenOf } from "./api";
import { DEFAULT_PACING, type Pacing, tiktokPublisher } from "./publish";
import { noReply, revokeToken, tiktokReader } from "./read";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";

const SCOPES = ["user.info.basic", "user.info.profile"];

/**
 * The publishing half: every call acts with the account's own token (async: a missing one rejects).
 * Status polls wait with the context's sleep, `pacing` apart.
 */
export function tiktokPublishing(context: PublishingContext, pacing: Pacing = DEFAULT_PACING): Publishing {
  const api = (account: AccountAuth) => tiktokApi(context, tokenOf(account));
  const publisher = (account: AccountAuth) => tiktokPublisher(api(account), context, pacing);
  return {
    publish: async (account, draft) => publisher(account).publish(account, draft),
    // A recorded publish_id is reconciled by its status alone; the text search only without one.
    find: async (account, lookup) => {
      const recorded = lookup.progress
        ? await publisher(account).reconcile(account, lookup.progress, lookup.settings)
        : undefined;
      return recorded !== undefined ? recorded : tiktokReader(api(account)).find(account, lookup);
    },
    resolve: async (account, publishId) => publisher(account).resolve(account, publishId),
    insights: async (account, postId) => tiktokReader(api(account)).insights(account, postId),
    comments: async () => [],
    reply: noReply,
    revoke: (account) => revokeToken(context, account),
  };
}

export const tiktok = definePlatform({
  platform: "tiktok",
  label: "TikTok",
  // Access tokens live 24 hours, refresh tokens 365 days and may be replaced by each refresh:
  // refreshed monthly, an idle account's refresh token stays young.
  keepAlive: { every: 30 * 86_400 },
  endpoints: {
    authorize: "https://www.tiktok.com/v2/auth/authorize/",
    token: "https://open.tiktokapis.com/v2/oauth/token/",
    identity: "https://open.tiktokapis.com/v2/user/info/",
  },
  scopes: SCOPES,
  connect: { scopes: [...SCOPES, "video.publish", "video.list"] },
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_key",
  tokenAuth: "body",
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body, "open_id"),
  identityRequest: bearerGet("?fields=open_id,username,display_name"),
  parseIdentity(body, token) {
    // TikTok answers 200 with `error.code` other than "ok" when something went wrong.
    const code = text(child(body, "error"), "code");
    if (code && code !== "ok") return null;
    const user = child(child(body, "data"), "user");
    const id = text(user, "open_id") ?? token.userId;
    return id
      ? { platform_id: id, handle: text(user, "username") ?? text(user, "display_name") ?? "" }
      : null;
  },
  publishing: (context) => tiktokPublishing(context),
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
});
