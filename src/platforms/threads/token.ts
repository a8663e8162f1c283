// Threads tokens made to last: the code exchange gives a one-hour token, which a connect swaps for a
// 60-day one (th_exchange_token); Threads has no refresh token, so the long-lived token is its own
// refresh token and is renewed with th_refresh_token before it expires (it must be a day old).
// developers.facebook.com › Threads › Get Started › Long-Lived Tokens. Both calls are GETs with their
// parameters in the query, the only form the docs give (the exchange carries the app secret there);
// call.ts never writes a URL's query into a message.
import { callPlatform } from "../call";
import { baseOf } from "../client";
import { PlatformError, type PlatformToken, type PublishingContext } from "../types";
import { expectShape, HOSTS, metaFailure } from "./api";
import { longLivedToken } from "./schemas";

async function tokenCall(
  context: PublishingContext,
  what: string,
  url: string,
  userId: string | undefined,
): Promise<PlatformToken> {
  let body: unknown;
  try {
    // Token endpoints echo what they were sent: their text is never quoted.
    body = await callPlatform(
      context.fetch,
      what,
      url,
      { method: "GET", headers: { accept: "application/json" } },
      { quoteErrors: false, classify: metaFailure(what, false) },
    );
  } catch (error) {
    // A token Meta refuses (expired, revoked, too young to refresh) is refused for good.
    if (error instanceof PlatformError && (error.kind === "auth" || error.kind === "permanent"))
      throw new PlatformError(`${what}: the platform refused the token`, {
        kind: "permanent",
        code: "invalid_grant",
      });
    throw error;
  }
  const answer = expectShape(longLivedToken, body, what, false);
  const token: PlatformToken = { accessToken: answer.access_token, refreshToken: answer.access_token };
  if (userId) token.userId = userId;
  if (answer.expires_in) token.expiresIn = Math.floor(answer.expires_in);
  return token;
}

/** connectToken: the short-lived token of a connect swapped for a long-lived one. */
export function exchangeForLongLived(token: PlatformToken, context: PublishingContext) {
  const query = new URLSearchParams({
    grant_type: "th_exchange_token",
    client_secret: context.credentials.clientSecret,
    access_token: token.accessToken,
  });
  return tokenCall(
    context,
    "Threads long-lived token exchange",
    `${baseOf(context, HOSTS, "graph")}/access_token?${query}`,
    token.userId,
  );
}

/** refresh: the long-lived token (stored as the refresh token) renewed for another 60 days. */
export function refreshLongLived(refreshToken: string, context: PublishingContext) {
  const query = new URLSearchParams({ grant_type: "th_refresh_token", access_token: refreshToken });
  return tokenCall(
    context,
    "Threads token refresh",
    `${baseOf(context, HOSTS, "graph")}/refresh_access_token?${query}`,
    undefined,
  );
}
