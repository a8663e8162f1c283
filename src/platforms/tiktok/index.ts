// TikTok's definition: Login Kit for Web (OAuth v2, token.ts), Direct Post through the Content Posting
// API (publish.ts, media.ts) and the Display API's reads (read.ts). TikTok gives an app neither comments
// nor comment creation, so `comments` and `reply` are absent.

import { definePlatform } from "../define";
import type { AccountAuth, PublishedPost, Publishing, PublishingContext } from "../types";
import { HOSTS, tiktokApi, tokenOf } from "./api";
import { DEFAULT_PACING, type Pacing, tiktokPublisher } from "./publish";
import { tiktokReader } from "./read";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";
import {
  CONNECT_SCOPES,
  identityRequest,
  KEEP_ALIVE,
  parseIdentity,
  parseToken,
  revokeToken,
  SCOPES,
} from "./token";

/**
 * The publishing half: every call acts with the account's own token (async: a missing one rejects).
 * Status polls wait with the context's sleep, `pacing` apart.
 */
export function tiktokPublishing(
  context: PublishingContext,
  pacing: Pacing = DEFAULT_PACING,
): Publishing & {
  resolve(account: AccountAuth, publishId: string, publishedAt?: number): Promise<PublishedPost | null>;
} {
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
    // `publishedAt` (ms) bounds the wait for the public id; the engine does not pass it yet.
    resolve: async (account: AccountAuth, publishId: string, publishedAt?: number) =>
      publisher(account).resolve(account, publishId, publishedAt),
    insights: async (account, postId) => tiktokReader(api(account)).insights(account, postId),
    revoke: (account) => revokeToken(context, account),
  };
}

export const tiktok = definePlatform({
  platform: "tiktok",
  label: "TikTok",
  keepAlive: KEEP_ALIVE,
  endpoints: {
    authorize: "https://www.tiktok.com/v2/auth/authorize/",
    token: "https://open.tiktokapis.com/v2/oauth/token/",
    identity: "https://open.tiktokapis.com/v2/user/info/",
  },
  scopes: SCOPES,
  connect: { scopes: CONNECT_SCOPES },
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_key",
  tokenAuth: "body",
  denialErrors: ["access_denied"],
  parseToken,
  identityRequest,
  parseIdentity,
  publishing: (context) => tiktokPublishing(context),
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
});
