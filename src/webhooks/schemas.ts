// The webhook API's requests and answers, and the envelope of every event, typed by zod so the same
// schemas validate, type the handlers and write the OpenAPI document.
import { z } from "zod";
import { accountSchema } from "../accounts/schemas";
import { postAnalyticsSchema } from "../analytics/schemas";
import { commentSchema } from "../comments/schemas";
import { bodyId, textId, zonedTime } from "../lib/schemas";
import { MAX_URL_LENGTH } from "../lib/url-guard";
import { mediaItemSchema } from "../media/schemas";
import { postSchema } from "../posts/schemas";
import { DELIVERY_FAILURE_CODES, DELIVERY_FAILURES } from "./attempt";
import {
  DELIVERED_EVENT_TYPES,
  DELIVERIES_LISTED,
  DELIVERY_STATUSES,
  type DeliveredEventType,
  MAX_ATTEMPTS,
  WEBHOOK_EVENT_TYPES,
} from "./catalog";

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length * 4)
  // The same type twice means it once.
  .transform((types) => [...new Set(types)])
  .meta({ example: ["post.published", "post.failed"] });

export const createWebhookBody = z.strictObject({
  workspace_id: bodyId(),
  url: z.string().trim().min(1).max(MAX_URL_LENGTH).meta({
    description:
      "Where events are POSTed: http or https, a public address on port 443 or 80 (private, loopback and link-local addresses, local host names and other ports are refused, now and before every delivery).",
    example: "https://example.com/webhooks/social",
  }),
  events: eventTypes,
});

export const listWebhooksQuery = z.strictObject({ workspace_id: textId().optional() });

export const webhookSchema = z
  .strictObject({
    id: z.int(),
    workspace_id: z.int(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    status: z.enum(["enabled", "disabled"]),
    disabled_at: zonedTime().nullable(),
    disabled_reason: z.string().nullable().meta({ example: "Every delivery failed for 3 days." }),
    failing_since: zonedTime()
      .nullable()
      .meta({ description: "The first failed attempt since the last successful one; null while healthy." }),
    created_at: zonedTime(),
    updated_at: zonedTime(),
  })
  .meta({ id: "Webhook", description: "A webhook endpoint; times in its workspace's zone." });

export const webhookWithSecretSchema = webhookSchema
  .extend({
    secret: z.string().meta({
      description:
        "The signing secret, `whsec_` + base64 of 32 random bytes. Shown only in this answer; store it now.",
      example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4P6UEzhZT8k=",
    }),
  })
  .meta({ id: "WebhookWithSecret" });

const attemptSchema = z
  .strictObject({
    attempt: z.int().min(1),
    at: zonedTime(),
    response_status: z.int().nullable().meta({ description: "The receiver's HTTP status; null if none." }),
    duration_ms: z.int(),
    error_code: z
      .enum(DELIVERY_FAILURE_CODES)
      .nullable()
      .meta({
        description: `Why the attempt failed; null when it succeeded. ${Object.entries(DELIVERY_FAILURES)
          .map(([code, message]) => `\`${code}\`: ${message}`)
          .join("; ")}.`,
        example: "http_status",
      }),
    error: z
      .string()
      .nullable()
      .meta({ description: "The failure's message, in the words `error_code` lists.", example: "HTTP 500" }),
    response_excerpt: z.string().nullable().meta({
      description:
        "The first 200 characters of the receiver's answer when it is plain text or JSON (what a receiver writes to say why); null for any other answer, which is never read. The rest is never read.",
    }),
  })
  .meta({ id: "WebhookAttempt" });

export const deliverySchema = z
  .strictObject({
    id: z.int(),
    event_id: z.string().meta({ description: "The event's id, sent as `webhook-id`." }),
    event_type: z
      .enum(DELIVERED_EVENT_TYPES)
      .meta({ description: "`webhook.test` for an event sent by `POST /api/v1/webhooks/{id}/test`." }),
    status: z.enum(DELIVERY_STATUSES).meta({
      description: `pending (queued, or a retry is due at \`next_attempt_at\`), succeeded (a 2xx answer), failed (${MAX_ATTEMPTS} attempts failed, or the endpoint was disabled).`,
    }),
    attempts: z.array(attemptSchema).meta({ description: "Every attempt, oldest first." }),
    next_attempt_at: zonedTime().nullable(),
    created_at: zonedTime(),
    updated_at: zonedTime(),
  })
  .meta({ id: "WebhookDelivery" });

export const deliveriesSchema = z
  .strictObject({ data: z.array(deliverySchema) })
  .meta({ description: `The endpoint's last ${DELIVERIES_LISTED} deliveries, newest first.` });

/** What `data` holds for each event type: the record as the API answers it (the test event: a note). */
export const EVENT_DATA = {
  "post.published": postSchema,
  "post.failed": postSchema,
  "post.partially_published": postSchema,
  "post.rescheduled": postSchema,
  "post.approval_requested": postSchema,
  "post.approved": postSchema,
  "post.rejected": postSchema,
  "account.expired": accountSchema,
  "media.ready": mediaItemSchema,
  "media.failed": mediaItemSchema,
  "analytics.synced": postAnalyticsSchema,
  "comment.received": commentSchema,
  "webhook.test": z.strictObject({
    webhook_id: z.number().int().meta({ description: "The endpoint the test was sent to." }),
    message: z.string(),
  }),
} satisfies Record<DeliveredEventType, z.ZodType>;

/** The body of an event of `type`. */
export const eventSchema = (type: DeliveredEventType) =>
  z.strictObject({
    id: z.string().meta({ example: `evt_${type}_42_1795000000000` }),
    type: z.literal(type),
    created_at: z.string().meta({ description: "When it happened, ISO 8601 in UTC." }),
    data: EVENT_DATA[type],
  });
