// Operator API: API keys and their lifecycle (issue, list, revoke, roll) and signing secrets. A
// compromised key is rolled: the old key stops working at once and a new one takes its place.

import type { Context } from "hono";
import { z } from "zod";
import { keyUsesOfUser } from "../coordinator/names";
import { OPERATOR } from "../db/security-events";
import type { DbEnv } from "../http/env";
import { notFound } from "../http/errors";
import { jsonBody, jsonContent } from "../http/openapi";
import { createRouter } from "../http/router";
import { idParams, messageSchema } from "../lib/schemas";
import {
  type Announce,
  announceKeyChange,
  issueKey,
  issueSigningSecret,
  keysOfUser,
  revokeKey,
  rollKey,
  setCallbackOrigins,
  updateKey,
} from "./key-queries";
import { operatorRoute } from "./operator-routes";
import { presentApiKey } from "./present";
import {
  apiKeySchema,
  callbackOrigins,
  callbackOriginsBody,
  createApiKeyBody,
  issuedKeySchema,
  signingSecretSchema,
  updateApiKeyBody,
} from "./schemas";

/** Key changes reach the key's Coordinator through the request's meter (Server-Timing's `gate`). */
const announcer =
  (c: Context<DbEnv>): Announce =>
  (key, revoked) =>
    c.var.meter.gate(() => announceKeyChange(c.env, key, revoked));

export const apiKeysRouter = createRouter<DbEnv>()
  .openapi(
    operatorRoute({
      method: "post",
      operationId: "createApiKey",
      path: "/api-keys",
      summary: "Create an API key",
      description: "The key is in this answer only; it is stored as a hash.",
      request: { body: jsonBody(createApiKeyBody) },
      responses: { 201: jsonContent(issuedKeySchema, "The key, shown once.") },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return c.json(await issueKey(c.var.shards.of(body.user_id), body, OPERATOR), 201);
    },
  )
  .openapi(
    operatorRoute({
      method: "get",
      operationId: "listApiKeys",
      path: "/users/{id}/api-keys",
      summary: "List a user's API keys",
      description: "Oldest first. Each key shows its prefix, never the key.",
      request: { params: idParams },
      responses: { 200: jsonContent(z.object({ data: z.array(apiKeySchema) }), "The keys.") },
    }),
    async (c) => {
      const { meter } = c.var;
      const { id } = c.req.valid("param");
      const db = c.var.shards.of(id);
      const [user, keys] = await db.batch(keysOfUser(db, id));
      if (user.length === 0) throw notFound("User");
      // Last use is recorded by the user's Coordinator on each request, not in D1.
      const uses: Record<number, number> =
        keys.length === 0 ? {} : await meter.gate(() => keyUsesOfUser(c.env, id));
      return c.json({ data: keys.map((key) => presentApiKey(key, uses[key.id])) }, 200);
    },
  )
  .openapi(
    operatorRoute({
      method: "delete",
      operationId: "revokeApiKey",
      path: "/api-keys/{id}",
      summary: "Revoke an API key",
      description: "The key's very next request is refused (401).",
      request: { params: idParams },
      responses: { 200: jsonContent(messageSchema, "Revoked.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      await revokeKey(c.var.shards.of(id), announcer(c), id, OPERATOR);
      return c.json({ message: "API key revoked successfully." }, 200);
    },
  )
  .openapi(
    operatorRoute({
      method: "patch",
      operationId: "updateApiKey",
      path: "/api-keys/{id}",
      summary: "Change an API key's abilities or expiry",
      description:
        "Either field or both. The change holds from the key's very next request, on every edge location.",
      request: { params: idParams, body: jsonBody(updateApiKeyBody) },
      responses: { 200: jsonContent(apiKeySchema, "The key as listed.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const updated = await updateKey(c.var.shards.of(id), announcer(c), id, c.req.valid("json"), OPERATOR);
      return c.json(presentApiKey(updated, undefined), 200);
    },
  )
  .openapi(
    operatorRoute({
      method: "post",
      operationId: "rollApiKey",
      path: "/api-keys/{id}/roll",
      summary: "Roll an API key",
      description:
        "Replaces a (compromised) key: a new key, with a new id, for the same user with the same name, abilities and expiry; the old key is refused from this moment. The signing secret carries over unchanged: it is a separate credential, rotated by its own call (`POST /admin/v1/api-keys/{id}/signing-secret`).",
      request: { params: idParams },
      responses: { 201: jsonContent(issuedKeySchema, "The new key, shown once.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await rollKey(c.var.shards.of(id), announcer(c), id, OPERATOR), 201);
    },
  )
  .openapi(
    operatorRoute({
      method: "post",
      operationId: "createSigningSecret",
      path: "/api-keys/{id}/signing-secret",
      summary: "Generate a signing secret",
      description:
        "A new secret for signing delegation proofs, replacing any earlier one. Shown once, stored encrypted.",
      request: { params: idParams },
      responses: { 201: jsonContent(signingSecretSchema, "The secret, shown once.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const secret = await issueSigningSecret(
        c.var.shards.of(id),
        announcer(c),
        c.env.ENCRYPTION_KEY,
        id,
        OPERATOR,
      );
      return c.json({ signing_secret: secret }, 201);
    },
  )
  .openapi(
    operatorRoute({
      method: "put",
      operationId: "setCallbackOrigins",
      path: "/api-keys/{id}/callback-origins",
      summary: "Set a key's callback origins",
      description:
        "The origins a delegation session created with this key may send the browser back to. With none registered, any https `callback_url` (or http on loopback) is accepted; with some, a `callback_url` on another origin is a 422 `invalid_request`, so the service never becomes an open redirect for a key's sessions.",
      request: { params: idParams, body: jsonBody(callbackOriginsBody) },
      responses: {
        200: jsonContent(
          z.strictObject({ id: z.int(), callback_origins: callbackOrigins }),
          "The key's origins.",
        ),
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const origins = c.req.valid("json").callback_origins;
      return c.json(await setCallbackOrigins(c.var.shards.of(id), announcer(c), id, origins, OPERATOR), 200);
    },
  );
