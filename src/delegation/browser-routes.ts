// The two delegation pages a browser visits (no API key: the single-use link and the flow's cookie are
// the credentials): GET /authorize/{token}, which sends the user to the platform's consent page, and
// GET /callback, where the platform sends them back and the service redirects to the application's
// callback_url with a signed proof or an error. A connect flow (POST /api/v1/accounts/connect) runs the
// same steps and differs only at the end: the account is stored (src/accounts/connect.ts) and the
// browser goes to its redirect_url. Browsers get HTML pages and redirects, never JSON, so
// these routes are left out of the OpenAPI document (the session endpoint's description covers them).
import { getCookie } from "hono/cookie";
import { connectErrorLocation, connectedLocation, storeConnectedAccount } from "../accounts/connect";
import { flowCoordinator } from "../coordinator";
import { type FinishResult, FLOW_TTL_MS, type FlowTarget, type OpenResult } from "../coordinator/flow";
import type { DbEnv } from "../http/env";
import { errorStyle } from "../http/errors";
import { createRouter } from "../http/router";
import { randomToken, sha256Hex } from "../lib/crypto";
import { invalidLinkPage, NO_STORE_HEADERS, redirectTo } from "../lib/html";
import { publicOrigin } from "../lib/origin";
import { pkceChallenge } from "../platforms/adapter";
import { isPlatform, SPECS } from "../platforms/catalog";
import { lookupAdapter } from "../platforms/index";
import { PlatformError, type PlatformToken } from "../platforms/types";
import {
  browserCookie,
  browserCookieName,
  CALLBACK_PATH,
  clearBrowserCookie,
  platformState,
  readAuthorizeToken,
  readPlatformState,
} from "./links";
import { type CallbackError, errorLocation, proofLocation } from "./proof";
import { currentSigningSecret } from "./queries";

const label = (platform: string) => (isPlatform(platform) ? SPECS[platform].label : platform);

const backToApp = (target: FlowTarget, error: CallbackError, description: string, cookies: string[] = []) =>
  redirectTo(
    target.connect
      ? connectErrorLocation(target.callbackUrl, error, description)
      : errorLocation(target.callbackUrl, error, description, target.state),
    cookies.map((cookie) => ["Set-Cookie", cookie]),
  );

