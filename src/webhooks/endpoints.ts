// The endpoint changes that generate a secret, as plain functions of the user: the REST routes
// (index.ts) and the console's webhooks page call these, so the URL rules, the cap and the tenancy are
// checked in one place.
import type { z } from "zod";
import type { Database } from "../db/client";
import type { Actor } from "../db/security-events";
import { accessibleWorkspace, ownedWorkspace, type Tenant } from "../db/tenancy";
import { invalidField, notFound } from "../http/errors";
import { encryptSecret } from "../lib/crypto";
import { MAX_ENDPOINTS_PER_WORKSPACE } from "./catalog";
import { endpointCount, insertEndpoint, rollEndpointSecret } from "./queries";
import type { createWebhookBody } from "./schemas";
import { newSecret } from "./sign";
import { checkTargetUrl } from "./target";

type Secrets = Pick<Env, "ENCRYPTION_KEY">;

/**
 * Registers an endpoint in one of the user's workspaces: 404 for a workspace the user cannot access,
 * 422 on `url` for a URL the delivery guard would refuse, 422 on `workspace_id` past the cap. Answers
 * the endpoint, its workspace's zone and its signing secret (shown once).
 */
export async function createEndpoint(
  env: Secrets & Parameters<typeof checkTargetUrl>[1],
  db: Database,
  tenant: Tenant,
  body: z.output<typeof createWebhookBody>,
) {
  const target = checkTargetUrl(body.url, env);
  const [[workspace], [held]] = await db.batch([
    accessibleWorkspace(db, tenant, body.workspace_id),
    // Counted through the membership: another tenant's workspace is never read.
    endpointCount(db, ownedWorkspace(tenant, body.workspace_id)),
  ]);
  if (!workspace) throw notFound("Workspace");
  if (!target.ok)
    throw invalidField(
      "url",
      target.port
        ? `The url must use port 443 or 80, not ${target.port}.`
        : `The url must be a public http or https URL (${target.reason}).`,
    );
  const full = () =>
    invalidField(
      "workspace_id",
      `A workspace holds at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints: delete one to make room.`,
    );
  if ((held?.n ?? 0) >= MAX_ENDPOINTS_PER_WORKSPACE) throw full();
  const secret = newSecret();
  // The count above only answers early; the insert counts again itself, so parallel creates stop at
  // the cap.
  const endpoint = await insertEndpoint(
    db,
    {
      workspaceId: workspace.id,
      url: target.url.href,
      events: body.events,
      secretEnc: await encryptSecret(env.ENCRYPTION_KEY, secret),
    },
    MAX_ENDPOINTS_PER_WORKSPACE,
  );
  if (!endpoint) throw full();
  return { endpoint, timezone: workspace.timezone, secret };
}

/** A new signing secret for the user's endpoint (logged as `actor`'s); 404 when there is none. */
export async function rollSecret(env: Secrets, db: Database, tenant: Tenant, id: number, actor: Actor) {
  const secret = newSecret();
  const secretEnc = await encryptSecret(env.ENCRYPTION_KEY, secret);
  const updated = await rollEndpointSecret(db, tenant, id, secretEnc, Date.now(), actor);
  if (!updated) throw notFound("Webhook");
  return { ...updated, secret };
}
