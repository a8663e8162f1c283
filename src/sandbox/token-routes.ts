// The sandbox's token endpoint: a POST form, like every platform's (RFC 6749 §3.2), with the client
// authenticated by HTTP Basic or by its parameters. It answers the OAuth way whatever it is sent:
// 400 invalid_request for a body it cannot read, 401 invalid_client, 400 invalid_grant; grants.ts has
// the rules for codes and refresh tokens.

import type { BareEnv } from "../http/env";
import { createRouter } from "../http/router";
import { timingSafeEqualText } from "../lib/crypto";
import { sandboxClient } from "../platforms/sandbox/shapes";
import type { PlatformSpec } from "../platforms/types";
import { platformOf } from "./access";
import { isProblem, readForm } from "./body";
import { type GrantResult, redeemCode, redeemRefresh } from "./grants";
import { oauthError } from "./oauth-error";

type Client = { id: string; secret: string };

/** The client credentials of a token request: HTTP Basic, else the parameters; null when unreadable. */
function clientCredentials(
  authorization: string,
  spec: PlatformSpec,
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

const answerWith = (result: GrantResult) =>
  result.ok ? Response.json(result.body) : oauthError(result.status, result.error, result.description);

export const sandboxTokenRoutes = createRouter<BareEnv>().post("/:platform/oauth/token", async (c) => {
  const spec = platformOf(c.req.param("platform"));
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
  const store = c.env.SANDBOX_STORE.getByName(spec.platform);
  const spend = (id: string, expiresAt: number) => store.spend(id, expiresAt);
  switch (grantType) {
    case "authorization_code":
      return answerWith(await redeemCode(c.env, spec.platform, client.id, params, spend));
    case "refresh_token":
      return answerWith(await redeemRefresh(c.env, spec.platform, client.id, params, spend));
    default:
      return oauthError(400, "unsupported_grant_type", "This grant_type is not supported.");
  }
});
