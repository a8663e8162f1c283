// Every resource's route contracts, in one list: test/contract.test.ts runs them for tenants of shard 0,
// test/scaling/contract-shard-1.test.ts for tenants of shard 1.
import { accountsContracts } from "./accounts/contract";
import { adminContracts } from "./admin/contract";
import { analyticsContracts } from "./analytics/contract";
import { approvalsContracts } from "./approvals/contract";
import { commentsContracts } from "./comments/contract";
import { consoleContracts } from "./console/contract";
import { delegationContracts } from "./delegation/contract";
import { foldersContracts } from "./folders/contract";
import { importsContracts } from "./imports/contract";
import { labelsContracts } from "./labels/contract";
import { meContracts } from "./me/contract";
import { mediaContracts } from "./media/contract";
import { postingQueuesContracts } from "./posting-queues/contract";
import { postsContracts } from "./posts/contract";
import type { RouteContract } from "./support/contract";
import { webhooksContracts } from "./webhooks/contract";
import { workspacesContracts } from "./workspaces/contract";

export const CONTRACTS: RouteContract[] = [
  ...workspacesContracts,
  ...accountsContracts,
  ...labelsContracts,
  ...foldersContracts,
  ...postsContracts,
  ...postingQueuesContracts,
  ...approvalsContracts,
  ...importsContracts,
  ...mediaContracts,
  ...analyticsContracts,
  ...commentsContracts,
  ...webhooksContracts,
  ...meContracts,
  ...delegationContracts,
  ...adminContracts,
  ...consoleContracts,
];
