import { asc } from "drizzle-orm";
import { accounts, workspaces } from "../db/schema";
import { requireAbility } from "../http/abilities";
import { createRouter } from "../http/router";
import { inUserWorkspaces } from "../workspaces/access";
import { presentAccountShort, presentWorkspace } from "../workspaces/present";

export const workspacesRouter = createRouter().get("/", requireAbility("workspaces"), async (c) => {
  const { db, principal } = c.var;
  const [rows, accountRows] = await db.batch([
    db
      .select()
      .from(workspaces)
      .where(inUserWorkspaces(db, workspaces.id, principal.userId))
      .orderBy(asc(workspaces.id)),
    db
      .select()
      .from(accounts)
      .where(inUserWorkspaces(db, accounts.workspaceId, principal.userId))
      .orderBy(asc(accounts.id)),
  ]);
  const byWorkspace = Map.groupBy(accountRows, (a) => a.workspaceId);
  return c.json({
    data: rows.map((w) => ({
      ...presentWorkspace(w),
      accounts: (byWorkspace.get(w.id) ?? []).map(presentAccountShort),
    })),
  });
});
