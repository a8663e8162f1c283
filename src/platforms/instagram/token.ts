// Instagram user tokens: the code exchange gives a short-lived one (an hour); a connect swaps it for a
// long-lived one (60 days), refreshed before it expires with ig_refresh_token (the token itself stands
// in as the refresh token). developers.facebook.com › Instagram Platform › Access Token; Refresh Access
// Token. Both endpoints are documented as GET only ("Creating: this operation is not supported"), with
// the app secret and the token in the query: the one place where they travel in a URL. Their failures
// never quote the answer or the URL.
import { callPlatform } from "../call";
import { baseOf } from "../client";
import { metaCall, shaped } from "../meta";
import type { PlatformToken, PublishingContext } from "../types";
import { HOSTS, LABEL } from "./api";
import { longLivedToken } from "./schemas";

/** The token endpoints, on the Graph host (unversioned, as documented). */
const graphUrl = (context: PublishingContext, path: string, query: URLSearchParams) =>
  `${baseOf(context, HOSTS, "graph")}${path}?${query}`;

async function tokenGet(what: string, url: string, context: PublishingContext): Promise<PlatformToken> {
  const body = await callPlatform(
    context.fetch,
    what,
    url,
    { method: "GET", headers: { accept: "application/json" } },
    metaCall(what, false),
  );
  const answer = shaped(longLivedToken, body, what, "GET");
  // The long-lived token refreshes itself: it is its own refresh token.
  const token: PlatformToken = { accessToken: answer.access_token, refreshToken: answer.access_token };
  if (answer.expires_in && answer.expires_in > 0) token.expiresIn = Math.floor(answer.expires_in);
  return token;
}

export async function longLivedInstagramToken(
  token: PlatformToken,
  context: PublishingContext,
): Promise<PlatformToken> {
  const query = new URLSearchParams({
    grant_type: "ig_exchange_token",
    client_secret: context.credentials.clientSecret,
    access_token: token.accessToken,
  });
  const long = await tokenGet(
    `${LABEL} long-lived token exchange`,
    graphUrl(context, "/access_token", query),
    context,
  );
  return token.userId ? { ...long, userId: token.userId } : long;
}

export function refreshInstagramToken(refreshToken: string, context: PublishingContext) {
  const query = new URLSearchParams({ grant_type: "ig_refresh_token", access_token: refreshToken });
  return tokenGet(`${LABEL} token refresh`, graphUrl(context, "/refresh_access_token", query), context);
}
