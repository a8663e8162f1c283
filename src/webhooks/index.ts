// Webhooks: endpoints a workspace registers to be told, by signed POSTs, what happened to its posts,
// accounts, media and analytics. Create (201, with the signing secret shown once), list, get, delete,
// roll the secret, re-enable, and the deliveries log. Ability `workspaces`.
import { z } from "zod";
import { API } from "../db/security-events";
import type { ApiEnv } from "../http/env";
import { notFound } from "../http/errors";
import { jsonBody, jsonContent } from "../http/openapi";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { idParams, messageSchema, textId } from "../lib/schemas";
import { DISABLE_AFTER_MS, MAX_ATTEMPTS, MAX_ENDPOINTS_PER_WORKSPACE } from "./catalog";
import { createEndpoint, rollSecret } from "./endpoints";
import { redeliver, sendTestEvent } from "./manual";
import { presentDelivery, presentWebhook } from "./present";
import {
  deleteEndpoint,
  deliveriesOfEndpoint,
  enableEndpoint,
  endpointsOfUser,
  endpointWithZone,
} from "./queries";
import {
  createWebhookBody,
  deliveriesSchema,
  deliverySchema,
  listWebhooksQuery,
  webhookSchema,
  webhookWithSecretSchema,
} from "./schemas";

const route = apiRoutes("workspaces");

const tags = ["Webhooks"];
const days = DISABLE_AFTER_MS / (24 * 3600_000);

