// Media library folders: create (201) and list. Ability `posts` (folders hold what posts attach).
import { z } from "zod";
import { accessibleWorkspace, ownedWorkspace } from "../db/tenancy";
import type { ApiEnv } from "../http/env";
import { invalidField, notFound } from "../http/errors";
import { jsonBody, jsonContent } from "../http/openapi";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { presentFolder } from "./present";
import { folderCount, folderOfWorkspace, foldersOfWorkspace, insertFolder } from "./queries";
import { createFolderBody, folderSchema, listFoldersQuery, MAX_FOLDERS_PER_WORKSPACE } from "./schemas";

const route = apiRoutes("posts");

const tags = ["Folders"];

export const foldersRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "get",
      operationId: "listFolders",
      path: "/",
      tags,
      summary: "List folders",
      description: "Folders of one workspace, by name.",
      request: { query: listFoldersQuery },
      responses: { 200: jsonContent(z.object({ data: z.array(folderSchema) }), "The folders.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { workspace_id, parent_id } = c.req.valid("query");
      const [[workspace], rows] = await db.batch([
        accessibleWorkspace(db, principal, workspace_id),
        foldersOfWorkspace(db, principal, workspace_id, parent_id),
      ]);
      if (!workspace) throw notFound("Workspace");
      return c.json({ data: rows.map((folder) => presentFolder(folder, workspace)) }, 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "createFolder",
      earlyReads: true,
      path: "/",
      idempotent: true,
      tags,
      summary: "Create a folder",
      description: `Its \`id\` is usable as \`folder_id\` in media imports and uploads. A workspace holds at most ${MAX_FOLDERS_PER_WORKSPACE} folders; one more is a 422 on \`workspace_id\`.`,
      request: { body: jsonBody(createFolderBody) },
      responses: { 201: jsonContent(folderSchema, "The folder.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const body = c.req.valid("json");
      const [[workspace], parents, [held]] = await db.batch([
        accessibleWorkspace(db, principal, body.workspace_id),
        // Through the membership: another tenant's workspace and folders are never read.
        folderOfWorkspace(db, ownedWorkspace(principal, body.workspace_id), body.parent_id ?? 0),
        folderCount(db, ownedWorkspace(principal, body.workspace_id)),
      ]);
      if (!workspace) throw notFound("Workspace");
      const full = () =>
        invalidField(
          "workspace_id",
          `A workspace holds at most ${MAX_FOLDERS_PER_WORKSPACE} folders: delete one to make room.`,
        );
      if ((held?.n ?? 0) >= MAX_FOLDERS_PER_WORKSPACE) throw full();
      // A new folder can only hang below an existing one of the same workspace, so no cycle can form.
      if (body.parent_id !== null && parents.length === 0)
        throw invalidField("parent_id", "The selected parent id is invalid.");
      // The count above only answers early; the insert counts again itself, so parallel creates stop at
      // the cap.
      const folder = await insertFolder(db, body, MAX_FOLDERS_PER_WORKSPACE);
      if (!folder) throw full();
      return c.json(presentFolder(folder, workspace), 201);
    },
  );
