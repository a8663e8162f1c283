// Emitting an event: recording it once and queueing one delivery per subscribed endpoint. The event id
// is deterministic (`evt_<type>_<record>_<version>`), the event row is keyed by it and a delivery by
// (event, endpoint), so emitting the same event again (a redelivered announcement, the sweep after a
// crash) stores nothing new and queues nothing. Emission runs from the outbox (outbox.ts), after the
// change it reports has committed (docs/architecture.md, "Webhooks").
import { and, eq, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../db/schema";
import { type OutboxMessage, parseOutboxMessage } from "../events/announce";
import { EVENT_RETENTION_MS, type WebhookEventType } from "./catalog";

/** One delivery to attempt. */
export type DeliveryMessage = { delivery_id: number };
/** What the webhooks queue carries: a delivery, or outbox rows just recorded (src/events/announce.ts). */
export type WebhookMessage = DeliveryMessage | OutboxMessage;

/** The message, or null when it is not one the webhooks queue carries. */
export function parseWebhookMessage(body: unknown): WebhookMessage | null {
  const id = (body as { delivery_id?: unknown } | null)?.delivery_id;
  if (typeof id === "number" && Number.isSafeInteger(id) && id > 0) return { delivery_id: id };
  return parseOutboxMessage(body);
}

/** Enabled endpoints of the workspace subscribed to any of `types`. */
const subscribed = (workspace: number | SQL, types: readonly WebhookEventType[]) =>
  and(
    eq(webhookEndpoints.workspaceId, workspace as number),
    isNull(webhookEndpoints.disabledAt),
    sql`EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.events}) WHERE json_each.value IN (${sql.join(
      types.map((t) => sql`${t}`),
      sql`, `,
    )}))`,
  );

export type Built = { workspaceId: number; type: WebhookEventType; data: unknown };

export type EventSpec = {
  /** The workspace, or a subquery naming it, for the cheap check that anyone listens. */
  workspace: number | SQL;
  /** The types this emission may turn out to be. */
  types: readonly WebhookEventType[];
  /** `<record id>_<version>`: what makes the event id deterministic. */
  key: string;
  /** When it happened (ms). */
  at: number;
  /** The event's type and data, read only when an endpoint listens; null when the record is gone. */
  build: () => Promise<Built | null>;
};

export const eventId = (type: WebhookEventType, key: string) => `evt_${type}_${key}`;

/** Records the event and queues its deliveries; answers how many deliveries were queued. */
export async function emitEvent(env: Pick<Env, "WEBHOOKS_QUEUE">, db: Database, spec: EventSpec) {
  const [listening] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(subscribed(spec.workspace, spec.types))
    .limit(1);
  if (!listening) return 0;
  const built = await spec.build();
  if (!built) return 0;
  const id = eventId(built.type, spec.key);
  const at = new Date(spec.at);
  const body = JSON.stringify({ id, type: built.type, created_at: at.toISOString(), data: built.data });
  const [, queued] = await db.batch([
    db
      .insert(webhookEvents)
      .values({ id, workspaceId: built.workspaceId, type: built.type, body, createdAt: at })
      .onConflictDoNothing(),
    db
      .insert(webhookDeliveries)
      .select(
        // INSERT … SELECT names every column, in the table's order.
        db
          .select({
            id: sql<number>`NULL`.as("id"),
            endpointId: webhookEndpoints.id,
            eventId: sql<string>`${id}`.as("event_id"),
            status: sql<"pending">`'pending'`.as("status"),
            attempts: sql<number>`0`.as("attempts"),
            log: sql<string>`'[]'`.as("log"),
            nextAttemptAt: sql<null>`NULL`.as("next_attempt_at"),
            attemptStartedAt: sql<null>`NULL`.as("attempt_started_at"),
            createdAt: sql<number>`${spec.at}`.as("created_at"),
            updatedAt: sql<number>`${spec.at}`.as("updated_at"),
          })
          .from(webhookEndpoints)
          .where(subscribed(built.workspaceId, [built.type])),
      )
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id }),
    // Old events go (their deliveries with them), a bounded number per emission.
    db.delete(webhookEvents).where(
      inArray(
        webhookEvents.id,
        db
          .select({ id: webhookEvents.id })
          .from(webhookEvents)
          .where(
            and(
              eq(webhookEvents.workspaceId, built.workspaceId),
              lt(webhookEvents.createdAt, new Date(spec.at - EVENT_RETENTION_MS)),
            ),
          )
          .limit(100),
      ),
    ),
  ]);
  if (queued.length === 0) return 0;
  try {
    await env.WEBHOOKS_QUEUE.sendBatch(
      queued.map((row) => ({ body: { delivery_id: row.id } satisfies DeliveryMessage })),
    );
  } catch (error) {
    // Unsent deliveries are removed, so emitting the event again queues them afresh.
    const ids = queued.map((row) => row.id);
    await db
      .delete(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.attempts, 0)));
    throw error;
  }
  return queued.length;
}

/** Runs an emission without ever failing the caller: what went wrong is logged. Whether it finished. */
export async function emitSafely(name: string, emission: () => Promise<unknown>): Promise<boolean> {
  try {
    await emission();
    return true;
  } catch (error) {
    console.error(`webhooks: could not emit ${name}`, error);
    return false;
  }
}
