import { z } from "zod";
import { bodyId, hexColor, textId, zonedTime } from "../lib/schemas";
import { workspaceSchema } from "../workspaces/schemas";

const labelFields = {
  name: z.string().trim().min(1).max(255).meta({ example: "Launch" }),
  color: hexColor(),
};

/** Labels one workspace may hold, so the labels list stays bounded. */
export const MAX_LABELS_PER_WORKSPACE = 500;

export const listLabelsQuery = z.strictObject({ workspace_id: textId().optional() });
// Examples that work on the demo data of `npm run dev` (workspace 1, whose label is "Launch").
export const createLabelBody = z
  .strictObject({ workspace_id: bodyId(), ...labelFields })
  .meta({ id: "CreateLabelRequest", example: { workspace_id: 1, name: "Campaign", color: "#0EA5E9" } });
export const updateLabelBody = z
  .strictObject(labelFields)
  .meta({ id: "UpdateLabelRequest", example: { name: "Campaign 2027", color: "#0EA5E9" } });

export const labelSchema = z
  .strictObject({
    id: z.int(),
    name: z.string(),
    color: z.string(),
    workspace: workspaceSchema,
    created_at: zonedTime(),
    updated_at: zonedTime(),
  })
  .meta({ id: "Label" });

export type CreateLabelBody = z.infer<typeof createLabelBody>;
export type UpdateLabelBody = z.infer<typeof updateLabelBody>;
