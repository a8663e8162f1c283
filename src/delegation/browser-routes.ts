// The two delegation pages a browser visits (no API key: the single-use link and the flow's cookie are
// the credentials): GET /authorize/{token}, which sends the user to the platform's consent page, and
// GET /callback, where the platform sends them back and the service redirects to the application's
// callback_url with a signed proof or an error. A connect flow (POST /api/v1/accounts/connect) runs the
// same steps and differs only at the end: the account is stored (src/accounts/connect.ts) and the
// browser goes to its redirect_url. Browsers get HTML pages and redirects, never JSON, so
// these routes are left out of the OpenAPI document (the session endpoint's description covers them).
import { getCookie } from "hono/cookie";
import { channelPage, openChoice, sealChoice } from "../accounts/channels";
import {
  connectErrorLocation,
  connectedLocation,
  connectKeyValid,
  storeConnectedAccount,
} from "../accounts/connect";
import type { TakeResult } from "../coordinator/choice";
import {
  type ConnectTarget,
  type FinishResult,
  FLOW_TTL_MS,
  type FlowTarget,
  type OpenResult,
} from "../coordinator/flow";
import {
  browserCookie,
  browserCookieName,
  CALLBACK_PATH,
  type CallbackError,
  choiceToken,
  clearBrowserCookie,
  platformState,
  readAuthorizeToken,
  readChoiceToken,
  readPlatformState,
} from "../coordinator/links";
import { flowCoordinator } from "../coordinator/names";
import type { Platform } from "../db/enums";
import type { ShardDatabases } from "../db/shards";
import { formBodyLimit } from "../http/body-limit";
import type { DbEnv } from "../http/env";
import { errorStyle } from "../http/errors";
import { createRouter } from "../http/router";
import { randomToken, sha256Hex } from "../lib/crypto";
import { invalidLinkPage, NO_STORE_HEADERS, redirectTo } from "../lib/html";
import { publicOrigin } from "../lib/origin";
import { pkceChallenge } from "../platforms/adapter";
import { isPlatform, SPECS } from "../platforms/catalog";
import { lookupAdapter } from "../platforms/index";
import { type Channel, type Identity, PlatformError, type PlatformToken } from "../platforms/types";
import { errorLocation, proofLocation } from "./proof";
import { currentSigningSecret } from "./queries";

/**
 * Stores the connected account and sends the browser to the redirect_url, or back with an error: nothing
 * is stored when the API key that started the flow was revoked or expired meanwhile, nor when a
 * reconnect ended on another platform identity than its account's.
 */
async function storeConnect(
  shards: ShardDatabases,
  encryptionKey: string | undefined,
  target: FlowTarget & { connect: ConnectTarget },
  platform: Platform,
  connected: { token: PlatformToken; identity: Identity; channel: Channel | null },
  clear: string[],
) {
  const { keyId, workspaceId, accountId } = target.connect;
  // The key lives on its own shard (src/db/shards.ts), the account on its workspace's.
  if (keyId !== undefined && !(await connectKeyValid(shards.of(keyId), keyId)))
    return backToApp(
      target,
      "connection_failed",
      "The API key that requested this connection is no longer valid.",
      clear,
    );
  const stored = await storeConnectedAccount(
    shards.of(workspaceId),
    encryptionKey,
    platform,
    target.connect,
    connected.token,
    connected.identity,
    connected.channel,
  );
  if (stored.kind === "other_identity")
    return backToApp(
      target,
      "connection_failed",
      `The ${label(platform)} account connected is not the one being reconnected. Sign in as that account and try again.`,
      clear,
    );
  if (stored.kind === "inaccessible")
    return backToApp(
      target,
      "connection_failed",
      accountId === undefined
        ? "The workspace of this connection is no longer accessible."
        : "The account being reconnected no longer exists or is no longer accessible.",
      clear,
    );
  return redirectTo(
    connectedLocation(target.callbackUrl, stored.accountId, platform),
    clear.map((cookie) => ["Set-Cookie", cookie]),
  );
}

