// Media library folders: create (201) and list. Ability `posts` (the spec names it for folders).
import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { folders } from "../db/schema";
import { presentFolder } from "../folders/present";
import { requireAbility } from "../http/abilities";
import { invalidField, notFound } from "../http/errors";
import { createRouter } from "../http/router";
import { hexColor, positiveId, validate } from "../http/validate";
import { accessibleWorkspace, inUserWorkspaces } from "../workspaces/access";

const createFolderBody = z.object({
  workspace_id: positiveId(),
  name: z.string().trim().min(1).max(255),
  color: hexColor().default("#4F46E5"),
  parent_id: positiveId().nullable().default(null),
});

const listFoldersQuery = z.object({
  workspace_id: z.coerce.number().pipe(positiveId()),
  parent_id: z.union([z.literal("root"), z.coerce.number().pipe(positiveId())]).optional(),
});

export const foldersRouter = createRouter()
  .use(requireAbility("posts"))
  .get("/", validate("query", listFoldersQuery), async (c) => {
    const { db, principal } = c.var;
    const { workspace_id, parent_id } = c.req.valid("query");
    const parent =
      parent_id === undefined
        ? undefined
        : parent_id === "root"
          ? isNull(folders.parentId)
          : eq(folders.parentId, parent_id);
    const [[workspace], rows] = await db.batch([
      accessibleWorkspace(db, principal.userId, workspace_id),
      db
        .select()
        .from(folders)
        .where(
          and(
            eq(folders.workspaceId, workspace_id),
            inUserWorkspaces(db, folders.workspaceId, principal.userId),
            parent,
          ),
        )
        .orderBy(asc(folders.name), asc(folders.id)),
    ]);
    if (!workspace) throw notFound("Workspace");
    return c.json({ data: rows.map((folder) => presentFolder(folder, workspace)) });
  })
  .post("/", validate("json", createFolderBody), async (c) => {
    const { db, principal } = c.var;
    const body = c.req.valid("json");
    const [[workspace], parents] = await db.batch([
      accessibleWorkspace(db, principal.userId, body.workspace_id),
      db
        .select({ id: folders.id })
        .from(folders)
        .where(and(eq(folders.id, body.parent_id ?? 0), eq(folders.workspaceId, body.workspace_id))),
    ]);
    if (!workspace) throw notFound("Workspace");
    // A new folder can only hang below an existing one of the same workspace, so no cycle can form.
    if (body.parent_id !== null && parents.length === 0)
      throw invalidField("parent_id", "The selected parent id is invalid.");
    const folder = await db
      .insert(folders)
      .values({
        workspaceId: body.workspace_id,
        name: body.name,
        color: body.color,
        parentId: body.parent_id,
      })
      .returning()
      .get();
    return c.json(presentFolder(folder, workspace), 201);
  });
