import type { Folder, Workspace } from "../db/schema";
import { toZonedIso } from "../lib/time";

export const presentFolder = (folder: Folder, workspace: Pick<Workspace, "timezone">) => ({
  id: folder.id,
  workspace_id: folder.workspaceId,
  name: folder.name,
  color: folder.color,
  parent_id: folder.parentId,
  created_at: toZonedIso(folder.createdAt, workspace.timezone),
  updated_at: toZonedIso(folder.updatedAt, workspace.timezone),
});
