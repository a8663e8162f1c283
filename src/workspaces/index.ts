// GET /api/v1/workspaces: the workspaces the key's user can access, each with its accounts.
import { z } from "zod";
import { presentAccountShort } from "../accounts/present";
import { accountsOfUser } from "../accounts/queries";
import type { ApiEnv } from "../http/env";
import { jsonContent } from "../http/openapi";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { presentWorkspace } from "./present";
import { workspacesOfUser } from "./queries";
import { workspaceWithAccountsSchema } from "./schemas";

const route = apiRoutes("workspaces");

export const workspacesRouter = createRouter<ApiEnv>().openapi(
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
);
