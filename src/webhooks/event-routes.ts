// The events in the OpenAPI document's `webhooks` section: one entry per event type, with the body a
// receiver gets, the three signature headers and what its answer means.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Env as HonoEnv } from "hono";
import { DELIVERED_EVENT_TYPES, type DeliveredEventType, MAX_ATTEMPTS } from "./catalog";
import { eventSchema } from "./schemas";

const WHEN: Record<DeliveredEventType, string> = {
  "post.published":
    "A post published on every one of its accounts (for a repeatable post, each occurrence). `data` is the post as `GET /api/v1/posts/{id}` answers it.",
  "post.failed":
    "A post failed on every account it was still publishing to, and none published; each platform row's `error` says why. `data` is the post.",
  "post.partially_published":
    "A post settled with some accounts published and others failed; the failed rows carry their `error` and can be retried. `data` is the post.",
  "post.rescheduled":
    "A SCHEDULED post's time moved: an update gave it a new `scheduled_at`, or `queue: true` on an update took it to another slot of its queue. Once per move; changing a queue's slots moves no post, so it is never the cause. `data` is the post, `scheduled_at` its new time.",
  "post.approval_requested":
    "A post waits for approval (PENDING_APPROVAL) at a new `version`: created or changed with a time in a workspace whose `approval` is `required`, or an approved post changed. Once per version. `data` is the post; approve or reject it with that `version`.",
  "post.approved":
    "A pending post was approved (by a key with the `approvals` ability, a review link or a console user): it is SCHEDULED, or PUBLISHING when its time had come. Once per version. `data` is the post; `GET /api/v1/posts/{id}/reviews` says who approved it.",
  "post.rejected":
    "A pending post was rejected: it is a DRAFT again. Once per version. `data` is the post; `GET /api/v1/posts/{id}/reviews` has the reason.",
  "account.expired":
    "An account's token could not be refreshed: it must be reconnected before it can publish again. `data` is the account as `GET /api/v1/accounts` lists it.",
  "media.ready": "A media import finished: the item's bytes are stored. `data` is the media item.",
  "media.failed": "A media import failed for good. `data` is the media item.",
  "analytics.synced":
    "A platform row's metrics and comments were synced (on the refresh schedule or on demand). `data` is the post's analytics report, as `GET /api/v1/analytics/posts/{id}` answers it.",
  "comment.received":
    "A comment was read on a connected account's published post for the first time (with an analytics sync). Once per comment, however often the sync runs; an edited comment is not told again. `data` is the comment as `GET /api/v1/comments` lists it.",
  "webhook.test":
    "Sent by `POST /api/v1/webhooks/{id}/test` to that endpoint only, whatever it subscribes to (no endpoint subscribes to it). `data` names the endpoint.",
};

const header = (description: string) => ({
  required: true,
  description,
  schema: { type: "string" as const },
});

export function registerWebhookEvents<E extends HonoEnv>(app: OpenAPIHono<E>) {
  // Every type a delivery can carry, the test event included.
  for (const type of DELIVERED_EVENT_TYPES) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Event`,
      tags: ["Webhooks"],
      // The receiver's endpoint is the integrator's: the service signs the body, it sends no credential.
      security: [],
      summary: type,
      description: `${WHEN[type]}\n\nSigned per the Standard Webhooks specification: verify \`webhook-signature\` over the raw body before trusting it (docs/guide.md, "Webhooks").`,
      request: {
        body: { content: { "application/json": { schema: eventSchema(type) } }, required: true },
      },
      responses: {
        200: {
          description: `Any 2xx within 10 seconds acknowledges the event. Anything else, a redirect or no answer is retried (${MAX_ATTEMPTS} attempts over about a day).`,
        },
      },
      // Declared as raw parameters: the generator would otherwise need a zod object per header.
      parameters: [
        {
          in: "header",
          name: "webhook-id",
          ...header("The event's id; the same on every retry, so use it to deduplicate."),
        },
        {
          in: "header",
          name: "webhook-timestamp",
          ...header("Unix seconds when this attempt was signed; refuse one more than 5 minutes off."),
        },
        {
          in: "header",
          name: "webhook-signature",
          ...header(
            "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the secret's base64-decoded bytes after `whsec_`; space-separated signatures while a rolled secret is still honoured.",
          ),
        },
      ],
    });
  }
}
