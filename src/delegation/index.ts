// OAuth delegation (/api/oauth/delegate): the session endpoint an application's server calls, declared
// contract-first and documented with the whole flow, and the mounting of the browser's pages
// (browser-routes.ts).
import { createMiddleware } from "hono/factory";
import { AUTHORIZE_TTL_MS } from "../coordinator/flow";
import { PLATFORMS } from "../db/enums";
import { awaitAdmission } from "../http/abilities";
import type { ApiEnv, DbEnv } from "../http/env";
import {
  errorStyle,
  invalidField,
  noSigningSecret,
  platformNotConfigured,
  unsupportedPlatform,
} from "../http/errors";
import { apiGate } from "../http/gate";
import { IDEMPOTENCY_PARAMETER, idempotency } from "../http/idempotency";
import { jsonBody, jsonContent } from "../http/openapi";
import { publicRoute } from "../http/route";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { startFlow } from "../oauth/start";
import { lookupAdapter } from "../platforms/index";
import { browserRouter } from "./browser-routes";
import { PROOF_TTL_SECONDS } from "./proof";
import { sessionBody, sessionResponse } from "./schemas";

/**
 * A key without a signing secret cannot create sessions, whatever the body says. The key may come from
 * the isolate's cache: a refusal waits for the admission, which checks it against the key as it stands.
 */
const requireSigningSecret = createMiddleware<ApiEnv>(async (c, next) => {
  if (!c.var.principal.signingSecretEnc) {
    await c.var.admitted();
    if (!c.var.principal.signingSecretEnc) throw noSigningSecret();
  }
  await next();
});

const DESCRIPTION = `Starts a delegation: the user of your application proves which account they own on a platform, and your server receives a signed proof. The service keeps nothing about the account.

1. Your server calls this endpoint with an API key that has a **signing secret** (any key works, no ability needed; the call counts against the user's 60 requests per minute). Platforms: ${PLATFORMS.join(", ")}.
2. Send the user's browser to \`authorize_url\`. It is single-use and expires after \`expires_in\` seconds (${AUTHORIZE_TTL_MS / 1000}); the service sends the browser on to the platform's consent page.
3. The platform sends the browser back to the service, which redirects it to your \`callback_url\` with, on success: \`platform\`, \`platform_id\` (the platform's permanent user id), \`handle\`, \`state\` (yours, unchanged), \`expires\` (Unix seconds, ${PROOF_TTL_SECONDS / 60} minutes ahead) and \`sig\`.
4. Trust the proof only if all three hold:
   - \`sig\` is the lowercase hex HMAC-SHA256, keyed with the signing secret, of \`platform={platform}&platform_id={platform_id}&handle={handle}&state={state}&expires={expires}\` (the values as received, decoded, not URL-encoded again), compared in constant time;
   - \`expires\` is in the future;
   - \`state\` is the one you generated for this user, not used before (mark it used).

   The package's \`social-publishing-api/verify-proof\` module does all three.

When the connection does not complete, \`callback_url\` receives \`error\`, \`error_description\` and \`state\` instead:
- \`access_denied\`: the user declined on the platform;
- \`connection_failed\`: the platform failed, the flow took too long, it was finished in another browser, or the key lost its signing secret meanwhile;
- \`expired_request\`: the link was already used or has expired.

Errors of this endpoint carry a \`code\`: \`missing_api_key\`, \`invalid_api_key\` (401); \`no_signing_secret\`, \`unsupported_platform\`, \`invalid_request\` (422, field errors under \`errors\`); \`invalid_request\` (400, 415); \`rate_limited\` (429). A body over 1 MiB is refused before it is read: 413 with the plain \`{message}\` every route answers, without a \`code\`.

An \`Idempotency-Key\` header makes a retry safe: a repeat with the same key and body answers the same \`authorize_url\` (with \`Idempotent-Replayed: true\`); \`conflict\` (409) while the first request is still running, \`invalid_request\` (422) when the key was used for a different request.`;

const sessions = createRouter<DbEnv>().openapi(
  publicRoute({
    method: "post",
    operationId: "createDelegationSession",
    path: "/sessions",
    tags: ["Delegation"],
    summary: "Create a delegation session",
    description: DESCRIPTION,
    audience: "coded",
    security: [{ apiKey: [] }],
    middleware: [
      errorStyle("coded"),
      apiGate("coded"),
      requireSigningSecret,
      // Takes the claim the gate made with its admission, which awaitAdmission then waits for too.
      idempotency,
      awaitAdmission,
    ] as const,
    parameters: [IDEMPOTENCY_PARAMETER],
    request: { body: jsonBody(sessionBody) },
    responses: { 200: jsonContent(sessionResponse, "The link to send the user's browser to.") },
    errors: [401, 409, 422, 429],
  }),
  async (c) => {
    const { platform, callback_url, state } = c.req.valid("json");
    // The key as the admission confirmed it (a cached copy may have had a secret since removed).
    if (!c.var.principal.signingSecretEnc) throw noSigningSecret();
    // A key with registered callback origins sends browsers nowhere else (no open redirect).
    const allowed = c.var.principal.callbackOrigins ?? [];
    if (allowed.length > 0 && !allowed.includes(new URL(callback_url).origin))
      throw invalidField("callback_url", "The callback url's origin is not one registered for this API key.");
    const origin = publicOrigin(c.env, c.req.url);
    const lookup = lookupAdapter(c.env, platform, origin, c.var.principal.mode);
    if (lookup.kind === "unsupported") throw unsupportedPlatform(platform);
    if (lookup.kind === "not_configured") throw platformNotConfigured(platform);
    const keyId = c.var.principal.keyId;
    const link = await startFlow(c.env, (work) => c.var.meter.gate(work), origin, {
      platform,
      callbackUrl: callback_url,
      state,
      keyId,
      mode: c.var.principal.mode,
    });
    c.header("Cache-Control", "no-store");
    return c.json(link, 200);
  },
);

export const delegationRouter = createRouter<DbEnv>().route("/", sessions).route("/", browserRouter);
