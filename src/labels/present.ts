import type { Label, Workspace } from "../db/schema";
import { toZonedIso } from "../lib/time";
import { presentWorkspace } from "../workspaces/present";

export const presentLabel = (label: Label, workspace: Workspace) => ({
  id: label.id,
  name: label.name,
  color: label.color,
  workspace: presentWorkspace(workspace),
  created_at: toZonedIso(label.createdAt, workspace.timezone),
  updated_at: toZonedIso(label.updatedAt, workspace.timezone),
});
