// The sandbox: an emulator of all eight platforms' own APIs inside the worker (SANDBOX=true), like a
// payment provider's test mode, on which the production adapters run. Each platform's emulator
// (<platform>/, table in emulators.ts) answers its API's own paths; what they share is here: the consent
// page (consent.ts) and the token and identity answers in each platform's own shapes
// (shapes.ts, each stated by the platform's own token.ts), served on each platform's own authorize, token and identity paths
// unless its emulator answers them itself, and the post pages, account lists, stats and revocation
// (account-routes.ts). Codes and tokens are sealed (src/platforms/sandbox/seal.ts) and expire; codes and
// rotating refresh tokens are spent once (spent.ts). Its OAuth endpoints fail the OAuth way,
// `{error, error_description}`; anything it does not emulate is the service's plain 404.
// The adapters' side (src/platforms/sandbox/) never imports this folder: it reaches these routes through
// the worker's own fetch handler.
import type { Context } from "hono";
import { bearerToken } from "../http/auth";
import { formBodyLimit } from "../http/body-limit";
import type { BareEnv } from "../http/env";
import { renderError, routeNotFound } from "../http/errors";
import { createRouter } from "../http/router";
import { timingSafeEqualText } from "../lib/crypto";
import { invalidLinkPage } from "../lib/html";
import { publicOrigin } from "../lib/origin";
import { LOOPBACK_HEADER, loopbackMark, sandboxEnabled } from "../platforms/sandbox/enabled";
import { OWNER_PARAM, readOwnerTag } from "../platforms/sandbox/owner";
import { checkToken, tokenRefusal } from "./access";
import { isAccountTool, sandboxAccountRoutes } from "./account-routes";
import { isProblem, readForm } from "./body";
import { backTo, consentPage, handleProblem, readAuthorizeRequest } from "./consent";
import { EMULATORS } from "./emulators";
import { issueCode } from "./grants";
import { oauthError } from "./oauth-error";
import { platformOf, sandboxPlatformId, shapeOf } from "./shapes";
import { sandboxTokenRoutes, tokenEndpoint } from "./token-routes";

const specOf = (c: Context<BareEnv>) => platformOf(c.req.param("platform"));

/**
 * What the request's path is on the platform: the part after `/sandbox/<platform>`, for matching the
 * platform's own authorize, token and identity paths.
 */
const platformPath = (c: Context<BareEnv>, platform: string) =>
  new URL(c.req.url).pathname.slice(`/sandbox/${platform}`.length) || "/";

/** The authorize request of the page's URL, checked against the service's own origin. */
function authorizeRequestOf(c: Context<BareEnv>) {
  const spec = specOf(c);
  const url = new URL(c.req.url);
  const request = readAuthorizeRequest(spec, url.searchParams, publicOrigin(c.env, c.req.url));
  return { spec, request, action: `${url.pathname}${url.search}` };
}

/** Whether the path is a platform's consent page (the emulator's own or the platform's authorize path). */
function isConsentPath(c: Context<BareEnv>): boolean {
  const [, , platform, ...rest] = new URL(c.req.url).pathname.split("/");
  const path = `/${rest.join("/")}`;
  if (path === "/oauth/authorize") return true;
  try {
    return path === platformOf(platform ?? "").paths.authorize;
  } catch {
    return false;
  }
}

/**
 * /sandbox/…: everything while SANDBOX is "true" (local development). Otherwise test mode's: the
 * adapters' own in-process calls (marked by an HMAC only this deployment makes), the consent pages a
 * test flow sends a browser to (they can only send a code back to this service's own callback, which
 * needs the flow's secret state), and the post pages and account tools, which need the owning test key
 * (account-routes.ts); anything else is a 404, as if the sandbox were not there.
 */
