// The publishing half of the X adapter: publish, find, insights, comments and reply through the X API v2
// (api.ts), and the revocation of the account's tokens (refresh and access) on disconnect. The login is the account, so there
// are no channels to pick.
import { platformClient } from "../client";
import type { Publishing, PublishingContext } from "../types";
import { HOSTS, LABEL, xApi } from "./api";
import { findPublication, publishPost, replyTo } from "./publish";
import { postComments, postInsights } from "./read";

/** The context's `sleep` waits between media status polls (tests pass one that moves a fake clock). */
export function twitterPublishing(context: PublishingContext): Publishing {
  const api = xApi(context);
  const client = platformClient(context, HOSTS);
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
    // RFC 7009 revocation of both tokens, each with its token_type_hint: X ends the access token alone when
    // only it is revoked, leaving the refresh token (offline.access) able to mint new ones. A confidential
    // client authenticates with HTTP Basic. Both are tried; the first refusal is thrown.
    async revoke(account) {
      const { clientId, clientSecret } = context.credentials;
      const tokens = [
        ...(account.refreshToken ? [{ token: account.refreshToken, hint: "refresh_token" }] : []),
        ...(account.accessToken ? [{ token: account.accessToken, hint: "access_token" }] : []),
      ];
      const results = await Promise.allSettled(
        tokens.map(({ token, hint }) =>
          client.call(
            `${LABEL} token revocation (${hint})`,
            client.url("api", "/2/oauth2/revoke"),
            {
              method: "POST",
              headers: {
                authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
                "content-type": "application/x-www-form-urlencoded",
                accept: "application/json",
              },
              body: new URLSearchParams({ token, token_type_hint: hint }),
            },
            // The token endpoint's text can echo what it was sent.
            { quoteErrors: false },
          ),
        ),
      );
      const refused = results.find((result) => result.status === "rejected");
      if (refused) throw refused.reason;
    },
  };
}
