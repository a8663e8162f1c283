// The emulator's Facebook Login, as developers.facebook.com documents it: its OAuth facts (the shape
// the sandbox's kernel issues codes and tokens with), the code exchange and the long-lived exchange at
// /oauth/access_token (Facebook Login › Manually Build a Login Flow; Access Tokens › Long-Lived), /me,
// DELETE /me/permissions, and who a Graph call acts for: its token (the bearer header or
// `access_token`, query or form) and, when sent, its appsecret_proof (Graph API › Securing Requests).
import { readCapped } from "../../lib/capped-body";
import { hmacKey, hmacSha256Hex, timingSafeEqualText } from "../../lib/crypto";
import { digits } from "../../platforms/sandbox/ids";
import { POST_BODY_MAX_BYTES } from "../body";
import { type Caller, type Emulated, refuse } from "../emulator";
import { redeemCode, revokedSince } from "../grants";
import type { SandboxShape } from "../shapes";
import { grantLedger } from "../token-routes";
import { graphError } from "./errors";
import { fieldNames, ownerOf, pageName, pick } from "./rules";

/**
 * Facebook's OAuth facts: a refused consent redirects with `error=access_denied`; user ids are
 * app-scoped digits; the code yields a short-lived user token (about an hour; Access Tokens ›
 * Short-Lived) answered as `{access_token, token_type, expires_in}` with no scope field and no refresh
 * token (a long-lived token is exchanged for instead); /me answers `id` and `name`.
 */
export const facebookShape: SandboxShape = {
  // The consent and token endpoints as Facebook Login › Manually Build a Login Flow names them.
  label: "Facebook",
  paths: { authorize: "/v25.0/dialog/oauth", token: "/v25.0/oauth/access_token", identity: "/v25.0/me" },
  clientIdParam: "client_id",
  pkce: false,
  denial: "access_denied",
  platformId: (digest) => digits(digest, 17),
  accessTtl: 3600,
  refresh: null,
  tokenResponse: (tokens) => ({
    access_token: tokens.accessToken,
    token_type: "bearer",
    expires_in: tokens.expiresIn,
  }),
  identityResponse: (id, handle) => ({ id, name: handle }),
};

/** One Graph API call as the emulator's routes read it: the emulated platform, the request, its path's names. */
export type GraphCall = { e: Emulated; req: Request; params: Record<string, string> };

/** A long-lived user token lives about 60 days (Facebook Login › Access Tokens › Long-Lived). */
const LONG_LIVED_SECONDS = 60 * 86_400;

/**
 * appsecret_proof as Graph API › Securing Requests defines it: the HMAC-SHA256 of the access token,
 * keyed with the app secret, in lowercase hex (`hash_hmac('sha256', $access_token, $app_secret)`).
 */
export const appSecretProof = async (appSecret: string, token: string) =>
  hmacSha256Hex(await hmacKey(appSecret), token);

/** The call's parameters: the query string and a form body, as the Graph API reads either. */
export async function paramsOf(call: GraphCall): Promise<URLSearchParams> {
  const params = new URLSearchParams(new URL(call.req.url).search);
  const type = (call.req.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
  if (call.req.method !== "GET" && type === "application/x-www-form-urlencoded") {
    const bytes = await readCapped(call.req, POST_BODY_MAX_BYTES);
    if (bytes === "too_large") return refuse(413, "too_large", "(#1) The request body is too large.");
    let text = "";
    try {
      text = bytes ? new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes) : "";
    } catch {
      return refuse(400, "invalid_request", "(#100) The request body is not readable UTF-8 text.");
    }
    for (const [name, value] of new URLSearchParams(text)) params.set(name, value);
  }
  return params;
}

/**
 * Who the call acts for: a valid token (the bearer header or `access_token`), whose appsecret_proof,
 * when sent, is the HMAC of that token with the app's secret (Graph API › Securing Requests). A Page token
 * stops working when the Page's owner removed the app, as Facebook invalidates the tokens derived from it.
 */
