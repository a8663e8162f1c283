// What connecting, reconnecting and disconnecting an account does, as plain functions of a database
// and values: the REST routes (index.ts) and the console's accounts page (src/console/accounts.tsx) both
// call them, so the checks and the one OAuth flow (src/oauth/start.ts) are the same from either side.
import type { Database } from "../db/client";
import type { Platform } from "../db/enums";
import { accessibleWorkspace, type Tenant } from "../db/tenancy";
import { conflict, invalidField, notFound } from "../http/errors";
import type { Metered } from "../oauth/context";
import { type AuthorizeLink, startFlow } from "../oauth/start";
import { lookupAdapter } from "../platforms/index";
import { revokeDisconnected } from "./connect";
import { disconnectAccount, ownedAccount } from "./queries";

/**
 * Who starts the flow and where its browser comes back: `starter` is the number the flow records
 * (an API key's id, or a console session's: src/oauth/start.ts), `callbackUrl` the redirect_url.
 * `admitted` settles once the request may write (the API gate's call; the console has none).
 */
export type FlowStart = {
  env: Env;
  metered: Metered;
  origin: string;
  tenant: Tenant;
  starter: number;
  callbackUrl: string;
  admitted?: () => Promise<void>;
};

/** Starts connecting a `platform` account to one of the user's workspaces (404 for any other). */
export async function startConnect(
  db: Database,
  start: FlowStart,
  workspaceId: number,
  platform: Platform,
): Promise<AuthorizeLink> {
  const { env, metered, origin, tenant } = start;
  const lookup = lookupAdapter(env, platform, origin, tenant.mode);
  if (lookup.kind !== "ok")
    throw invalidField("platform", `The platform "${platform}" is not configured on this service.`);
  const [workspace] = await accessibleWorkspace(db, tenant, workspaceId);
  if (!workspace) throw notFound("Workspace");
  // The workspace read overlapped the gate's Coordinator call; the flow is created once admitted.
  await start.admitted?.();
  return startFlow(env, metered, origin, {
    platform,
    callbackUrl: start.callbackUrl,
    state: "",
    keyId: start.starter,
    mode: tenant.mode,
    connect: { workspaceId: workspace.id, userId: tenant.userId },
  });
}

/**
 * Starts the same flow ending on the user's connected account `accountId` (404 for any other); answers
 * the link and the account's platform.
 */
export async function startReconnect(
  db: Database,
  start: FlowStart,
  accountId: number,
): Promise<{ link: AuthorizeLink; platform: Platform }> {
  const { env, metered, origin, tenant } = start;
  const [account] = await ownedAccount(db, tenant, accountId);
  // A disconnected account is outside /accounts: only a new connect brings it back.
  if (!account || account.disconnectedAt) throw notFound("Account");
  const lookup = lookupAdapter(env, account.platform, origin, tenant.mode);
  if (lookup.kind !== "ok")
    throw invalidField("id", `The platform "${account.platform}" is not configured on this service.`);
  await start.admitted?.();
  const link = await startFlow(env, metered, origin, {
    platform: account.platform,
    callbackUrl: start.callbackUrl,
    state: "",
    keyId: start.starter,
    mode: tenant.mode,
    connect: { workspaceId: account.workspaceId, userId: tenant.userId, accountId: account.id },
  });
  return { link, platform: account.platform };
}

/**
 * Detaches the user's account (queries.ts disconnectAccount: published rows stay, the rest is
 * cancelled); 404 for another's, 409 while a row of it is publishing. The token's revocation at the
 * platform is handed to `later` (waitUntil): the account is detached either way, and a platform's
 * slowness is not the client's. A grant another account still rests on is not revoked (grant.ts).
 */
export async function disconnect(
  env: Env,
  db: Database,
  tenant: Tenant,
  accountId: number,
  later: (work: Promise<void>) => void,
): Promise<void> {
  const [[account], , , , detached] = await db.batch(disconnectAccount(db, tenant, accountId));
  if (!account) throw notFound("Account");
  if (detached.length === 0)
    throw conflict("The account is being published to; disconnect it once the publication settled.");
  later(revokeDisconnected(env, account));
}
