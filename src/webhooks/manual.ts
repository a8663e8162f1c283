// Deliveries a user asks for: a signed `webhook.test` event to one endpoint, and a settled delivery sent
// again. Both end as any delivery does: a `{delivery_id}` message on the webhooks queue, attempted,
// signed and retried by the same consumer (deliver.ts), listed with the endpoint's deliveries.
import { and, eq, getTableColumns, isNull, ne, sql } from "drizzle-orm";
import { insertWhere } from "../db/batch";
import type { Database } from "../db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../db/schema";
import { ownedId, type Tenant } from "../db/tenancy";
import { conflict, notFound } from "../http/errors";
import { type DeliveredEventType, MAX_ATTEMPTS, WEBHOOK_TEST_EVENT } from "./catalog";
import type { DeliveryMessage } from "./events";
import { endpointWithZone } from "./queries";

/** Attempts a redelivered delivery keeps in its log (its latest runs), so the log stays bounded. */
export const KEPT_ATTEMPTS = 3 * MAX_ATTEMPTS;

const disabled = () =>
  conflict("The webhook is disabled: enable it first (POST /api/v1/webhooks/{id}/enable).");

type Queue = Pick<Env, "WEBHOOKS_QUEUE">;

/** Queues the delivery's attempt; when the queue refuses the message, `undo` takes the request back. */
async function queueDelivery(env: Queue, deliveryId: number, undo: () => Promise<unknown>) {
  try {
    await env.WEBHOOKS_QUEUE.send({ delivery_id: deliveryId } satisfies DeliveryMessage);
  } catch (error) {
    await undo();
    throw error;
  }
}

/**
 * Records a `webhook.test` event for the user's endpoint and one delivery of it, in one batch, then
 * queues the delivery. 404 for an endpoint the user cannot access, 409 for a disabled one (nothing is
 * recorded either way).
 */
export async function sendTestEvent(
  env: Queue,
  db: Database,
  tenant: Tenant,
  endpointId: number,
  now = Date.now(),
) {
  const at = new Date(now);
  const id = `evt_${WEBHOOK_TEST_EVENT}_${endpointId}_${now}${crypto.randomUUID().slice(0, 8)}`;
  const enabled = and(
    eq(webhookEndpoints.id, ownedId(webhookEndpoints, tenant, endpointId)),
    isNull(webhookEndpoints.disabledAt),
  );
  const body = JSON.stringify({
    id,
    type: WEBHOOK_TEST_EVENT,
    created_at: at.toISOString(),
    data: {
      webhook_id: endpointId,
      message:
        "A test event sent by POST /api/v1/webhooks/{id}/test. Answer 2xx once its signature verifies.",
    },
  });
  const [, [delivery], [found]] = await db.batch([
    insertWhere(
      db,
      webhookEvents,
      {
        id,
        workspaceId: sql`(SELECT ${webhookEndpoints.workspaceId} FROM ${webhookEndpoints} WHERE ${enabled})`,
        type: WEBHOOK_TEST_EVENT,
        body,
        createdAt: at,
      },
      sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${enabled})`,
    ),
    insertWhere(
      db,
      webhookDeliveries,
      { endpointId, eventId: id, status: "pending", attempts: 0, createdAt: at, updatedAt: at },
      sql`EXISTS (SELECT 1 FROM ${webhookEvents} WHERE ${webhookEvents.id} = ${id})`,
    ).returning(),
    endpointWithZone(db, tenant, endpointId),
  ]);
  if (!found) throw notFound("Webhook");
  if (!delivery) throw disabled();
  await queueDelivery(env, delivery.id, () => db.delete(webhookEvents).where(eq(webhookEvents.id, id)));
  return {
    delivery: { ...delivery, eventType: WEBHOOK_TEST_EVENT as DeliveredEventType },
    timezone: found.timezone,
  };
}

/**
 * Sends a settled delivery (succeeded or failed) again: the same event, the same id (receivers dedupe by
 * `webhook-id`), signed afresh, with a new run of up to MAX_ATTEMPTS attempts; its log keeps the earlier
 * attempts (the latest KEPT_ATTEMPTS). 404 for a delivery not of this endpoint or an endpoint the user
 * cannot access; 409 while it is pending (an attempt is due or running) or its endpoint is disabled.
 */
export async function redeliver(
  env: Queue,
  db: Database,
  tenant: Tenant,
  endpointId: number,
  deliveryId: number,
  now = Date.now(),
) {
  const at = new Date(now);
  // Found through the owned endpoint's (endpoint_id, id) index entries, never by the global id first:
  // another tenant's delivery is not read and costs what an absent one does.
  const ofEndpoint = sql`${webhookDeliveries.id} = (SELECT id FROM ${webhookDeliveries} INDEXED BY webhook_deliveries_endpoint_id_idx
    WHERE endpoint_id = ${ownedId(webhookEndpoints, tenant, endpointId)} AND id = ${deliveryId})`;
  const endpointEnabled = sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${webhookEndpoints.id} = ${webhookDeliveries.endpointId} AND ${webhookEndpoints.disabledAt} IS NULL)`;
  const keptLog = sql`(SELECT json_group_array(json(value)) FROM (SELECT key, value FROM (SELECT key, value FROM json_each(${webhookDeliveries.log}) ORDER BY key DESC LIMIT ${KEPT_ATTEMPTS}) ORDER BY key))`;
  const [reset, [row], [found]] = await db.batch([
    db
      .update(webhookDeliveries)
      .set({
        status: "pending",
        attempts: 0,
        log: keptLog,
        nextAttemptAt: null,
        attemptStartedAt: null,
        updatedAt: at,
      })
      .where(and(ofEndpoint, ne(webhookDeliveries.status, "pending"), endpointEnabled))
      .returning({ id: webhookDeliveries.id }),
    db
      .select({ ...getTableColumns(webhookDeliveries), eventType: webhookEvents.type })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(ofEndpoint),
    endpointWithZone(db, tenant, endpointId),
  ]);
  if (!found) throw notFound("Webhook");
  if (!row) throw notFound("Delivery");
  if (reset.length === 0) {
    if (found.endpoint.disabledAt) throw disabled();
    throw conflict(
      "The delivery is still pending: an attempt is due or running. Redeliver it once it has settled.",
    );
  }
  // Unqueued, it would pend with no message to run it: failed instead, so it can be redelivered again.
  await queueDelivery(env, row.id, () =>
    db
      .update(webhookDeliveries)
      .set({ status: "failed", updatedAt: new Date() })
      .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.attempts, 0))),
  );
  return { delivery: row, timezone: found.timezone };
}
