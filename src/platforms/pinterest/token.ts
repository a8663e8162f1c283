// Pinterest's OAuth specifics: the scopes, the token answer, the identity request and its reading, and
// the exchange's extra parameter. Authorize at www.pinterest.com/oauth/, exchange the code at
// /v5/oauth/token with HTTP Basic client authentication (no PKCE is documented), identity from
// GET /v5/user_account. Pinterest revokes only tokens of system users (POST /v5/oauth/token/revoke), so a
// disconnect revokes nothing (no `revoke`).
// developers.pinterest.com › Set up authentication and authorization; user_account; Scopes.
import { accessToken, bearerGet, flatIdentity } from "../adapter";

/** A delegation only proves who the user is. */
export const SCOPES = ["user_accounts:read"];

/**
 * A connect asks for the scopes that create Pins (the v5 reference lists boards:read, boards:write,
 * pins:read and pins:write for Create Pin) and read the account.
 */
export const CONNECT_SCOPES = [
  "boards:read",
  "boards:write",
  "pins:read",
  "pins:write",
  "user_accounts:read",
];

/** A refresh token renewed on every refresh (60 days from each), as Pinterest now asks of apps. */
export const EXCHANGE_EXTRAS = { continuous_refresh: "true" };

/** Pinterest always sends a refresh token with the access token. */
export const parseToken = (body: unknown) => accessToken(body);
export const identityRequest = bearerGet();
export const parseIdentity = flatIdentity("id", "username");
