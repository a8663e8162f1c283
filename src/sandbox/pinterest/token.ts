// Pinterest's OAuth on the emulator: the token endpoint (POST /v5/oauth/token: HTTP Basic client
// authentication only, authorization_code and refresh_token with continuous refresh) and the identity
// (GET /v5/user_account), with the facts of its tokens and answers (`pinterestShape`).
// developers.pinterest.com › Set up authentication and authorization; Generate OAuth access token;
// Get user account; Scopes.
import { timingSafeEqualText } from "../../lib/crypto";
import { digits } from "../../platforms/sandbox/ids";
import { isProblem, readForm } from "../body";
import { type Emulated, refuse } from "../emulator";
import { redeemCode, redeemRefresh } from "../grants";
import type { SandboxShape } from "../shapes";
import { grantLedger } from "../token-routes";
import { sandboxBoards } from "./publish";
import { CODE, ID_DIGITS } from "./rules";

const DAY = 86_400;

/**
 * The scopes the emulated app is granted, the ones the v5 reference names for what the emulator serves:
 * the account, boards, Pins (Create Pin: boards:read, boards:write, pins:read, pins:write).
 */
export const GRANTED_SCOPES = [
  "boards:read",
  "boards:write",
  "pins:read",
  "pins:write",
  "user_accounts:read",
];

/** Pinterest's tokens and answers, as its OAuth pages describe them. */
export const pinterestShape: SandboxShape = {
  // The consent and token endpoints as Pinterest › Authentication names them.
  label: "Pinterest",
  paths: { authorize: "/oauth/", token: "/v5/oauth/token", identity: "/v5/user_account" },
  clientIdParam: "client_id",
  pkce: false,
  denial: "access_denied",
  platformId: (digest) => digits(digest, ID_DIGITS.user),
  // Access tokens live 30 days.
  accessTtl: 30 * DAY,
  // Continuous refresh (every app activated since 25 September 2025, and the only kind Pinterest still
  // supports): a refresh token lives 60 days, and each refresh answers a new one with a new 60 days.
  refresh: { ttl: 60 * DAY, rotates: true },
  tokenResponse: (tokens) => ({
    access_token: tokens.accessToken,
    ...(tokens.refreshToken === null
      ? {}
      : {
          refresh_token: tokens.refreshToken,
          refresh_token_expires_in: tokens.refreshExpiresIn,
          refresh_token_expires_at: Math.floor(Date.now() / 1000) + (tokens.refreshExpiresIn ?? 0),
        }),
    response_type: tokens.grant,
    token_type: "bearer",
    expires_in: tokens.expiresIn,
    scope: (tokens.scopes ?? GRANTED_SCOPES).join(","),
  }),
  identityResponse: (id, handle) => ({
    account_type: "PINNER",
    id,
    username: handle,
    profile_image: "",
    website_url: "",
    about: "",
    business_name: null,
    board_count: 0,
    pin_count: 0,
    follower_count: 0,
    following_count: 0,
    monthly_views: 0,
  }),
};

/** The client of a token request: Pinterest takes it only as HTTP Basic. */
function basicClient(header: string | undefined) {
  const match = /^Basic\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match) return null;
  try {
    const decoded = atob(match[1]!);
    const colon = decoded.indexOf(":");
    return colon < 0 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  } catch {
    return null;
  }
}

/** POST /v5/oauth/token: a code or a refresh token redeemed, the client only as HTTP Basic. */
export async function token(e: Emulated, request: Request) {
  const params = await readForm(request);
  if (isProblem(params))
    return refuse(params.kind === "too_large" ? 413 : 400, "invalid_request", "Invalid request body.");
  const expected = e.client;
  const client = basicClient(request.headers.get("authorization") ?? undefined);
  if (
    !client ||
    client.id !== expected.clientId ||
    !timingSafeEqualText(client.secret, expected.clientSecret)
  )
    return refuse(401, "invalid_token", "The client credentials are not valid.", {
      code: CODE.authentication,
    });
  const ledger = grantLedger(e.env, "pinterest");
  const grant = params.get("grant_type");
  const result =
    grant === "authorization_code"
      ? await redeemCode(e.env, "pinterest", client.id, params, ledger)
      : grant === "refresh_token"
        ? await redeemRefresh(e.env, "pinterest", client.id, params, ledger)
        : null;
  if (result === null)
    return refuse(400, "invalid_request", `Invalid grant_type: ${grant ?? "(missing)"}.`, {
      code: CODE.invalidParameters,
    });
  if (!result.ok) return refuse(400, "invalid_request", result.description, { code: CODE.invalidGrant });
  return result.body;
}

/** GET /v5/user_account: the Account model of the token's user. */
export async function userAccount(e: Emulated) {
  const me = await e.caller();
  const boards = await sandboxBoards(me.handle);
  return {
    ...pinterestShape.identityResponse(me.platformId, me.handle),
    board_count: boards.length,
    pin_count: (await e.posts(me.handle)).length,
  };
}
