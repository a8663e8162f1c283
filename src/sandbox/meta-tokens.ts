// Meta's token exchanges outside OAuth's token endpoint, as Instagram (graph.instagram.com) and Threads
// (graph.threads.net) document them: a GET that swaps a valid short-lived token for a long-lived one
// (60 days) with the app secret (`ig_exchange_token`, `th_exchange_token`), and a GET that renews a
// long-lived token at least 24 hours old and not expired for another 60 days (`ig_refresh_token`,
// `th_refresh_token`). Every duration runs on the sandbox's clock (SANDBOX_TIME_SCALE).
import { timingSafeEqualText } from "../lib/crypto";
import { isProblem, readForm } from "./body";
import { type Emulated, refuse } from "./emulator";
import { redeemCode } from "./grants";
import { grantLedger } from "./token-routes";

/** A long-lived token's lifetime: 60 days. */
export const LONG_LIVED_SECONDS = 60 * 86_400;
/** A long-lived token is refreshed only once it is this old: 24 hours. */
export const REFRESH_MIN_AGE_SECONDS = 86_400;

const query = (url: string) => new URL(url).searchParams;

/** GET /access_token?grant_type=<exchange>&client_secret=…&access_token=<short-lived>. */
export async function exchangeToken(emu: Emulated, url: string, grant: string) {
  const params = query(url);
  if (params.get("grant_type") !== grant)
    refuse(400, "invalid_request", `(#100) grant_type must be ${grant}.`, { code: 100 });
  const secret = params.get("client_secret") ?? "";
  if (!secret) refuse(400, "invalid_request", "(#100) Missing client_secret parameter.", { code: 100 });
  if (!timingSafeEqualText(secret, emu.client.clientSecret))
    refuse(400, "invalid_request", "Error validating client secret.", { code: 101 });
  const token = params.get("access_token");
  if (!token) return refuse(400, "invalid_token", "An active access token must be used.");
  const caller = await emu.caller(token);
  if (caller.longLived)
    refuse(400, "invalid_request", "(#100) The access token is already a long-lived token.", { code: 100 });
  const issued = await emu.issueToken(caller.handle, LONG_LIVED_SECONDS, {
    longLived: true,
    scopes: caller.scopes,
  });
  return { access_token: issued.token, token_type: "bearer", expires_in: issued.expiresIn };
}

/** GET /refresh_access_token?grant_type=<refresh>&access_token=<long-lived>. */
export async function refreshToken(emu: Emulated, url: string, grant: string) {
  const params = query(url);
  if (params.get("grant_type") !== grant)
    refuse(400, "invalid_request", `(#100) grant_type must be ${grant}.`, { code: 100 });
  const token = params.get("access_token");
  if (!token) return refuse(400, "invalid_token", "An active access token must be used.");
  const caller = await emu.caller(token);
  if (!caller.longLived)
    refuse(400, "invalid_request", "(#100) Only a long-lived access token can be refreshed.", { code: 100 });
  if (emu.now() - caller.issuedAt < emu.scaledMs(REFRESH_MIN_AGE_SECONDS))
    refuse(400, "invalid_request", "(#100) The access token must be at least 24 hours old to be refreshed.", {
      code: 100,
    });
  const issued = await emu.issueToken(caller.handle, LONG_LIVED_SECONDS, {
    longLived: true,
    scopes: caller.scopes,
  });
  await emu.bump(caller.handle, "token_refreshes");
  return { access_token: issued.token, token_type: "bearer", expires_in: issued.expiresIn };
}

/**
 * POST /oauth/access_token: the authorization code exchanged for a short-lived token (an hour), the
 * client authenticated by its parameters; the grant rules are the sandbox's (grants.ts). `refused`
 * words a refusal the platform's way.
 */
export async function exchangeCode(
  request: Request,
  emu: Emulated,
  refused: (message: string) => Response,
): Promise<Response> {
  const params = await readForm(request);
  if (isProblem(params))
    return refused(params.kind === "too_large" ? "The request body is too large." : params.message);
  const grant = params.get("grant_type");
  if (grant !== "authorization_code") return refused("Invalid grant_type: it must be authorization_code.");
  const id = params.get("client_id") ?? "";
  const secret = params.get("client_secret") ?? "";
  if (id !== emu.client.clientId) return refused("Invalid platform app");
  if (!timingSafeEqualText(secret, emu.client.clientSecret))
    return refused("Error validating client secret.");
  const result = await redeemCode(emu.env, emu.platform, id, params, grantLedger(emu.env, emu.platform));
  if (!result.ok) return refused(result.description);
  return Response.json(result.body);
}