export const sandboxRouter = createRouter<BareEnv>()
  .use("*", async (c, next) => {
    if (sandboxEnabled(c.env)) return next();
    const mark = c.req.header(LOOPBACK_HEADER);
    if (mark && timingSafeEqualText(mark, await loopbackMark(c.env))) return next();
    if ((c.req.method === "GET" || c.req.method === "POST") && isConsentPath(c)) return next();
    // The post pages and account tools decide themselves: the owning test key (account-routes.ts).
    if (isAccountTool(c.req.method, new URL(c.req.url).pathname.slice("/sandbox".length))) return next();
    throw routeNotFound();
  })
  .get("/:platform/oauth/authorize", (c) => showConsent(c))
  // The consent form: a body over 16 KiB is a 413 before anything else reads it.
  .post("/:platform/oauth/authorize", formBodyLimit, (c) => decideConsent(c))
  .route("/", sandboxTokenRoutes)
  .route("/", sandboxAccountRoutes);

// Each platform's emulator answers its API's own paths.
for (const [platform, { router }] of Object.entries(EMULATORS)) sandboxRouter.route(`/${platform}`, router);

sandboxRouter
  // The platform's own authorize, token and identity paths, where its emulator does not answer them.
  .all("/:platform/*", async (c, next) => {
    const spec = specOf(c);
    const path = platformPath(c, spec.platform);
    const method = c.req.method;
    if (path === spec.paths.authorize) {
      if (method === "GET") return showConsent(c);
      if (method === "POST") {
        // The consent form, capped like at /oauth/authorize (only here: other paths take other bodies).
        let answer: Response | undefined;
        await formBodyLimit(c, async () => {
          answer = await decideConsent(c);
        });
        return answer;
      }
    }
    if (path === spec.paths.token && method === "POST") return tokenEndpoint(c, spec);
    if (path === spec.paths.identity && method === "GET") return identity(c);
    await next();
  })
  // Who a token acts for, the same on every platform (the platform's own identity path answers its way).
  .get("/:platform/me", (c) => identity(c));

/** The consent page of an authorize request. */
function showConsent(c: Context<BareEnv>) {
  const { spec, request, action } = authorizeRequestOf(c);
  if (typeof request === "string") return invalidLinkPage(request);
  return consentPage(spec, request, action);
}

/** The consent form's answer: back to the client with a code, or with the platform's denial. */
async function decideConsent(c: Context<BareEnv>) {
  const { spec, request, action } = authorizeRequestOf(c);
  // Checked before anything else: a bad redirect_uri is never redirected to, even to refuse.
  if (typeof request === "string") return invalidLinkPage(request);
  const form = await readForm(c.req.raw);
  if (isProblem(form)) return consentPage(spec, request, action, "The form could not be read. Try again.");
  const decision = form.get("decision");
  if (decision === "deny") {
    return backTo(request.redirectUri, {
      error: spec.denial,
      error_description: "The user denied the request.",
      state: request.state,
    });
  }
  const handle = form.get("handle") ?? "";
  if (decision !== "allow") return consentPage(spec, request, action, "Choose Allow or Deny.", handle);
  const problem = handleProblem(handle);
  if (problem) return consentPage(spec, request, action, problem, handle);
  // A test flow's user's space (src/platforms/sandbox/owner.ts): a tag that is not this flow's is a bad link.
  const tag = c.req.query(OWNER_PARAM);
  const space = tag === undefined ? null : await readOwnerTag(c.env, tag, request.state);
  if (tag !== undefined && space === null) return invalidLinkPage("This consent link is not valid.");
  const code = await issueCode(c.env, spec.platform, request, handle, space);
  return backTo(request.redirectUri, { code, state: request.state });
}

/** The platform's identity answer for the bearer token (or `access_token` parameter). */
async function identity(c: Context<BareEnv>) {
  const spec = specOf(c);
  const token = bearerToken(c.req.header("authorization")) ?? c.req.query("access_token");
  const check = await checkToken(c.env, spec.platform, token);
  if (check.kind !== "ok") return oauthError(401, "invalid_token", tokenRefusal(check));
  const id = await sandboxPlatformId(spec.platform, check.handle, check.space);
  return c.json(shapeOf(spec.platform).identityResponse(id, check.handle));
}

/**
 * The same router at its public path, failing the way it would through the app, for calling it with an
 * env of one's own (the adapters reach it through the app: src/platforms/sandbox/client.ts).
 */
export const sandboxInProcess = createRouter<BareEnv>()
  .route("/sandbox", sandboxRouter)
  .notFound((c) => renderError(routeNotFound(), c))
  .onError(renderError);
