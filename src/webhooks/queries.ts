// The webhook API's reads and writes, each usable inside a batch, each limited to the workspaces the
// key's user belongs to: another tenant's endpoint is simply not found.
import { and, asc, count, desc, eq, getTableColumns, type SQL } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents, workspaces } from "../db/schema";
import { inUserWorkspaces } from "../db/tenancy";
import { DELIVERIES_LISTED } from "./catalog";

/** The endpoint if the user can access its workspace. */
export const endpointOfUser = (db: Database, userId: number, id: number) =>
  and(eq(webhookEndpoints.id, id), inUserWorkspaces(db, webhookEndpoints.workspaceId, userId));

/** The user's workspaces (or the one asked for) and their endpoints, in one batch. */
export function endpointsOfUser(db: Database, userId: number, workspaceId: number | undefined) {
  const visible = inUserWorkspaces(db, workspaces.id, userId);
  return [
    db
      .select({ id: workspaces.id, timezone: workspaces.timezone })
      .from(workspaces)
      .where(workspaceId ? and(eq(workspaces.id, workspaceId), visible) : visible),
    db
      .select()
      .from(webhookEndpoints)
      .where(
        and(
          inUserWorkspaces(db, webhookEndpoints.workspaceId, userId),
          workspaceId ? eq(webhookEndpoints.workspaceId, workspaceId) : undefined,
        ),
      )
      .orderBy(asc(webhookEndpoints.id)),
  ] as const;
}

/** How many endpoints a workspace has. */
export const endpointCount = (db: Database, workspaceId: number) =>
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
 * batch; null when there is no such endpoint.
 */
export async function updateEndpointOfUser(
  db: Database,
  userId: number,
  id: number,
  values: SQLiteUpdateSetSource<typeof webhookEndpoints>,
) {
  const [[endpoint], [zone]] = await db.batch([
    db
      .update(webhookEndpoints)
      .set(values)
      .where(endpointOfUser(db, userId, id))
      .returning(),
    zoneOfEndpoint(db, eq(webhookEndpoints.id, id)),
  ]);
  return endpoint && zone ? { endpoint, timezone: zone.timezone } : null;
}

/** The endpoint with its workspace's zone, if the user can access it. */
export const endpointWithZone = (db: Database, userId: number, id: number) =>
  db
    .select({ endpoint: webhookEndpoints, timezone: workspaces.timezone })
    .from(webhookEndpoints)
    .innerJoin(workspaces, eq(workspaces.id, webhookEndpoints.workspaceId))
    .where(endpointOfUser(db, userId, id));

/** The endpoint's zone (when the user can access it) and its newest deliveries, in one batch. */
export function deliveriesOfEndpoint(db: Database, userId: number, id: number) {
  return [
    zoneOfEndpoint(db, endpointOfUser(db, userId, id)),
    db
      .select({ ...getTableColumns(webhookDeliveries), eventType: webhookEvents.type })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.endpointId, id))
      .orderBy(desc(webhookDeliveries.id))
      .limit(DELIVERIES_LISTED),
  ] as const;
}
