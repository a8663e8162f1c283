// The webhook API's reads and writes, each usable inside a batch, each limited to the workspaces the
// key's user belongs to: another tenant's endpoint is simply not found.
import { and, asc, count, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { insertWhere } from "../db/batch";
import type { Database } from "../db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents, workspaces } from "../db/schema";
import { type Actor, endpointEvent, type SecurityEventKind } from "../db/security-events";
import { inUserWorkspaces, ownedId, ownedWorkspace, type Tenant } from "../db/tenancy";
import { DELIVERIES_LISTED, PREVIOUS_SECRET_MS } from "./catalog";

/**
 * The endpoint if the user can access its workspace, found through the user's workspaces (`ownedId`), so
 * another tenant's endpoint (and its deliveries) is never read.
 */
export const endpointOfUser = (_db: Database, tenant: Tenant, id: number) =>
  eq(webhookEndpoints.id, ownedId(webhookEndpoints, tenant, id));

/** The user's workspaces (or the one asked for) and their endpoints, in one batch. */
export function endpointsOfUser(db: Database, tenant: Tenant, workspaceId: number | undefined) {
  // The workspace asked for, through the membership: another tenant's is never read.
  const owned = workspaceId ? ownedWorkspace(tenant, workspaceId) : undefined;
  return [
    db
      .select({ id: workspaces.id, timezone: workspaces.timezone })
      .from(workspaces)
      .where(owned ? eq(workspaces.id, owned) : inUserWorkspaces(db, workspaces.id, tenant)),
    db
      .select()
      .from(webhookEndpoints)
      .where(
        and(
          inUserWorkspaces(db, webhookEndpoints.workspaceId, tenant),
          owned ? eq(webhookEndpoints.workspaceId, owned) : undefined,
        ),
      )
      .orderBy(asc(webhookEndpoints.id)),
  ] as const;
}

/** How many endpoints a workspace has. */
export const endpointCount = (db: Database, workspaceId: number | SQL) =>
  db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId));

/** The zone of the workspace of the endpoint `which` selects (for rendering its times). */
const zoneOfEndpoint = (db: Database, which: SQL | undefined) =>
  db
    .select({ timezone: workspaces.timezone })
    .from(workspaces)
    .where(
      eq(workspaces.id, db.select({ id: webhookEndpoints.workspaceId }).from(webhookEndpoints).where(which)),
    );

/**
 * Changes the endpoint if the user can access it and reads it back with its workspace's zone, in one
 * batch (with `logged`, the security log's event of the change too); null when there is
 * no such endpoint.
 */
async function updateEndpointOfUser(
  db: Database,
  tenant: Tenant,
  id: number,
  values: SQLiteUpdateSetSource<typeof webhookEndpoints>,
  logged?: { kind: SecurityEventKind; actor: Actor },
) {
  const change = [
    db
      .update(webhookEndpoints)
      .set(values)
      .where(endpointOfUser(db, tenant, id))
      .returning(),
    zoneOfEndpoint(db, endpointOfUser(db, tenant, id)),
  ] as const;
  const [[endpoint], [zone]] = logged
    ? await db.batch([
        ...change,
        endpointEvent(db, logged.kind, tenant.userId, endpointOfUser(db, tenant, id), logged.actor),
      ])
    : await db.batch(change);
  return endpoint && zone ? { endpoint, timezone: zone.timezone } : null;
}

/** The endpoint with its workspace's zone, if the user can access it. */
export const endpointWithZone = (db: Database, tenant: Tenant, id: number) =>
  db
    .select({ endpoint: webhookEndpoints, timezone: workspaces.timezone })
    .from(webhookEndpoints)
    .innerJoin(workspaces, eq(workspaces.id, webhookEndpoints.workspaceId))
    .where(endpointOfUser(db, tenant, id));

/** The endpoint's zone (when the user can access it) and its newest deliveries, in one batch. */
export function deliveriesOfEndpoint(db: Database, tenant: Tenant, id: number) {
  return [
    zoneOfEndpoint(db, endpointOfUser(db, tenant, id)),
    db
      .select({ ...getTableColumns(webhookDeliveries), eventType: webhookEvents.type })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      // `endpoint_id = (the user's endpoint, or NULL)`: the index walks in order, and only the user's.
      .where(eq(webhookDeliveries.endpointId, ownedId(webhookEndpoints, tenant, id)))
      .orderBy(desc(webhookDeliveries.id))
      .limit(DELIVERIES_LISTED),
  ] as const;
}

/**
 * Stores a new endpoint (its workspace and URL checked by the caller) while the workspace has fewer
 * than `cap` endpoints, counted in the same statement, so parallel creates cannot pass the cap; answers
 * it, or nothing when the workspace is full.
 */
export const insertEndpoint = (db: Database, values: typeof webhookEndpoints.$inferInsert, cap: number) =>
  insertWhere(db, webhookEndpoints, values, sql`(${endpointCount(db, values.workspaceId)}) < ${cap}`)
    .returning()
    .get();

/** Deletes the endpoint if the user can access it (its deliveries go with it); answers its id, or nothing. */
export const deleteEndpoint = (db: Database, tenant: Tenant, id: number) =>
  db
    .delete(webhookEndpoints)
    .where(endpointOfUser(db, tenant, id))
    .returning({ id: webhookEndpoints.id });

/**
 * A new signing secret; the old one keeps signing beside it until `now + PREVIOUS_SECRET_MS` (a second
 * roll within that time drops the older of the two).
 */
export const rollEndpointSecret = (
  db: Database,
  tenant: Tenant,
  id: number,
  secretEnc: string,
  now: number,
  actor: Actor,
) =>
  updateEndpointOfUser(
    db,
    tenant,
    id,
    {
      secretEnc,
      previousSecretEnc: sql`${webhookEndpoints.secretEnc}`,
      previousSecretExpiresAt: new Date(now + PREVIOUS_SECRET_MS),
      updatedAt: new Date(now),
    },
    { kind: "webhook_secret_rolled", actor },
  );

/** Turns a disabled endpoint back on (an enabled one is unchanged but for updated_at). */
export const enableEndpoint = (db: Database, tenant: Tenant, id: number) =>
  updateEndpointOfUser(db, tenant, id, {
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
    updatedAt: new Date(),
  });
