// The webhook vocabulary, in one place: the event types and delivery statuses (defined with every other
// enum in src/db/enums.ts), and the numbers that bound the feature (endpoints per workspace, attempts,
// the retry schedule).

import { MAX_QUEUE_DELAY_SECONDS } from "../lib/queue";

export {
  DELIVERED_EVENT_TYPES,
  DELIVERY_STATUSES,
  type DeliveredEventType,
  type DeliveryStatus,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT,
  type WebhookEventType,
} from "../db/enums";

/** Endpoints one workspace may register. */
export const MAX_ENDPOINTS_PER_WORKSPACE = 20;

/** Attempts per delivery: the first, then one after each delay of RETRY_DELAYS_SECONDS. */
export const MAX_ATTEMPTS = 8;

/**
 * Seconds before attempt n + 1 after attempt n failed: 30 s × 4ⁿ⁻¹, at most Queues' longest delay
 * (12 h): 30 s, 2 min, 8 min, 32 min, 2 h 8 min, 8 h 32 min, 12 h. Eight attempts span about 23 hours.
 */
export const retryDelaySeconds = (attempt: number) =>
  Math.min(MAX_QUEUE_DELAY_SECONDS, 30 * 4 ** Math.max(0, attempt - 1));

/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 3600_000;

/** The wall time of one attempt; a receiver should answer at once and do its work afterwards. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** Characters of a receiver's answer kept with an attempt, for debugging; the rest is never read. */
export const EXCERPT_CHARS = 200;

/** Deliveries GET /webhooks/{id}/deliveries answers, newest first. */
export const DELIVERIES_LISTED = 100;

/** Events (and their deliveries) are kept this long. */
export const EVENT_RETENTION_MS = 30 * 24 * 3600_000;

/** How long a rolled secret keeps signing deliveries next to the new one. */
export const PREVIOUS_SECRET_MS = 24 * 3600_000;