const NOT_A_CALLBACK = "This sign-in response does not belong to a connection request.";
const NOT_A_CHOICE = "This choice does not belong to a connection request, or it was already made.";

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
    const location = await adapter.authorizeUrl({
      redirectUri,
      state: await platformState(c.env, id, stateSecret),
      codeChallenge: adapter.pkce ? await pkceChallenge(codeVerifier) : undefined,
      purpose: target.connect ? "connect" : "delegation",
    });
    return redirectTo(location, [
      ["Set-Cookie", browserCookie(id, browserSecret, origin, FLOW_TTL_MS / 1000)],
    ]);
  })
  .get("/callback", async (c) => {
    // A forged or invented state is refused before any Durable Object is reached (links.ts).
    const parsed = await readPlatformState(c.env, c.req.query("state"));
    if (!parsed) return invalidLinkPage(NOT_A_CALLBACK);
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
        return invalidLinkPage(NOT_A_CALLBACK);
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
        purpose: target.connect ? "connect" : "delegation",
      });
      // A delegation uses the token for this one call and drops it: nothing about the account is kept.
      identity = await adapter.identity(token);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      console.warn(`delegation: ${error.message}`);
      return failed(`${name} did not complete the connection.`);
    }
    // A connect flow (POST /api/v1/accounts/connect) keeps the token: the account is stored, as the
    // channel the user picks where the platform has several (src/accounts/channels.ts).
    if (target.connect) {
      let channels: Channel[] | null;
      try {
        channels = await adapter.channels(token, identity);
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        console.warn(`connect: ${error.message}`);
        return failed(`${name} did not list where this account can publish.`);
      }
      if (channels?.length === 0)
        return failed(`This ${name} account has nowhere this service can publish to (no Page or channel).`);
      if (channels && channels.length > 1) {
        await c.var.meter.gate(async () =>
          gate.holdConnectChoice({
            browserHash: await sha256Hex(browserSecret ?? ""),
            sealed: await sealChoice(c.env.ENCRYPTION_KEY, { token, identity, channels }),
            target,
          }),
        );
        return channelPage(CALLBACK_PATH, await choiceToken(c.env, parsed.id), name, channels);
      }
      return storeConnect(
        c.var.shards,
        c.env.ENCRYPTION_KEY,
        { ...target, connect: target.connect },
        adapter.platform,
        { token, identity, channel: channels?.[0] ?? null },
        clear,
      );
    }
    const secret = await currentSigningSecret(c.var.shards.of(keyId), c.env.ENCRYPTION_KEY, keyId);
    if (!secret) return failed("The API key that requested this connection is no longer valid.");
    const location = await proofLocation(
      target.callbackUrl,
      secret,
      // The proof signs who the user is, never the profile a connect stores.
      {
        platform: target.platform,
        state: target.state,
        platform_id: identity.platform_id,
        handle: identity.handle,
      },
      Date.now(),
    );
    if (!location) return failed(`${name} answered with an account id this service cannot vouch for.`);
    return redirectTo(
      location,
      clear.map((cookie) => ["Set-Cookie", cookie]),
    );
  })
  // The channel pick (src/accounts/channels.ts): a same-origin form POST to the callback path, where the
  // flow's browser cookie is sent (SameSite=Lax: a cross-site form cannot carry it). Its body is capped
  // before it is parsed (413 past 16 KiB).
  .post("/callback", formBodyLimit, async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const channelId = typeof form.channel === "string" ? form.channel : "";
    if (typeof form.flow !== "string" || channelId === "")
      return invalidLinkPage("This choice does not belong to a connection request.");
    // The form names the flow signed (links.ts): a forged or invented one is refused as an unknown flow
    // would be, before any Durable Object is reached.
    const flowId = await readChoiceToken(c.env, form.flow);
    if (!flowId) return invalidLinkPage(NOT_A_CHOICE);
    const origin = publicOrigin(c.env, c.req.url);
    const browserSecret = getCookie(c, browserCookieName(flowId));
    const gate = c.env.COORDINATOR.getByName(flowCoordinator(flowId));
    const taken: TakeResult = await c.var.meter.gate<TakeResult>(async () =>
      gate.takeConnectChoice(browserSecret ? await sha256Hex(browserSecret) : null),
    );
    if (taken.kind === "unknown" || taken.kind === "wrong_browser") return invalidLinkPage(NOT_A_CHOICE);
    const clear = [clearBrowserCookie(flowId, origin)];
    const { target } = taken;
    if (!target.connect || !isPlatform(target.platform))
      return invalidLinkPage("This choice does not belong to a connection request.");
    const connect = { ...target, connect: target.connect };
    if (taken.kind === "expired")
      return backToApp(
        target,
        "connection_failed",
        "The choice took too long. Start again from the application.",
        clear,
      );
    const pending = await openChoice(c.env.ENCRYPTION_KEY, taken.sealed);
    const channel = pending?.channels.find((candidate) => candidate.id === channelId);
    if (!pending || !channel)
      return backToApp(target, "connection_failed", "The chosen channel is not one of those offered.", clear);
    return storeConnect(
      c.var.shards,
      c.env.ENCRYPTION_KEY,
      connect,
      target.platform,
      { ...pending, channel },
      clear,
    );
  });
