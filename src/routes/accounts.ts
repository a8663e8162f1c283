import { asc } from "drizzle-orm";
import { accounts } from "../db/schema";
import { requireAbility } from "../http/abilities";
import { createRouter } from "../http/router";
import { inUserWorkspaces } from "../workspaces/access";
import { presentAccountList } from "../workspaces/present";

export const accountsRouter = createRouter().get("/", requireAbility("accounts"), async (c) => {
  const { db, principal } = c.var;
  const rows = await db
    .select()
    .from(accounts)
    .where(inUserWorkspaces(db, accounts.workspaceId, principal.userId))
    .orderBy(asc(accounts.id));
  return c.json({ data: rows.map(presentAccountList) });
});
