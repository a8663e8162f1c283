import type { Workspace } from "../db/schema";

/** The API's Workspace (without accounts). */
export const presentWorkspace = (w: Workspace) => ({
  id: w.id,
  name: w.name,
  slug: w.slug,
  type: w.type,
  logo: w.logo,
  timezone: w.timezone,
  language: w.language,
  mode: w.mode,
  approval: w.approval,
});
