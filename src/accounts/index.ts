// Accounts: list (GET /api/v1/accounts), connect by OAuth (POST /connect, the browser then runs the
// delegation pages, src/delegation/browser-routes.ts), get one with its health (GET /{id}), reconnect
// (POST /{id}/reconnect, the same browser flow ending on the same account) and disconnect (DELETE /{id}).
// Ability `accounts`.
import type { Context } from "hono";
import { z } from "zod";
import { AUTHORIZE_TTL_MS } from "../coordinator/flow";
import type { ApiEnv } from "../http/env";
import { invalidField, notFound } from "../http/errors";
import { jsonBody, jsonContent } from "../http/openapi";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { idParams, messageSchema } from "../lib/schemas";
import { disconnect, type FlowStart, startConnect, startReconnect } from "./actions";
import { presentAccount } from "./present";
import { accountsOfUser, ownedAccount } from "./queries";
import { accountSchema, connectBody, connectResponse, reconnectBody, reconnectResponse } from "./schemas";

const route = apiRoutes("accounts");

const tags = ["Accounts"];

const CONNECT_DESCRIPTION = `Starts connecting a social account to a workspace by OAuth.

1. Call this endpoint; send the user's browser to \`authorize_url\`. It is single-use (of parallel opens, one proceeds) and expires after \`expires_in\` seconds (${AUTHORIZE_TTL_MS / 1000}); the service sends the browser on to the platform's consent page.
2. The platform sends the browser back to the service, which stores the account and redirects the browser to \`redirect_url\` with \`status=connected\`, \`account_id\` and \`platform\`. Where the login is not itself the place posts go (a Facebook user's Pages, a LinkedIn member's profile and the organisations they administer, a Google account's YouTube channels), the service first shows a page listing them and stores the one the user picks (with a single one, it is stored at once); the pick is single use and bound to the browser that consented.
3. Otherwise \`redirect_url\` receives \`error\` and \`error_description\`: \`access_denied\` (the user declined), \`connection_failed\` (the platform failed, the flow took too long, it was finished in another browser, the workspace is no longer accessible, or the API key that started it was revoked, expired or lost the \`accounts\` ability meanwhile: nothing is stored), \`expired_request\` (the link was already used or has expired).

The account is identified by (workspace, platform, the platform's user id, or the picked channel's id): connecting the same platform user again updates the same account (same \`id\`): its username, name, avatar and verified flag, and its tokens, so an expired account works again. A connect asks the platform for the scopes that publish, read insights and comments, and keep the account connected (a refresh token). Tokens are stored encrypted. When the API key has registered callback origins, \`redirect_url\` must be on one of them.`;

const RECONNECT_DESCRIPTION = `Repairs an account whose \`health.status\` is \`reauth_required\` (or renews its tokens at any time), keeping its \`id\`, its posts and its analytics.

The same browser flow as connecting (POST /api/v1/accounts/connect): send the user's browser to \`authorize_url\` (single-use, expires after \`expires_in\` seconds); where the platform lists channels the user picks the account's own again. The user must sign in as the same platform account: then the account's tokens and profile are updated, \`has_expired\` clears and \`health\` is \`ok\` again, and \`redirect_url\` receives \`status=connected\`, \`account_id\` (this account's) and \`platform\`. Signed in as another platform account, nothing is stored and \`redirect_url\` receives \`error=connection_failed\` with an \`error_description\` saying so; the other errors are those of a connect. A disconnected account cannot be reconnected (404, as any account outside the lists): connect it again (POST /api/v1/accounts/connect), which brings it back with its \`id\` and history. A reconnect that finishes after its account was disconnected stores nothing and revives nothing: \`redirect_url\` receives \`error=connection_failed\` with an \`error_description\` saying so. A flow whose API key was revoked, expired or lost the \`accounts\` ability before it finished stores nothing (\`connection_failed\`).`;

/** A key with registered callback origins sends browsers nowhere else (no open redirect). */
function checkRedirectOrigin(allowed: string[] | null | undefined, redirectUrl: string) {
  if (allowed && allowed.length > 0 && !allowed.includes(new URL(redirectUrl).origin))
    throw invalidField("redirect_url", "The redirect url's origin is not one registered for this API key.");
}

