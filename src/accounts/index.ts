// GET /api/v1/accounts: every connected account of the workspaces the key's user can access.
import { z } from "zod";
import type { ApiEnv } from "../http/env";
import { jsonContent } from "../http/openapi";
import { apiRoute, createRouter } from "../http/router";
import { presentAccount } from "./present";
import { accountsOfUser } from "./queries";
import { accountSchema } from "./schemas";

export const accountsRouter = createRouter<ApiEnv>().openapi(
  apiRoute("accounts", {
    method: "get",
    path: "/",
    tags: ["Accounts"],
    summary: "List accounts",
    description: "The connected accounts of every workspace the key's user can access, oldest first.",
    responses: { 200: jsonContent(z.object({ data: z.array(accountSchema) }), "The accounts.") },
  }),
  async (c) => {
    const rows = await accountsOfUser(c.var.db, c.var.principal.userId);
    return c.json({ data: rows.map(presentAccount) }, 200);
  },
);