export const browserRouter = createRouter<DbEnv>()
  .use("/authorize/*", errorStyle("html"))
  .use("/callback", errorStyle("html"))
  .get("/authorize/:token", async (c) => {
    // Hono runs GET handlers for HEAD too; that would spend the single-use link on a link checker's
    // probe. A HEAD only learns that the URL exists.
    if (c.req.method === "HEAD") return new Response(null, { status: 204, headers: NO_STORE_HEADERS });
    const id = await readAuthorizeToken(c.env, c.req.param("token"));
    if (!id)
      return invalidLinkPage("This connection link is not valid. It may have been copied incompletely.");
    const origin = publicOrigin(c.env, c.req.url);
    const browserSecret = randomToken(32);
    const stateSecret = randomToken(32);
    const codeVerifier = randomToken(32);
    const redirectUri = `${origin}${CALLBACK_PATH}`;
    const gate = c.env.COORDINATOR.getByName(flowCoordinator(id));
    const browserHash = await sha256Hex(browserSecret);
    const opened = await c.var.meter.gate<OpenResult>(async () =>
      gate.openDelegation({
        browserHash,
        stateSecretHash: await sha256Hex(stateSecret),
        codeVerifier,
        redirectUri,
      }),
    );
    if (opened.kind === "unknown") return invalidLinkPage("This connection link is not valid.");
    const { target } = opened;
    if (opened.kind === "expired") {
      return backToApp(
        target,
        "expired_request",
        "This connection link was already used or has expired. Start again from the application.",
      );
    }
    const lookup = lookupAdapter(c.env, target.platform, origin);
    if (lookup.kind !== "ok") {
      return backToApp(
        target,
        "connection_failed",
        `${label(target.platform)} is not available on this service.`,
      );
    }
    const { adapter } = lookup;
    const location = adapter.authorizeUrl({
      redirectUri,
      state: platformState(id, stateSecret),
      codeChallenge: adapter.pkce ? await pkceChallenge(codeVerifier) : undefined,
    });
    return redirectTo(location, [
      ["Set-Cookie", browserCookie(id, browserSecret, origin, FLOW_TTL_MS / 1000)],
    ]);
  })
  .get("/callback", async (c) => {
    const parsed = readPlatformState(c.req.query("state"));
    if (!parsed) return invalidLinkPage("This sign-in response does not belong to a connection request.");
    const origin = publicOrigin(c.env, c.req.url);
    const browserSecret = getCookie(c, browserCookieName(parsed.id));
    const gate = c.env.COORDINATOR.getByName(flowCoordinator(parsed.id));
    const finished = await c.var.meter.gate<FinishResult>(async () =>
      gate.finishDelegation({
        stateSecretHash: await sha256Hex(parsed.secret),
        browserHash: browserSecret ? await sha256Hex(browserSecret) : null,
      }),
    );
    switch (finished.kind) {
      case "unknown":
        return invalidLinkPage("This sign-in response does not belong to a connection request.");
      case "used":
        return backToApp(
          finished.target,
          "expired_request",
          "This connection request was already completed.",
        );
      case "expired":
        return backToApp(
          finished.target,
          "connection_failed",
          "The connection took too long. Start again from the application.",
        );
      case "wrong_browser":
        return backToApp(
          finished.target,
          "connection_failed",
          "The connection was finished in a different browser from the one that started it.",
        );
    }
    const { target, keyId, codeVerifier, redirectUri } = finished;
    const clear = [clearBrowserCookie(parsed.id, origin)];
    const name = label(target.platform);
    const failed = (description: string) => backToApp(target, "connection_failed", description, clear);
    const lookup = lookupAdapter(c.env, target.platform, origin);
    if (lookup.kind !== "ok") return failed(`${name} is not available on this service.`);
    const { adapter } = lookup;
    const error = c.req.query("error");
    if (error !== undefined) {
      if (adapter.isDenial(error)) {
        return backToApp(
          target,
          "access_denied",
          `The user declined to connect their ${name} account.`,
          clear,
        );
      }
      return failed(`${name} did not complete the sign-in.`);
    }
    const code = c.req.query("code");
    if (!code) return failed(`${name} did not complete the sign-in.`);
    let identity: Awaited<ReturnType<typeof adapter.identity>>;
    let token: PlatformToken;
    try {
      token = await adapter.exchangeCode({
        code,
        redirectUri,
        codeVerifier: adapter.pkce ? codeVerifier : undefined,
      });
      // A delegation uses the token for this one call and drops it: nothing about the account is kept.
      identity = await adapter.identity(token);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      console.warn(`delegation: ${error.message}`);
      return failed(`${name} did not complete the connection.`);
    }
    // A connect flow (POST /api/v1/accounts/connect) keeps the token: the account is stored.
    if (target.connect) {
      const accountId = await storeConnectedAccount(
        c.var.db,
        c.env.ENCRYPTION_KEY,
        adapter.platform,
        target.connect,
        token,
        identity,
      );
      if (accountId === null) return failed("The workspace of this connection is no longer accessible.");
      return redirectTo(
        connectedLocation(target.callbackUrl, accountId, adapter.platform),
        clear.map((cookie) => ["Set-Cookie", cookie]),
      );
    }
    const secret = await currentSigningSecret(c.var.db, c.env.ENCRYPTION_KEY, keyId);
    if (!secret) return failed("The API key that requested this connection is no longer valid.");
    const location = await proofLocation(
      target.callbackUrl,
      secret,
      { platform: target.platform, state: target.state, ...identity },
      Date.now(),
    );
    if (!location) return failed(`${name} answered with an account id this service cannot vouch for.`);
    return redirectTo(
      location,
      clear.map((cookie) => ["Set-Cookie", cookie]),
    );
  });