/** A flow started by the request's API key, bringing the browser back to `redirectUrl`. */
const flowStart = (c: Context<ApiEnv>, redirectUrl: string): FlowStart => ({
  env: c.env,
  metered: (work) => c.var.meter.gate(work),
  origin: publicOrigin(c.env, c.req.url),
  tenant: c.var.principal,
  starter: c.var.principal.keyId,
  callbackUrl: redirectUrl,
  admitted: c.var.admitted,
});

export const accountsRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "get",
      operationId: "listAccounts",
      path: "/",
      tags,
      summary: "List accounts",
      description: "The connected accounts of every workspace the key's user can access, oldest first.",
      responses: { 200: jsonContent(z.object({ data: z.array(accountSchema) }), "The accounts.") },
    }),
    async (c) => {
      const rows = await accountsOfUser(c.var.db, c.var.principal);
      return c.json({ data: rows.map(presentAccount) }, 200);
    },
  )
  .openapi(
    route({
      method: "get",
      operationId: "getAccount",
      path: "/{id}",
      tags,
      summary: "Get an account",
      description:
        "One account with its health: `health.status` is `reauth_required` (and `has_expired` true) once the platform refused the grant for good; reconnect it then (POST /api/v1/accounts/{id}/reconnect). `last_error` is the last token refresh failure (a transient one leaves the status `ok`).",
      request: { params: idParams },
      responses: { 200: jsonContent(accountSchema, "The account.") },
      errors: [404],
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const [account] = await ownedAccount(c.var.db, c.var.principal, id);
      // A disconnected account has left the lists; only a reconnect (or a connect) brings it back.
      if (!account || account.disconnectedAt) throw notFound("Account");
      return c.json(presentAccount(account), 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "connectAccount",
      earlyReads: true,
      path: "/connect",
      idempotent: true,
      tags,
      summary: "Connect an account",
      description: CONNECT_DESCRIPTION,
      request: { body: jsonBody(connectBody) },
      responses: { 201: jsonContent(connectResponse, "The link to send the user's browser to.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { workspace_id, platform, redirect_url } = c.req.valid("json");
      checkRedirectOrigin(principal.callbackOrigins, redirect_url);
      const link = await startConnect(db, flowStart(c, redirect_url), workspace_id, platform);
      c.header("Cache-Control", "no-store");
      return c.json(link, 201);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "reconnectAccount",
      earlyReads: true,
      path: "/{id}/reconnect",
      idempotent: true,
      tags,
      summary: "Reconnect an account",
      description: RECONNECT_DESCRIPTION,
      request: { params: idParams, body: jsonBody(reconnectBody) },
      responses: { 201: jsonContent(reconnectResponse, "The link to send the user's browser to.") },
      errors: [404],
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { redirect_url } = c.req.valid("json");
      checkRedirectOrigin(c.var.principal.callbackOrigins, redirect_url);
      const { link } = await startReconnect(c.var.db, flowStart(c, redirect_url), id);
      c.header("Cache-Control", "no-store");
      return c.json(link, 201);
    },
  )
  .openapi(
    route({
      method: "delete",
      operationId: "deleteAccount",
      earlyReads: true,
      path: "/{id}",
      tags,
      summary: "Disconnect an account",
      description:
        "Disconnects (detaches) the account: it leaves the account lists and the workspaces' `accounts`, cannot be targeted by a post (a 422, as an unknown account) or published to, and its stored tokens are deleted; the token is also revoked at the platform where the platform offers revocation (after the answer, best effort), unless another connected account of the service, in any workspace, rests on the same grant (the same platform user signed in: a LinkedIn member's profile and the organisations connected through them, a Google account's channels), whose connection it would end; when that cannot be told, nothing is revoked. Its rows not yet published are cancelled: a SCHEDULED post left without any platform row becomes a DRAFT (it will not publish); a SCHEDULED post with rows on other accounts stays scheduled on those. Its PUBLISHED rows stay, with their `platform_post_id`, `post_url`, `posted_on` and metrics, in every post, list and analytics answer. Connecting the same platform identity in the same workspace again brings the account back with the same `id` and its history. While a row of the account is PUBLISHING, the answer is a 409 and nothing changes: send it again once the row settled.",
      request: { params: idParams },
      responses: { 200: jsonContent(messageSchema, "Disconnected.") },
      errors: [404, 409],
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      await disconnect(c.env, c.var.db, c.var.principal, id, (work) => c.executionCtx.waitUntil(work));
      return c.json({ message: "Account disconnected successfully." }, 200);
    },
  );
