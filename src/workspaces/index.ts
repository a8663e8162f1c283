// GET /api/v1/workspaces: the workspaces the key's user can access, each with its accounts; PATCH one
// to set its approval policy.
import { z } from "zod";
import { presentAccountShort } from "../accounts/present";
import { accountsOfUser } from "../accounts/queries";
import { requireAlso } from "../http/abilities";
import type { ApiEnv } from "../http/env";
import { notFound } from "../http/errors";
import { jsonBody, jsonContent } from "../http/openapi";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { idParams } from "../lib/schemas";
import { presentWorkspace } from "./present";
import { updateWorkspace, workspacesOfUser } from "./queries";
import { updateWorkspaceBody, workspaceSchema, workspaceWithAccountsSchema } from "./schemas";

const route = apiRoutes("workspaces");

export const workspacesRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "get",
      operationId: "listWorkspaces",
      path: "/",
      tags: ["Workspaces"],
      summary: "List workspaces",
      description: "Every workspace the key's user is a member of, oldest first, each with its accounts.",
      responses: {
        200: jsonContent(z.object({ data: z.array(workspaceWithAccountsSchema) }), "The workspaces."),
      },
    }),
    async (c) => {
      const { db, principal } = c.var;
      const [rows, accountRows] = await db.batch([
        workspacesOfUser(db, principal),
        accountsOfUser(db, principal),
      ]);
      const byWorkspace = Map.groupBy(accountRows, (a) => a.workspaceId);
      const data = rows.map((w) => ({
        ...presentWorkspace(w),
        accounts: (byWorkspace.get(w.id) ?? []).map(presentAccountShort),
      }));
      return c.json({ data }, 200);
    },
  )
  .openapi(
    route({
      method: "patch",
      operationId: "updateWorkspace",
      earlyReads: true,
      path: "/{id}",
      tags: ["Workspaces"],
      summary: "Update a workspace",
      description:
        "Sets the workspace's `timezone` and its `approval` policy. With `required`, a post created or changed with `scheduled_at`, `publish_now` or `queue` becomes PENDING_APPROVAL and is not published until approved (`POST /api/v1/posts/{id}/approve`); a draft stays a draft. Changing `approval` also needs the `approvals` ability (403 naming it otherwise), so a key that may only propose cannot turn the review off. Switching back to `none` releases nothing by itself: posts already waiting still wait for a decision (or an edit, which then schedules them). A field left out keeps its value.",
      request: { params: idParams, body: jsonBody(updateWorkspaceBody) },
      responses: { 200: jsonContent(workspaceSchema, "The workspace.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const input = c.req.valid("json");
      // Only who may approve may turn approval off (or on): a key that can only propose, an agent's,
      // must not switch the review away.
      if (input.approval !== undefined) await requireAlso(c, "approvals");
      const updated = await updateWorkspace(db, principal, c.req.valid("param").id, input);
      if (!updated) throw notFound("Workspace");
      return c.json(presentWorkspace(updated), 200);
    },
  );
