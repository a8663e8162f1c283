// The sandbox's token endpoint: a POST form, like every platform's (RFC 6749 §3.2), with the client
// authenticated by HTTP Basic or by its parameters. It answers the OAuth way whatever it is sent:
// 400 invalid_request for a body it cannot read, 401 invalid_client, 400 invalid_grant; grants.ts has
// the rules for codes and refresh tokens.

import type { Context } from "hono";
import type { Platform } from "../db/enums";
import type { BareEnv } from "../http/env";
import { createRouter } from "../http/router";
import { timingSafeEqualText } from "../lib/crypto";
import { sandboxClient } from "../platforms/sandbox/credentials";
import { sandboxStore } from "./access";
import { isProblem, readForm } from "./body";
import { type GrantLedger, type GrantResult, redeemCode, redeemRefresh } from "./grants";
import { oauthError } from "./oauth-error";
import { type EmulatedPlatform, platformOf } from "./shapes";

type Client = { id: string; secret: string };

/** The client credentials of a token request: HTTP Basic, else the parameters; null when unreadable. */
function clientCredentials(
  authorization: string,
  spec: EmulatedPlatform,
  params: URLSearchParams,
): Client | null {
  const basic = /^Basic\s+(\S+)\s*$/i.exec(authorization);
  if (!basic) return { id: params.get(spec.clientIdParam) ?? "", secret: params.get("client_secret") ?? "" };
  let decoded: string;
  try {
    decoded = atob(basic[1]!);
  } catch {
    return null;
  }
  const colon = decoded.indexOf(":");
  return colon < 0 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The platform's store of a grant's space as the token endpoint uses it. */
export function grantLedger(env: Env, platform: Platform): GrantLedger {
  return (space) => {
    const store = sandboxStore(env, platform, space);
    return {
      spend: (id, expiresAt) => store.spend(id, expiresAt),
      revokedAt: (handle) => store.revokedAt(handle),
      refreshed: (handle) => store.bump(handle, "token_refreshes"),
    };
  };
}

const answerWith = (result: GrantResult) =>
  result.ok ? Response.json(result.body) : oauthError(result.status, result.error, result.description);

/** The platform's token endpoint: a code exchange or a refresh, answered in the platform's own shape. */
export async function tokenEndpoint(c: Context<BareEnv>, spec: EmulatedPlatform): Promise<Response> {
  const params = await readForm(c.req.raw);
  if (isProblem(params)) {
    const message = params.kind === "too_large" ? "The request body is too large." : params.message;
    return oauthError(400, "invalid_request", message);
  }
  const grantType = params.get("grant_type");
  if (grantType === null) return oauthError(400, "invalid_request", "The grant_type parameter is missing.");
  const client = clientCredentials(c.req.header("authorization") ?? "", spec, params);
  const expected = sandboxClient(spec.platform);
  if (
    !client ||
    client.id !== expected.clientId ||
    !timingSafeEqualText(client.secret, expected.clientSecret)
  ) {
    return oauthError(401, "invalid_client", "Client authentication failed.");
  }
  const ledger = grantLedger(c.env, spec.platform);
  switch (grantType) {
    case "authorization_code":
      return answerWith(await redeemCode(c.env, spec.platform, client.id, params, ledger));
    case "refresh_token":
      return answerWith(await redeemRefresh(c.env, spec.platform, client.id, params, ledger));
    default:
      return oauthError(400, "unsupported_grant_type", "This grant_type is not supported.");
  }
}

export const sandboxTokenRoutes = createRouter<BareEnv>().post("/:platform/oauth/token", (c) =>
  tokenEndpoint(c, platformOf(c.req.param("platform"))),
);
