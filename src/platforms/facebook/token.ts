// Facebook Login's specifics (developers.facebook.com › Facebook Login › Manually Build a Login Flow;
// Access Tokens; Graph API › Securing Requests): the identity request with its appsecret_proof, and the
// connect's swap of the short-lived user token (about an hour) for a long-lived one (about 60 days), so
// the Page tokens read with it do not expire. The exchange is documented as a GET; the Graph API takes
// its parameters as a POST form too, so the app secret and the token travel in a body, never in a URL.
// Facebook offers no revocation a Page token can make (DELETE /me/permissions needs the user's token,
// which is not kept), so a disconnect only forgets the token: no `revoke`.
import { accessToken, bearer } from "../adapter";
import { callPlatform } from "../call";
import { appSecretProof, metaCall } from "../meta";
import { type Credentials, PlatformError, type PlatformToken, type PublishingContext } from "../types";
import { GRAPH, LABEL } from "./api";

/** The login's own scope: who the user is. */
export const SCOPES = ["public_profile"];

/** What a connect asks for: developers.facebook.com › Pages API › Posts, Comments; Page Insights; Video API (publish_video). */
export const CONNECT_SCOPES = [
  "pages_show_list",
  "pages_read_engagement",
  "pages_manage_posts",
  "pages_read_user_content",
  "pages_manage_engagement",
  "read_insights",
  "publish_video",
  // The Pages of the user's business portfolios (GET /me/businesses → owned_pages, client_pages).
  "business_management",
];

/** GET /me?fields=id,name with the token as a Bearer header and its appsecret_proof. */
export async function identityRequest(endpoint: string, token: PlatformToken, credentials: Credentials) {
  const proof = await appSecretProof(credentials.clientSecret, token.accessToken);
  // The proof is an HMAC of the token: it proves the caller knows the app secret, and reveals neither.
  const query = new URLSearchParams({ fields: "id,name", appsecret_proof: proof });
  return { url: `${endpoint}?${query}`, headers: bearer(token) };
}

export async function longLivedUserToken(
  token: PlatformToken,
  context: PublishingContext,
): Promise<PlatformToken> {
  const what = `${LABEL} long-lived token exchange`;
  const body = new URLSearchParams({
    grant_type: "fb_exchange_token",
    client_id: context.credentials.clientId,
    client_secret: context.credentials.clientSecret,
    fb_exchange_token: token.accessToken,
  });
  const answer = await callPlatform(
    context.fetch,
    what,
    `${GRAPH}/oauth/access_token`,
    {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body,
    },
    metaCall(what, false),
  );
  const long = accessToken(answer);
  if (!long) throw new PlatformError(`${what}: the answer has no access token`, { code: "invalid_response" });
  return { ...long, ...(token.userId ? { userId: token.userId } : {}) };
}
