// The Facebook Pages publishing half: every call acts as the account's Page with its Page token
// (api.ts). Facebook offers no revocation a Page token can make (DELETE /me/permissions needs the
// user's token, which is not kept), so a disconnect only forgets the token: no `revoke` here.
import type { Publishing, PublishingContext } from "../types";
import { pageApi, permalinkOf } from "./api";
import { pageChannels } from "./channels";
import { commentAs, publishToPage } from "./publish";
import { findOnPage, postComments, postInsights } from "./read";

export function facebookPublishing(context: PublishingContext): Publishing {
  return {
    publish: async (account, draft) => publishToPage(pageApi(context, account), draft),
    find: async (account, lookup) => findOnPage(pageApi(context, account), lookup),
    insights: async (account, postId) => postInsights(pageApi(context, account), postId),
    comments: async (account, postId) => postComments(pageApi(context, account), postId),
    async reply(account, postId, text) {
      // Facebook keeps nothing hidden with a comment: the plug's text is how `find` recognises it.
      const api = pageApi(context, account);
      const id = await commentAs(api, postId, { text, media: [] });
      return { id, url: await permalinkOf(api, id) };
    },
    channels: (token) => pageChannels(token, context),
  };
}
