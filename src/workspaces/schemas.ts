import { z } from "zod";
import { accountShortSchema } from "../accounts/schemas";
import { WORKSPACE_TYPES } from "../db/enums";

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
  })
  .meta({ id: "Workspace" });

export const workspaceWithAccountsSchema = workspaceSchema
  .extend({ accounts: z.array(accountShortSchema) })
  .meta({ id: "WorkspaceWithAccounts" });