export const webhooksRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "get",
      operationId: "listWebhooks",
      path: "/",
      tags,
      summary: "List webhook endpoints",
      description:
        "The endpoints of every accessible workspace, or of the one `workspace_id` names, oldest first. Secrets are never listed. A disabled endpoint says so (`status`, `disabled_at`, `disabled_reason`).",
      request: { query: listWebhooksQuery },
      responses: { 200: jsonContent(z.object({ data: z.array(webhookSchema) }), "The endpoints.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { workspace_id } = c.req.valid("query");
      const [workspaceRows, rows] = await db.batch(endpointsOfUser(db, principal, workspace_id));
      if (workspace_id && workspaceRows.length === 0) throw notFound("Workspace");
      const zones = new Map(workspaceRows.map((w) => [w.id, w.timezone]));
      return c.json({ data: rows.map((row) => presentWebhook(row, zones.get(row.workspaceId)!)) }, 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "createWebhook",
      earlyReads: true,
      path: "/",
      idempotent: true,
      tags,
      summary: "Create a webhook endpoint",
      description: [
        "Registers `url` for the `events` listed and answers 201 with the endpoint and its signing secret, shown only in this answer.",
        `Every event is POSTed as JSON \`{id, type, created_at, data}\`, signed per the Standard Webhooks specification (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`); a 2xx answer within 10 seconds acknowledges it, anything else (a redirect included) is retried ${MAX_ATTEMPTS - 1} times over about a day.`,
        `The URL must be http or https on a public address and port 443 or 80: private, loopback and link-local addresses, local host names and any other port are a 422 on \`url\`, and the host is resolved again before every delivery. A workspace holds at most ${MAX_ENDPOINTS_PER_WORKSPACE} endpoints; one more is a 422 on \`workspace_id\`.`,
      ].join("\n\n"),
      request: { body: jsonBody(createWebhookBody) },
      responses: { 201: jsonContent(webhookWithSecretSchema, "The endpoint and its secret.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const created = await createEndpoint(c.env, db, principal, c.req.valid("json"));
      return c.json({ ...presentWebhook(created.endpoint, created.timezone), secret: created.secret }, 201);
    },
  )
  .openapi(
    route({
      method: "get",
      operationId: "getWebhook",
      path: "/{id}",
      tags,
      summary: "Get a webhook endpoint",
      request: { params: idParams },
      responses: { 200: jsonContent(webhookSchema, "The endpoint.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const [found] = await endpointWithZone(db, principal, id);
      if (!found) throw notFound("Webhook");
      return c.json(presentWebhook(found.endpoint, found.timezone), 200);
    },
  )
  .openapi(
    route({
      method: "delete",
      operationId: "deleteWebhook",
      earlyReads: true,
      path: "/{id}",
      tags,
      summary: "Delete a webhook endpoint",
      description: "Its pending deliveries are dropped and its deliveries log goes with it.",
      request: { params: idParams },
      responses: { 200: jsonContent(messageSchema, "Deleted.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const deleted = await deleteEndpoint(db, principal, id);
      if (deleted.length === 0) throw notFound("Webhook");
      return c.json({ message: "Webhook deleted successfully." }, 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "rollWebhookSecret",
      earlyReads: true,
      path: "/{id}/roll-secret",
      tags,
      summary: "Roll a webhook endpoint's signing secret",
      description:
        "A new secret, shown only in this answer. For the next 24 hours every delivery carries two signatures in `webhook-signature` (the new secret's and the old one's, space-separated), so a receiver can switch secrets without missing an event; after that only the new secret signs. Rolling again within those 24 hours drops the older of the two.",
      request: { params: idParams },
      responses: { 200: jsonContent(webhookWithSecretSchema, "The endpoint and its new secret.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const rolled = await rollSecret(c.env, db, principal, id, API);
      return c.json({ ...presentWebhook(rolled.endpoint, rolled.timezone), secret: rolled.secret }, 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "enableWebhook",
      earlyReads: true,
      path: "/{id}/enable",
      tags,
      summary: "Re-enable a webhook endpoint",
      description: `An endpoint whose every attempt failed for ${days} days is disabled: it gets no new deliveries and its pending ones fail. This turns it back on for events from now on (what was missed is not replayed). Enabling an enabled endpoint changes nothing.`,
      request: { params: idParams },
      responses: { 200: jsonContent(webhookSchema, "The endpoint.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const updated = await enableEndpoint(db, principal, id);
      if (!updated) throw notFound("Webhook");
      return c.json(presentWebhook(updated.endpoint, updated.timezone), 200);
    },
  )
  .openapi(
    route({
      method: "get",
      operationId: "listWebhookDeliveries",
      path: "/{id}/deliveries",
      tags,
      summary: "List a webhook endpoint's deliveries",
      description:
        "The endpoint's last 100 deliveries, newest first: one per event, with its status and every attempt (the receiver's status code, how long it took, the error, the first 200 characters of its answer when it is plain text or JSON; any other answer is named by its status and type only) and when the next retry is due.",
      request: { params: idParams },
      responses: { 200: jsonContent(deliveriesSchema, "The deliveries.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const [[zone], rows] = await db.batch(deliveriesOfEndpoint(db, principal, id));
      if (!zone) throw notFound("Webhook");
      return c.json({ data: rows.map((row) => presentDelivery(row, zone.timezone)) }, 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "testWebhook",
      path: "/{id}/test",
      tags,
      summary: "Send a test event",
      description: [
        'Records a `webhook.test` event for this endpoint alone (whatever events it subscribes to) and queues its delivery: signed, attempted, retried and listed in its deliveries like any other event. Its body is `{id, type: "webhook.test", created_at, data: {webhook_id, message}}`; answer it with a 2xx once the signature verifies. A disabled endpoint is a 409 (enable it first).',
        'A receiver on your own machine (`http://localhost:3000/…`) is refused by the private-address guard; in local development, list it in `IMPORT_ALLOWED_PRIVATE_HOSTS` (docs/guide.md, "Testing a receiver locally").',
      ].join("\n\n"),
      request: { params: idParams },
      responses: { 202: jsonContent(deliverySchema, "The delivery, queued.") },
      errors: [404, 409],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const { delivery, timezone } = await sendTestEvent(c.env, db, principal, id);
      return c.json(presentDelivery(delivery, timezone), 202);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "redeliverWebhookDelivery",
      path: "/{id}/deliveries/{delivery}/redeliver",
      tags,
      summary: "Redeliver a delivery",
      description: `Sends a settled delivery (succeeded or failed) again: the same event and \`webhook-id\` (so a receiver that already handled it can recognise it), signed afresh, with a new run of up to ${MAX_ATTEMPTS} attempts on the usual schedule. Its \`attempts\` keep the earlier ones. A pending delivery (an attempt due or running) and a disabled endpoint are a 409.`,
      request: { params: z.object({ id: textId(), delivery: textId() }) },
      responses: { 202: jsonContent(deliverySchema, "The delivery, queued again.") },
      errors: [404, 409],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id, delivery: deliveryId } = c.req.valid("param");
      const { delivery, timezone } = await redeliver(c.env, db, principal, id, deliveryId);
      return c.json(presentDelivery(delivery, timezone), 202);
    },
  );
