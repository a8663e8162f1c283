// Labels: list, create (201), update, delete. Ability `labels`.
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { labels, workspaces } from "../db/schema";
import { requireAbility } from "../http/abilities";
import { notFound } from "../http/errors";
import { createRouter } from "../http/router";
import { hexColor, idPath, positiveId, validate } from "../http/validate";
import { presentLabel } from "../labels/present";
import { accessibleWorkspace, inUserWorkspaces } from "../workspaces/access";

const labelFields = { name: z.string().trim().min(1).max(255), color: hexColor() };

export const labelsRouter = createRouter()
  .use(requireAbility("labels"))
  .get(
    "/",
    validate("query", z.object({ workspace_id: z.coerce.number().pipe(positiveId()).optional() })),
    async (c) => {
      const { db, principal } = c.var;
      const { workspace_id } = c.req.valid("query");
      const visible = inUserWorkspaces(db, workspaces.id, principal.userId);
      const [workspaceRows, rows] = await db.batch([
        db
          .select()
          .from(workspaces)
          .where(workspace_id ? and(eq(workspaces.id, workspace_id), visible) : visible),
        db
          .select()
          .from(labels)
          .where(
            and(
              inUserWorkspaces(db, labels.workspaceId, principal.userId),
              workspace_id ? eq(labels.workspaceId, workspace_id) : undefined,
            ),
          )
          .orderBy(asc(labels.id)),
      ]);
      if (workspace_id && workspaceRows.length === 0) throw notFound("Workspace");
      const byId = new Map(workspaceRows.map((w) => [w.id, w]));
      return c.json({ data: rows.map((label) => presentLabel(label, byId.get(label.workspaceId)!)) });
    },
  )
  .post("/", validate("json", z.object({ workspace_id: positiveId(), ...labelFields })), async (c) => {
    const { db, principal } = c.var;
    const body = c.req.valid("json");
    const workspace = await accessibleWorkspace(db, principal.userId, body.workspace_id).get();
    if (!workspace) throw notFound("Workspace");
    const label = await db
      .insert(labels)
      .values({ workspaceId: workspace.id, name: body.name, color: body.color })
      .returning()
      .get();
    return c.json(presentLabel(label, workspace), 201);
  })
  .put("/:id", idPath(), validate("json", z.object(labelFields)), async (c) => {
    const { db, principal } = c.var;
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const [updated, workspace] = await db.batch([
      db
        .update(labels)
        .set({ name: body.name, color: body.color, updatedAt: new Date() })
        .where(and(eq(labels.id, id), inUserWorkspaces(db, labels.workspaceId, principal.userId)))
        .returning(),
      db
        .select()
        .from(workspaces)
        .where(
          eq(workspaces.id, db.select({ id: labels.workspaceId }).from(labels).where(eq(labels.id, id))),
        ),
    ]);
    const label = updated[0];
    if (!label || !workspace[0]) throw notFound("Label");
    return c.json(presentLabel(label, workspace[0]));
  })
  .delete("/:id", idPath(), async (c) => {
    const { db, principal } = c.var;
    const { id } = c.req.valid("param");
    const deleted = await db
      .delete(labels)
      .where(and(eq(labels.id, id), inUserWorkspaces(db, labels.workspaceId, principal.userId)))
      .returning({ id: labels.id });
    if (deleted.length === 0) throw notFound("Label");
    return c.json({ message: "Label deleted successfully." });
  });
