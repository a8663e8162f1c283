// The Instagram publishing half: every call acts as the connected professional account with its
// Instagram user token (api.ts). The Instagram API with Instagram Login has no token revocation
// endpoint, so a disconnect only forgets the token: no `revoke` here. No channels either: with
// Instagram Login the user picks the professional account on Instagram's own consent screen.
import type { Publishing, PublishingContext } from "../types";
import { igApi, permalinkOf } from "./api";
import { commentAs, publishToInstagram } from "./publish";
import { findOnInstagram, mediaComments, mediaInsights } from "./read";

export function instagramPublishing(context: PublishingContext): Publishing {
  const api = (account: Parameters<typeof igApi>[1]) => igApi(context, account);
  return {
    publish: async (account, draft) => publishToInstagram(api(account), draft),
    find: async (account, lookup) => findOnInstagram(api(account), lookup),
    insights: async (account, mediaId) => mediaInsights(api(account), mediaId),
    comments: async (account, mediaId) => mediaComments(api(account), mediaId),
    async reply(account, mediaId, text) {
      // Instagram keeps nothing hidden with a comment: the plug's text is how `find` recognises it.
      const ig = api(account);
      const id = await commentAs(ig, mediaId, text);
      return { id, url: await permalinkOf(ig, mediaId) };
    },
  };
}
