// Webhook endpoints, their events and deliveries.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DELIVERED_EVENT_TYPES, DELIVERY_STATUSES, type WebhookEventType } from "../enums";
import { createdAt, id, updatedAt } from "./columns";
import { workspaces } from "./tenants";

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: id(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<WebhookEventType[]>().notNull(),
    // The signing secret (`whsec_…`), AES-GCM encrypted under ENCRYPTION_KEY; shown once.
    secretEnc: text("secret_enc").notNull(),
    // The secret a roll replaced: deliveries are signed with it too until it expires (24 hours).
    previousSecretEnc: text("previous_secret_enc"),
    previousSecretExpiresAt: integer("previous_secret_expires_at", { mode: "timestamp_ms" }),
    // The first failed attempt since the last success; null while the endpoint answers.
    failingSince: integer("failing_since", { mode: "timestamp_ms" }),
    disabledAt: integer("disabled_at", { mode: "timestamp_ms" }),
    disabledReason: text("disabled_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_workspace_id_idx").on(t.workspaceId, t.id)],
);

export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    // Deterministic (`evt_<type>_<record>_<version>`), so an event emitted twice is stored once.
    id: text("id").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    type: text("type", { enum: DELIVERED_EVENT_TYPES }).notNull(),
    // The exact JSON body every endpoint receives (signed as is): `{id, type, created_at, data}`.
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_events_workspace_created_idx").on(t.workspaceId, t.createdAt)],
);

/** One attempt of a delivery, as GET /webhooks/{id}/deliveries shows it. */
export type DeliveryAttempt = {
  attempt: number;
  at: number;
  response_status: number | null;
  duration_ms: number;
  /** One of src/webhooks/attempt.ts DELIVERY_FAILURES; absent on attempts logged before it was kept. */
  error_code?: string | null;
  error: string | null;
  response_excerpt: string | null;
};

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    // Every attempt, oldest first (at most MAX_ATTEMPTS).
    log: text("log", { mode: "json" }).$type<DeliveryAttempt[]>().notNull().default(sql`'[]'`),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    // The lease of the attempt in flight, so two copies of a message do not post at once.
    attemptStartedAt: integer("attempt_started_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint_idx").on(t.eventId, t.endpointId),
    index("webhook_deliveries_endpoint_id_idx").on(t.endpointId, t.id),
  ],
);
