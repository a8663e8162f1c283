// Posting queues: an account's queue (GET, PUT, DELETE /api/v1/accounts/{id}/queue), its next free slots
// (GET …/queue/slots), and a workspace's default queue (GET, PUT /api/v1/workspaces/{id}/queue). Ability
// `posts`: a queue decides when posts publish. Posts take a slot with `queue: true` (src/posts/save.ts).
import type { ApiEnv } from "../http/env";
import { jsonBody, jsonContent } from "../http/openapi";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { idParams } from "../lib/schemas";
import {
  type AccountQueue,
  accountQueue,
  type FreeSlots,
  nextFreeSlots,
  removeAccountQueue,
  replaceAccountQueue,
  replaceWorkspaceQueue,
  type WorkspaceQueue,
  workspaceQueue,
} from "./queries";
import {
  accountQueueSchema,
  freeSlotsSchema,
  putQueueBody,
  slotsQuery,
  workspaceQueueSchema,
} from "./schemas";
import { HORIZON_DAYS } from "./slots";

const route = apiRoutes("posts");

const tags = ["Queues"];

const SLOTS = `A slot is a day of the week (\`day\`, ISO: 1 is Monday, 7 is Sunday) and a local wall-clock time (\`time\`, \`HH:MM\`) in the queue's \`timezone\` (the workspace's unless set): 09:00 Europe/Paris is 08:00Z in winter and 07:00Z in summer. On the day clocks go forward, a time inside the skipped hour is the first minute after it (02:30 becomes 03:00); on the day they go back, a time inside the repeated hour is its first occurrence. A slot is free while no SCHEDULED post with a row on the account is at that instant. Replacing the slots moves no post already scheduled.`;

const presentAccountQueue = (q: AccountQueue) => ({
  account_id: q.accountId,
  source: q.source,
  timezone: q.timezone,
  timezone_inherited: q.timezoneInherited,
  slots: q.slots,
  paused: q.paused,
});

const presentWorkspaceQueue = (q: WorkspaceQueue) => ({
  workspace_id: q.workspaceId,
  timezone: q.timezone,
  timezone_inherited: q.timezoneInherited,
  slots: q.slots,
  paused: q.paused,
});

const presentSlots = (s: FreeSlots) => ({
  account_id: s.accountId,
  timezone: s.timezone,
  paused: s.paused,
  data: s.data,
});

/** Mounted under /api/v1/accounts. */
export const accountQueueRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "get",
      operationId: "getAccountQueue",
      path: "/{id}/queue",
      tags,
      summary: "Get an account's queue",
      description: `The queue the account's \`queue: true\` posts take slots from: its own, else its workspace's default (\`source\`). ${SLOTS}`,
      request: { params: idParams },
      responses: { 200: jsonContent(accountQueueSchema, "The account's queue.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const queue = await accountQueue(db, principal, c.req.valid("param").id);
      return c.json(presentAccountQueue(queue), 200);
    },
  )
  .openapi(
    route({
      method: "put",
      operationId: "putAccountQueue",
      earlyReads: true,
      path: "/{id}/queue",
      tags,
      summary: "Replace an account's queue",
      description: `Gives the account a queue of its own (it no longer inherits the workspace's default), or replaces it: \`slots\` wholesale, \`timezone\` (absent or null: the workspace's), \`paused\` (absent: false). A paused queue offers no slot. ${SLOTS}`,
      request: { params: idParams, body: jsonBody(putQueueBody) },
      responses: { 200: jsonContent(accountQueueSchema, "The account's queue.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const queue = await replaceAccountQueue(db, principal, c.req.valid("param").id, c.req.valid("json"));
      return c.json(presentAccountQueue(queue), 200);
    },
  )
  .openapi(
    route({
      method: "delete",
      operationId: "deleteAccountQueue",
      earlyReads: true,
      path: "/{id}/queue",
      tags,
      summary: "Remove an account's own queue",
      description:
        "Removes the account's own queue: it inherits its workspace's default again. Posts already scheduled stay where they are.",
      request: { params: idParams },
      responses: { 200: jsonContent(accountQueueSchema, "The queue the account now inherits.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const queue = await removeAccountQueue(db, principal, c.req.valid("param").id);
      return c.json(presentAccountQueue(queue), 200);
    },
  )
  .openapi(
    route({
      method: "get",
      operationId: "listQueueSlots",
      path: "/{id}/queue/slots",
      tags,
      summary: "List an account's next free slots",
      description: `The next \`count\` free slots of the account's queue within ${HORIZON_DAYS} days, earliest first, each as ISO 8601 with its offset in the queue's \`timezone\` (\`2026-03-29T09:00:00+02:00\`). A paused queue, or one without slots, lists none. A post created now with \`queue: true\` on this account alone takes the first. ${SLOTS}`,
      request: { params: idParams, query: slotsQuery },
      responses: { 200: jsonContent(freeSlotsSchema, "The next free slots.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { count } = c.req.valid("query");
      const slots = await nextFreeSlots(db, principal, c.req.valid("param").id, count);
      return c.json(presentSlots(slots), 200);
    },
  );

/** Mounted under /api/v1/workspaces. */
export const workspaceQueueRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "get",
      operationId: "getWorkspaceQueue",
      path: "/{id}/queue",
      tags,
      summary: "Get a workspace's default queue",
      description: `The queue every account of the workspace without one of its own inherits (no slots until it is set). ${SLOTS}`,
      request: { params: idParams },
      responses: { 200: jsonContent(workspaceQueueSchema, "The workspace's default queue.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const queue = await workspaceQueue(db, principal, c.req.valid("param").id);
      return c.json(presentWorkspaceQueue(queue), 200);
    },
  )
  .openapi(
    route({
      method: "put",
      operationId: "putWorkspaceQueue",
      earlyReads: true,
      path: "/{id}/queue",
      tags,
      summary: "Replace a workspace's default queue",
      description: `Sets the default queue of the workspace's accounts: \`slots\` wholesale, \`timezone\` (absent or null: the workspace's), \`paused\` (absent: false). Accounts with a queue of their own keep it. ${SLOTS}`,
      request: { params: idParams, body: jsonBody(putQueueBody) },
      responses: { 200: jsonContent(workspaceQueueSchema, "The workspace's default queue.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const queue = await replaceWorkspaceQueue(db, principal, c.req.valid("param").id, c.req.valid("json"));
      return c.json(presentWorkspaceQueue(queue), 200);
    },
  );
