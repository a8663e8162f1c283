// The sandbox platform: a fake of all eight platforms inside the worker (SANDBOX=true), like a payment
// provider's test mode. A consent page, a token endpoint and an identity endpoint that answer in each
// platform's own shapes (shapes.ts), plus a publishing API (posts-routes.ts) over the SandboxStore
// Durable Object. Codes and tokens are stateless (seal.ts). Its OAuth endpoints fail the OAuth way, `{error, error_description}`, as real
// platforms do; anything it does not fake is the service's plain 404.
import type { Context } from "hono";
import type { Platform } from "../../db/enums";
import { bearerToken } from "../../http/auth";
import type { BareEnv } from "../../http/env";
import { renderError, routeNotFound } from "../../http/errors";
import { createRouter } from "../../http/router";
import { timingSafeEqualText } from "../../lib/crypto";
import { invalidLinkPage } from "../../lib/html";
import { pkceChallenge } from "../adapter";
import type { PlatformSpec } from "../types";
import { mintToken, platformOf, tokenHandle } from "./access";
import { backTo, consentPage, handleProblem, readAuthorizeRequest } from "./consent";
import { sandboxEnabled } from "./enabled";
import { sandboxPostRoutes } from "./posts-routes";
import { CODE_PURPOSE, type CodePayload, seal, unseal } from "./seal";
import { SANDBOX_SHAPES, sandboxClient, sandboxPlatformId } from "./shapes";

const CODE_TTL_MS = 10 * 60_000;

/** Every OAuth-protocol failure, in the body real platforms answer with. */
const oauthError = (c: Context<BareEnv>, status: 400 | 401, error: string, description: string) =>
  c.json({ error, error_description: description }, status);

/** The client credentials of a token request: HTTP Basic, else the parameters. */
function clientCredentials(c: Context<BareEnv>, spec: PlatformSpec, params: URLSearchParams) {
  const basic = /^Basic\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
  if (basic?.[1]) {
    const decoded = atob(basic[1]);
    const colon = decoded.indexOf(":");
    return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
  return { id: params.get(spec.clientIdParam) ?? "", secret: params.get("client_secret") ?? "" };
}

/** The handle of the request's token, if it is a valid token of `platform`. */
const bearerHandle = (c: Context<BareEnv>, platform: Platform) =>
  tokenHandle(c.env, platform, bearerToken(c.req.header("authorization")) ?? c.req.query("access_token"));

const specOf = (c: Context<BareEnv>) => platformOf(c.req.param("platform"));

/** /sandbox/…: exists (anything but 404) only while SANDBOX is "true". */
export const sandboxRouter = createRouter<BareEnv>()
  .use("*", async (c, next) => {
    if (!sandboxEnabled(c.env)) throw routeNotFound();
    await next();
  })
  .get("/:platform/oauth/authorize", (c) => {
    const spec = specOf(c);
    const url = new URL(c.req.url);
    const request = readAuthorizeRequest(spec, url.searchParams);
    if (typeof request === "string") return invalidLinkPage(request);
    return consentPage(spec, request, `${url.pathname}${url.search}`);
  })
  .post("/:platform/oauth/authorize", async (c) => {
    const spec = specOf(c);
    const url = new URL(c.req.url);
    const request = readAuthorizeRequest(spec, url.searchParams);
    if (typeof request === "string") return invalidLinkPage(request);
    const form = await c.req.parseBody();
    const decision = form.decision;
    if (decision === "deny") {
      return backTo(request.redirectUri, {
        error: SANDBOX_SHAPES[spec.platform].denial,
        error_description: "The user denied the request.",
        state: request.state,
      });
    }
    const handle = typeof form.handle === "string" ? form.handle : "";
    if (decision !== "allow")
      return consentPage(spec, request, `${url.pathname}${url.search}`, "Choose Allow or Deny.", handle);
    const problem = handleProblem(handle);
    if (problem) return consentPage(spec, request, `${url.pathname}${url.search}`, problem, handle);
    const payload: CodePayload = {
      p: spec.platform,
      h: handle,
      k: request.clientId,
      r: request.redirectUri,
      c: request.challenge,
      e: Date.now() + CODE_TTL_MS,
    };
    return backTo(request.redirectUri, {
      code: await seal(c.env, CODE_PURPOSE, payload),
      state: request.state,
    });
  })
  .on(["GET", "POST"], "/:platform/oauth/token", async (c) => {
    const spec = specOf(c);
    const params = new URLSearchParams(new URL(c.req.url).search);
    if (c.req.method === "POST") {
      const form = await c.req.parseBody();
      for (const [name, value] of Object.entries(form))
        if (typeof value === "string") params.set(name, value);
    }
    if (params.get("grant_type") !== "authorization_code") {
      return oauthError(c, 400, "unsupported_grant_type", "Only authorization_code is supported.");
    }
    const client = clientCredentials(c, spec, params);
    const expected = sandboxClient(spec.platform);
    if (client.id !== expected.clientId || !timingSafeEqualText(client.secret, expected.clientSecret)) {
      return oauthError(c, 401, "invalid_client", "Client authentication failed.");
    }
    const code = await unseal<CodePayload>(c.env, CODE_PURPOSE, params.get("code"));
    if (!code || code.p !== spec.platform || code.k !== client.id || code.e <= Date.now()) {
      return oauthError(c, 400, "invalid_grant", "The authorization code is invalid or expired.");
    }
    if (params.get("redirect_uri") !== code.r) {
      return oauthError(
        c,
        400,
        "invalid_grant",
        "The redirect_uri does not match the authorization request.",
      );
    }
    if (code.c !== null) {
      const verifier = params.get("code_verifier") ?? "";
      if (!verifier || (await pkceChallenge(verifier)) !== code.c) {
        return oauthError(c, 400, "invalid_grant", "The code_verifier does not match the code challenge.");
      }
    }
    if (code.h === "fail") {
      return oauthError(
        c,
        400,
        "invalid_grant",
        'Sandbox: the handle "fail" always fails the token exchange.',
      );
    }
    const token = await mintToken(c.env, spec.platform, code.h);
    return c.json(
      SANDBOX_SHAPES[spec.platform].tokenResponse(token, await sandboxPlatformId(spec.platform, code.h)),
    );
  })
  .get("/:platform/me", async (c) => {
    const spec = specOf(c);
    const handle = await bearerHandle(c, spec.platform);
    if (handle === null) return oauthError(c, 401, "invalid_token", "The access token is invalid.");
    const id = await sandboxPlatformId(spec.platform, handle);
    return c.json(SANDBOX_SHAPES[spec.platform].identityResponse(id, handle));
  })
  .route("/", sandboxPostRoutes);

/**
 * The same router at its public path, for the adapters' in-process fetch (client.ts): a request never
 * leaves the worker, and fails the way it would through the app.
 */
export const sandboxInProcess = createRouter<BareEnv>()
  .route("/sandbox", sandboxRouter)
  .notFound((c) => renderError(routeNotFound(), c))
  .onError(renderError);
