// Operator API (/admin/v1): stands in for the account web app. Users, workspaces, memberships,
// accounts and subscriptions here; API keys in key-routes.ts. Every route sits behind the operator
// token (operator-routes.ts).
import { z } from "zod";
import { presentAccount } from "../accounts/present";
import { accountSchema } from "../accounts/schemas";
import type { DbEnv } from "../http/env";
import { jsonBody, jsonContent } from "../http/openapi";
import { createRouter } from "../http/router";
import { idParams } from "../lib/schemas";
import { presentWorkspace } from "../workspaces/present";
import { workspaceSchema } from "../workspaces/schemas";
import { apiKeysRouter } from "./key-routes";
import { operatorRoute } from "./operator-routes";
import {
  addMember,
  createAccount,
  createUser,
  createWorkspace,
  setSubscription,
  usersByEmail,
} from "./queries";
import {
  addMemberBody,
  createAccountBody,
  createdUserSchema,
  createUserBody,
  createWorkspaceBody,
  findUserQuery,
  membershipSchema,
  subscriptionBody,
  subscriptionSchema,
  userSchema,
} from "./schemas";

export const adminRouter = createRouter<DbEnv>()
  .openapi(
    operatorRoute({
      method: "post",
      operationId: "createUser",
      path: "/users",
      summary: "Create a user",
      description:
        "The email is stored lowercased and must be unused in every shard (422 otherwise). `shard` places the user and everything their workspaces will hold in that database (docs/scaling.md); it defaults to the `NEW_USER_SHARD` setting. The user starts with the `subscription` given, `active` by default, written in the same batch.",
      request: { body: jsonBody(createUserBody) },
      responses: { 201: jsonContent(createdUserSchema, "The user and their subscription.") },
    }),
    async (c) => {
      const user = await createUser(c.var.shards, c.env, c.req.valid("json"));
      return c.json(user, 201);
    },
  )
  .openapi(
    operatorRoute({
      method: "get",
      operationId: "listUsers",
      path: "/users",
      summary: "Find a user by email",
      description: "Case-insensitive; `data` is empty when no user has that email.",
      request: { query: findUserQuery },
      responses: { 200: jsonContent(z.object({ data: z.array(userSchema) }), "The matching users.") },
    }),
    async (c) => {
      const rows = await usersByEmail(c.var.shards, c.req.valid("query").email);
      return c.json({ data: rows }, 200);
    },
  )
  .openapi(
    operatorRoute({
      method: "post",
      operationId: "createWorkspace",
      path: "/workspaces",
      summary: "Create a workspace",
      description:
        "The user becomes its member. Without a `slug`, one is derived from the name, with a numeric suffix if taken.",
      request: { body: jsonBody(createWorkspaceBody) },
      responses: { 201: jsonContent(workspaceSchema, "The workspace.") },
    }),
    async (c) => {
      const workspace = await createWorkspace(c.var.shards, c.req.valid("json"));
      return c.json(presentWorkspace(workspace), 201);
    },
  )
  .openapi(
    operatorRoute({
      method: "post",
      operationId: "addWorkspaceMember",
      path: "/workspaces/{id}/members",
      summary: "Add a member to a workspace",
      description:
        "Adding an existing member again changes nothing. The user must live in the workspace's shard (422 otherwise).",
      request: { params: idParams, body: jsonBody(addMemberBody) },
      responses: { 201: jsonContent(membershipSchema, "The membership.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { user_id } = c.req.valid("json");
      await addMember(c.var.shards, id, user_id);
      return c.json({ workspace_id: id, user_id }, 201);
    },
  )
  .openapi(
    operatorRoute({
      method: "post",
      operationId: "createAccount",
      path: "/accounts",
      summary: "Connect a social account",
      description: "Records an account as if its OAuth connection had completed (no tokens).",
      request: { body: jsonBody(createAccountBody) },
      responses: { 201: jsonContent(accountSchema, "The account.") },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const account = await createAccount(c.var.shards.of(body.workspace_id), body);
      return c.json(presentAccount(account), 201);
    },
  )
  .openapi(
    operatorRoute({
      method: "put",
      operationId: "setSubscription",
      path: "/users/{id}/subscription",
      summary: "Set a user's subscription status",
      request: { params: idParams, body: jsonBody(subscriptionBody) },
      responses: { 200: jsonContent(subscriptionSchema, "The subscription.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { status } = c.req.valid("json");
      await setSubscription(c.var.shards.of(id), id, status);
      return c.json({ user_id: id, status }, 200);
    },
  )
  .route("/", apiKeysRouter);