export async function callerOf(e: Emulated, params: URLSearchParams, token?: string): Promise<Caller> {
  const caller = await e.caller(token ?? params.get("access_token"));
  const owner = ownerOf(caller.handle);
  if (owner && revokedSince(caller.issuedAt, await e.store.revokedAt(owner)))
    return refuse(400, "revoked_token", "The user has revoked the application's access.");
  const proof = params.get("appsecret_proof");
  if (
    proof !== null &&
    !timingSafeEqualText(proof, await appSecretProof(e.client.clientSecret, caller.token))
  )
    return refuse(400, "invalid_request", "Invalid appsecret_proof provided in the API argument", {
      code: 100,
    });
  return caller;
}

// ---------------------------------------------------------------------------------------------------
// OAuth

/**
 * GET or POST /oauth/access_token: the code exchange (Manually Build a Login Flow › Exchanging Code for an
 * Access Token) and grant_type=fb_exchange_token (Access Tokens › Long-Lived): both authenticate the app
 * by client_id and client_secret.
 */
export async function accessToken(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  if (params.get("client_id") !== e.client.clientId)
    return graphError({
      status: 400,
      message: "Error validating application. Invalid application ID.",
      type: "OAuthException",
      code: 101,
    });
  if (!timingSafeEqualText(params.get("client_secret") ?? "", e.client.clientSecret))
    return graphError({
      status: 400,
      message: "Error validating client secret.",
      type: "OAuthException",
      code: 1,
    });
  const grant = params.get("grant_type");
  if (grant === "fb_exchange_token") {
    const presented = params.get("fb_exchange_token");
    if (!presented)
      return refuse(400, "invalid_request", "(#100) The parameter fb_exchange_token is required", {
        code: 100,
      });
    const caller = await callerOf(e, new URLSearchParams(), presented);
    // Exchanging a long-lived token again extends it: the sandbox counts that as a refresh.
    if (caller.longLived) await e.bump(caller.handle, "token_refreshes");
    const issued = await e.issueToken(caller.handle, LONG_LIVED_SECONDS, {
      longLived: true,
      scopes: caller.scopes,
    });
    return Response.json({ access_token: issued.token, token_type: "bearer", expires_in: issued.expiresIn });
  }
  if (grant !== null && grant !== "authorization_code")
    return refuse(400, "invalid_request", `(#100) Unsupported grant_type: ${grant}`, { code: 100 });
  if (!params.get("code"))
    return refuse(400, "invalid_request", "(#100) The parameter code is required", { code: 100 });
  const result = await redeemCode(
    e.env,
    "facebook",
    e.client.clientId,
    params,
    grantLedger(e.env, "facebook"),
  );
  if (result.ok) return Response.json(result.body);
  const used = /already been used/.test(result.description);
  return graphError({
    status: 400,
    message: used
      ? "This authorization code has been used."
      : /redirect_uri/.test(result.description)
        ? "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request"
        : `Invalid verification code format. ${result.description}`,
    type: "OAuthException",
    code: 100,
    subcode: used ? 36009 : 36008,
  });
}

/** GET /me: the token's user (or Page): `id` and `name` (Graph API › User, Page). */
export async function me(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  const caller = await callerOf(e, params);
  const names = fieldNames(params.get("fields") ?? "id,name");
  return Response.json(
    pick(
      { id: caller.platformId, name: ownerOf(caller.handle) ? pageName(caller.handle) : caller.handle },
      names,
    ),
  );
}

/** DELETE /me/permissions: the user removes the app; every token of the grant stops working. */
export async function revokePermissions(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  const caller = await callerOf(e, params);
  if (ownerOf(caller.handle))
    return refuse(
      400,
      "invalid_request",
      "(#100) Tried accessing nonexisting field (permissions) on node type (Page)",
      {
        code: 100,
      },
    );
  await e.store.revoke(caller.handle);
  return Response.json({ success: true });
}
