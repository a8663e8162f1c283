// Facebook Login, manually built flow: the dialog at www.facebook.com, the code exchanged with a GET to the
// Graph API, identity from /me with appsecret_proof. PKCE exists only in the OIDC variant (still in
// testing), so none is sent. Facebook exposes no public handle: `name` stands in. `id` is app-scoped.
// developers.facebook.com › Facebook Login › Manually Build a Login Flow; Securing Graph API Requests.

import { hmacKey, hmacSha256Hex } from "../lib/crypto";
import { accessToken, flatIdentity } from "./adapter";
import type { PlatformSpec } from "./types";

const GRAPH = "https://graph.facebook.com/v25.0";

export const facebook: PlatformSpec = {
  platform: "facebook",
  label: "Facebook",
  endpoints: {
    authorize: "https://www.facebook.com/v25.0/dialog/oauth",
    token: `${GRAPH}/oauth/access_token`,
    identity: `${GRAPH}/me`,
  },
  scopes: ["public_profile"],
  scopeSeparator: ",",
  pkce: false,
  clientIdParam: "client_id",
  tokenAuth: "query",
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body),
  async identityRequest(endpoint, token, credentials) {
    const proof = await hmacSha256Hex(await hmacKey(credentials.clientSecret), token.accessToken);
    const query = new URLSearchParams({
      fields: "id,name",
      access_token: token.accessToken,
      appsecret_proof: proof,
    });
    return { url: `${endpoint}?${query}` };
  },
  parseIdentity: flatIdentity("id", "name"),
};
