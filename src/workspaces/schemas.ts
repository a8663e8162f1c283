import { z } from "zod";
import { accountShortSchema } from "../accounts/schemas";
import { MODES, WORKSPACE_TYPES } from "../db/enums";

export const workspaceSchema = z
  .strictObject({
    id: z.int(),
    name: z.string(),
    slug: z.string(),
    type: z.enum(WORKSPACE_TYPES),
    logo: z.string().nullable(),
    timezone: z
      .string()
      .meta({ description: "IANA zone; the workspace's records render their times in it." }),
    language: z.string(),
    mode: z.enum(MODES).meta({
      description: "`live` or `test`, fixed at creation: a key sees only the workspaces of its own mode.",
    }),
  })
  .meta({ id: "Workspace" });

export const workspaceWithAccountsSchema = workspaceSchema
  .extend({ accounts: z.array(accountShortSchema) })
  .meta({ id: "WorkspaceWithAccounts" });
