// Facebook Login, manually built flow: the dialog at www.facebook.com, the code exchanged at the Graph
// API's /oauth/access_token, identity from /me with appsecret_proof. PKCE exists only in the OIDC variant
// (still in testing), so none is sent. Facebook exposes no public handle: `name` stands in. `id` is
// app-scoped. developers.facebook.com › Facebook Login › Manually Build a Login Flow; Securing Graph API
// Requests. The docs show the exchange as a GET with client_secret and code in the query; the Graph API
// takes any parameter as a POST form field too, so they go in a POST body, out of every URL log. The
// user token likewise goes in an `Authorization: Bearer` header, which the Graph API reads as the
// access_token parameter (developers.facebook.com › Graph API › Overview › Access Tokens).
//
// A connect asks for the Pages permissions, swaps the user token for a long-lived one and lets the user
// pick a Page (channels.ts): the account then publishes as that Page, with its Page token.

import { accessToken, bearer, flatIdentity } from "../adapter";
import { definePlatform } from "../define";
import { appSecretProof } from "../meta";
import { GRAPH, HOSTS } from "./api";
import { longLivedUserToken } from "./channels";
import { facebookPublishing } from "./publishing";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";

export const facebook = definePlatform({
  platform: "facebook",
  label: "Facebook",
  endpoints: {
    authorize: "https://www.facebook.com/v25.0/dialog/oauth",
    token: `${GRAPH}/oauth/access_token`,
    identity: `${GRAPH}/me`,
  },
  scopes: ["public_profile"],
  // developers.facebook.com › Pages API › Posts, Comments; Page Insights; Video API (publish_video).
  connect: {
    scopes: [
      "pages_show_list",
      "pages_read_engagement",
      "pages_manage_posts",
      "pages_read_user_content",
      "pages_manage_engagement",
      "read_insights",
      "publish_video",
      // The Pages of the user's business portfolios (GET /me/businesses → owned_pages, client_pages).
      "business_management",
    ],
  },
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "body",
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body),
  async identityRequest(endpoint, token, credentials) {
    const proof = await appSecretProof(credentials.clientSecret, token.accessToken);
    // The proof is an HMAC of the token: it proves the caller knows the app secret, and reveals neither.
    const query = new URLSearchParams({ fields: "id,name", appsecret_proof: proof });
    return { url: `${endpoint}?${query}`, headers: bearer(token) };
  },
  parseIdentity: flatIdentity("id", "name"),
  connectToken: longLivedUserToken,
  publishing: facebookPublishing,
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
});
