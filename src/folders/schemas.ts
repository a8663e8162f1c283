import { z } from "zod";
import { DEFAULTS } from "../db/enums";
import { bodyId, hexColor, textId, zonedTime } from "../lib/schemas";

/** Folders one workspace may hold, so the folders list stays bounded. */
export const MAX_FOLDERS_PER_WORKSPACE = 1000;

export const createFolderBody = z
  .strictObject({
    workspace_id: bodyId(),
    name: z.string().trim().min(1).max(255).meta({ example: "Brand assets" }),
    color: hexColor().default(DEFAULTS.folderColor),
    parent_id: bodyId().nullable().default(null).meta({ description: "A folder of the same workspace." }),
  })
  .meta({
    id: "CreateFolderRequest",
    // Works on the demo data of `npm run dev` (workspace 1).
    example: { workspace_id: 1, name: "Campaign visuals" },
  });

export const listFoldersQuery = z.strictObject({
  workspace_id: textId(),
  parent_id: z
    .union([z.literal("root"), textId()])
    .optional()
    .meta({ description: "A folder id, or `root` for top-level folders; all folders when absent." }),
});

export const folderSchema = z
  .strictObject({
    id: z.int(),
    workspace_id: z.int(),
    name: z.string(),
    color: z.string(),
    parent_id: z.int().nullable(),
    created_at: zonedTime(),
    updated_at: zonedTime(),
  })
  .meta({ id: "Folder" });

export type CreateFolderBody = z.infer<typeof createFolderBody>;
