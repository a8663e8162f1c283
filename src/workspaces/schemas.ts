import { z } from "zod";
import { accountShortSchema } from "../accounts/schemas";
import { APPROVAL_POLICIES, MODES, WORKSPACE_TYPES } from "../db/enums";
import { timezone } from "../lib/schemas";

const approvalPolicy = z.enum(APPROVAL_POLICIES).meta({
  description:
    "`none` (default) or `required`: a post created or changed with `scheduled_at`, `publish_now` or `queue` then waits in PENDING_APPROVAL until a key with the `approvals` ability (or a review link, or a console user) approves it.",
});

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
    approval: approvalPolicy,
  })
  .meta({ id: "Workspace" });

export const workspaceWithAccountsSchema = workspaceSchema
  .extend({ accounts: z.array(accountShortSchema) })
  .meta({ id: "WorkspaceWithAccounts" });

/** PATCH /api/v1/workspaces/{id}: the settings a key may change. */
export const updateWorkspaceBody = z
  .strictObject({
    approval: approvalPolicy.optional(),
    timezone: timezone.optional().meta({
      description:
        "IANA zone the workspace's times are written in from now on. Instants do not move: a post scheduled at 09:00 Paris time stays at that instant, which London's zone writes 08:00. Queues that inherit the workspace's zone keep their local slot times in the new zone for posts queued from now on.",
    }),
  })
  .meta({ example: { approval: "required" } });
export type UpdateWorkspaceInput = z.infer<typeof updateWorkspaceBody>;
