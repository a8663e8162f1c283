// The API's shapes of a webhook endpoint and of its deliveries, typed by the documented schemas; times
// in the workspace's zone, like every other record.
import type { z } from "zod";
import type { WebhookDelivery, WebhookEndpoint } from "../db/schema";
import { isoOrNull, toZonedIso } from "../lib/time";
import { loggedFailure } from "./attempt";
import type { DeliveredEventType } from "./catalog";
import type { deliverySchema, webhookSchema } from "./schemas";

export const presentWebhook = (endpoint: WebhookEndpoint, zone: string): z.output<typeof webhookSchema> => ({
  id: endpoint.id,
  workspace_id: endpoint.workspaceId,
  url: endpoint.url,
  events: endpoint.events,
  status: endpoint.disabledAt ? "disabled" : "enabled",
  disabled_at: isoOrNull(endpoint.disabledAt, zone),
  disabled_reason: endpoint.disabledReason,
  failing_since: isoOrNull(endpoint.failingSince, zone),
  created_at: toZonedIso(endpoint.createdAt, zone),
  updated_at: toZonedIso(endpoint.updatedAt, zone),
});

export const presentDelivery = (
  delivery: WebhookDelivery & { eventType: DeliveredEventType },
  zone: string,
): z.output<typeof deliverySchema> => ({
  id: delivery.id,
  event_id: delivery.eventId,
  event_type: delivery.eventType,
  status: delivery.status,
  attempts: delivery.log.map((entry) => {
    const failure = loggedFailure(entry);
    return {
      attempt: entry.attempt,
      at: toZonedIso(new Date(entry.at), zone),
      response_status: entry.response_status,
      duration_ms: entry.duration_ms,
      error_code: failure.code,
      error: failure.error,
      response_excerpt: entry.response_excerpt,
    };
  }),
  next_attempt_at: delivery.status === "pending" ? isoOrNull(delivery.nextAttemptAt, zone) : null,
  created_at: toZonedIso(delivery.createdAt, zone),
  updated_at: toZonedIso(delivery.updatedAt, zone),
});
