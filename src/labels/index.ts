// Labels: list, create (201), update, delete. Ability `labels`.
import { z } from "zod";
import { accessibleWorkspace, ownedWorkspace } from "../db/tenancy";
import type { ApiEnv } from "../http/env";
import { invalidField, notFound } from "../http/errors";
import { jsonBody, jsonContent } from "../http/openapi";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { idParams, messageSchema } from "../lib/schemas";
import { presentLabel } from "./present";
import { deleteLabel, insertLabel, labelCount, labelsOfUser, updateLabel, workspaceOfLabel } from "./queries";
import {
  createLabelBody,
  labelSchema,
  listLabelsQuery,
  MAX_LABELS_PER_WORKSPACE,
  updateLabelBody,
} from "./schemas";

const route = apiRoutes("labels");

const tags = ["Labels"];

export const labelsRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "get",
      operationId: "listLabels",
      path: "/",
      tags,
      summary: "List labels",
      description: "Labels of every accessible workspace, or of the one `workspace_id` names, oldest first.",
      request: { query: listLabelsQuery },
      responses: { 200: jsonContent(z.object({ data: z.array(labelSchema) }), "The labels.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { workspace_id } = c.req.valid("query");
      const [workspaceRows, rows] = await db.batch(labelsOfUser(db, principal, workspace_id));
      if (workspace_id && workspaceRows.length === 0) throw notFound("Workspace");
      const byId = new Map(workspaceRows.map((w) => [w.id, w]));
      return c.json({ data: rows.map((label) => presentLabel(label, byId.get(label.workspaceId)!)) }, 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "createLabel",
      earlyReads: true,
      path: "/",
      idempotent: true,
      tags,
      summary: "Create a label",
      description: `A workspace holds at most ${MAX_LABELS_PER_WORKSPACE} labels; one more is a 422 on \`workspace_id\`.`,
      request: { body: jsonBody(createLabelBody) },
      responses: { 201: jsonContent(labelSchema, "The label.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const body = c.req.valid("json");
      const [[workspace], [held]] = await db.batch([
        accessibleWorkspace(db, principal, body.workspace_id),
        // Counted through the membership: another tenant's workspace is never read.
        labelCount(db, ownedWorkspace(principal, body.workspace_id)),
      ]);
      if (!workspace) throw notFound("Workspace");
      const full = () =>
        invalidField(
          "workspace_id",
          `A workspace holds at most ${MAX_LABELS_PER_WORKSPACE} labels: delete one to make room.`,
        );
      if ((held?.n ?? 0) >= MAX_LABELS_PER_WORKSPACE) throw full();
      // The count above only answers early; the insert counts again itself, so parallel creates stop at
      // the cap.
      const label = await insertLabel(db, workspace.id, body, MAX_LABELS_PER_WORKSPACE);
      if (!label) throw full();
      return c.json(presentLabel(label, workspace), 201);
    },
  )
  .openapi(
    route({
      method: "put",
      operationId: "updateLabel",
      earlyReads: true,
      path: "/{id}",
      tags,
      summary: "Update a label",
      request: { params: idParams, body: jsonBody(updateLabelBody) },
      responses: { 200: jsonContent(labelSchema, "The label.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const body = c.req.valid("json");
      const [updated, workspace] = await db.batch([
        updateLabel(db, principal, id, body),
        workspaceOfLabel(db, principal, id),
      ]);
      const label = updated[0];
      if (!label || !workspace[0]) throw notFound("Label");
      return c.json(presentLabel(label, workspace[0]), 200);
    },
  )
  .openapi(
    route({
      method: "delete",
      operationId: "deleteLabel",
      earlyReads: true,
      path: "/{id}",
      tags,
      summary: "Delete a label",
      description: "Posts keep existing; they just lose the label.",
      request: { params: idParams },
      responses: { 200: jsonContent(messageSchema, "Deleted.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const deleted = await deleteLabel(db, principal, id);
      if (deleted.length === 0) throw notFound("Label");
      return c.json({ message: "Label deleted successfully." }, 200);
    },
  );
