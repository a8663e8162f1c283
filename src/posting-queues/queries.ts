// The posting queues' reads and writes, and the slot claim the posts' save path builds into its batch.
// An account's queue is its own row, else its workspace's default (account_id 0), else none. A slot is
// taken while a SCHEDULED post with a row on the account is at that instant: nothing else records a
// claim, so a deleted or rescheduled post frees its slot by itself, and a post scheduled by hand at a
// slot's instant holds it too.
import { and, eq, inArray, isNull, ne, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { accounts, postingQueues, postPlatforms, posts, WORKSPACE_DEFAULT, workspaces } from "../db/schema";
import { accessibleWorkspace, ownedId, ownedWorkspace, type Tenant } from "../db/tenancy";
import { notFound } from "../http/errors";
import { toZonedIso } from "../lib/time";
import type { QueueInput } from "./schemas";
import { HORIZON_MS, type Slot, sharedInstants, slotInstants } from "./slots";

export type QueueRow = { accountId: number; timezone: string | null; slots: Slot[]; paused: boolean };

/** The queue an account takes slots from, resolved. */
export type ResolvedQueue = {
  source: "account" | "workspace" | "none";
  timezone: string;
  timezoneInherited: boolean;
  slots: Slot[];
  paused: boolean;
};

const queueColumns = {
  accountId: postingQueues.accountId,
  timezone: postingQueues.timezone,
  slots: postingQueues.slots,
  paused: postingQueues.paused,
};

/** Statuses whose posts hold their slot: a post waiting for approval keeps the slot it took. */
const HOLDING = ["SCHEDULED", "PENDING_APPROVAL"] as const;
const holdingList = sql.join(
  HOLDING.map((status) => sql`${status}`),
  sql`, `,
);

/** A workspace: its id, or a subquery naming it (the tenant-scoped lookups). */
type WorkspaceRef = number | SQLWrapper;
/** Account ids, or a subquery listing them (a stored post's accounts). */
type AccountsRef = readonly number[] | SQLWrapper;

const amongAccounts = (column: SQLiteColumn, ids: AccountsRef) =>
  Array.isArray(ids) ? (ids.length ? inArray(column, ids) : sql`0`) : inArray(column, ids as SQLWrapper);

/** The queue rows of the accounts and the workspace's default; usable inside a batch. */
export function queueRowsStatement(db: Database, workspace: WorkspaceRef, accountIds: AccountsRef) {
  return db
    .select(queueColumns)
    .from(postingQueues)
    .where(
      and(
        eq(postingQueues.workspaceId, workspace as number),
        or(
          eq(postingQueues.accountId, WORKSPACE_DEFAULT),
          amongAccounts(postingQueues.accountId, accountIds),
        ),
      ),
    );
}

export function resolveQueue(
  rows: readonly QueueRow[],
  accountId: number,
  workspaceZone: string,
): ResolvedQueue {
  const own = rows.find((row) => row.accountId === accountId);
  const row = own ?? rows.find((r) => r.accountId === WORKSPACE_DEFAULT);
  return {
    source: own ? "account" : row ? "workspace" : "none",
    timezone: row?.timezone ?? workspaceZone,
    timezoneInherited: !row?.timezone,
    slots: row?.slots ?? [],
    paused: row?.paused ?? false,
  };
}

/** Slots taken on any of the accounts, after `from` and within the horizon (`except`: a post that moves). */
export function takenStatement(
  db: Database,
  workspace: WorkspaceRef,
  accountIds: AccountsRef,
  from: Date,
  except?: number,
) {
  return db
    .selectDistinct({ at: posts.scheduledAt, accountId: postPlatforms.accountId })
    .from(posts)
    .innerJoin(postPlatforms, eq(postPlatforms.postId, posts.id))
    .where(
      and(
        eq(posts.workspaceId, workspace as number),
        inArray(posts.status, HOLDING),
        sql`${posts.scheduledAt} > ${from.getTime()} AND ${posts.scheduledAt} < ${from.getTime() + HORIZON_MS}`,
        amongAccounts(postPlatforms.accountId, accountIds),
        except === undefined ? undefined : ne(posts.id, except),
      ),
    );
}

/** The free instants of one queue, ascending, after `from` and within the horizon. */
export function freeInstants(queue: ResolvedQueue, taken: ReadonlySet<number>, from: Date): number[] {
  if (queue.paused) return [];
  const until = new Date(from.getTime() + HORIZON_MS);
  return slotInstants(queue.slots, queue.timezone, from, until).filter((at) => !taken.has(at));
}

/**
 * What a `queue: true` post may take: the instants free in the queue of every one of its accounts,
 * ascending, or the 422 messages of `queue` saying why there is none.
 */
export function queueChoice(
  queues: ReadonlyArray<{ field: string; queue: ResolvedQueue }>,
  taken: ReadonlySet<number>,
  from: Date,
): { instants: number[] } | { errors: string[] } {
  const errors: string[] = [];
  for (const { field, queue } of queues) {
    if (queue.slots.length === 0) errors.push(`The queue of ${field} has no slots.`);
    else if (queue.paused) errors.push(`The queue of ${field} is paused.`);
  }
  if (errors.length > 0) return { errors };
  const instants = sharedInstants(queues.map(({ queue }) => freeInstants(queue, taken, from)));
  if (instants.length === 0)
    return {
      errors: [
        queues.length > 1
          ? "No slot shared by the queues of every account is free in the next 90 days."
          : "No slot of the queue is free in the next 90 days.",
      ],
    };
  return { instants };
}

/**
 * The post's `scheduled_at` as one SQL expression: the first of `instants` that no post of the workspace
 * holding its slot (HOLDING) has on any of the accounts (`except`: the post being updated), else NULL.
 * Evaluated inside the write itself, under D1's write lock, so parallel claims never take the same slot: each sees the
 * claims committed before it. The instants travel as one JSON parameter (D1 binds at most 100).
 */
export function claimedSlot(
  workspace: number,
  accountIds: readonly number[],
  instants: readonly number[],
  except?: number,
): SQL<Date> {
  const accountList = sql.join(
    accountIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const notSelf = except === undefined ? sql`` : sql` AND p.id <> ${except}`;
  return sql<Date>`(SELECT c.value FROM json_each(${JSON.stringify(instants)}) AS c
    WHERE NOT EXISTS (SELECT 1 FROM ${posts} p INNER JOIN ${postPlatforms} r ON r.post_id = p.id
      WHERE p.workspace_id = ${workspace} AND p.status IN (${holdingList}) AND p.scheduled_at = c.value
        AND r.account_id IN (${accountList})${notSelf})
    ORDER BY c.value LIMIT 1)`;
}

// The routes' reads and writes.

/** The account if the user can access it (and it is connected), with its workspace's zone. */
const accountWithZone = (db: Database, tenant: Tenant, accountId: number) =>
  db
    .select({ id: accounts.id, workspaceId: accounts.workspaceId, zone: workspaces.timezone })
    .from(accounts)
    .innerJoin(workspaces, eq(workspaces.id, accounts.workspaceId))
    .where(and(eq(accounts.id, ownedId(accounts, tenant, accountId)), isNull(accounts.disconnectedAt)));

/** The workspace of an accessible, connected account, as a subquery (NULL otherwise). */
const workspaceOfAccount = (db: Database, tenant: Tenant, accountId: number) =>
  sql`(${db
    .select({ id: accounts.workspaceId })
    .from(accounts)
    .where(and(eq(accounts.id, ownedId(accounts, tenant, accountId)), isNull(accounts.disconnectedAt)))})`;

const upsertSet = (input: QueueInput, now: Date) => ({
  timezone: input.timezone ?? null,
  slots: sortSlots(input.slots),
  paused: input.paused ?? false,
  updatedAt: now,
});

const sortSlots = (slots: readonly Slot[]) =>
  [...slots]
    .sort((a, b) => a.day - b.day || a.time.localeCompare(b.time))
    .map(({ day, time }) => ({ day, time }));

export type AccountQueue = ResolvedQueue & { accountId: number };

/** The account's queue as it resolves; 404 for an account the user cannot access. */
export async function accountQueue(db: Database, tenant: Tenant, accountId: number): Promise<AccountQueue> {
  const [[account], rows] = await db.batch([
    accountWithZone(db, tenant, accountId),
    queueRowsStatement(db, workspaceOfAccount(db, tenant, accountId), [accountId]),
  ]);
  if (!account) throw notFound("Account");
  return { accountId, ...resolveQueue(rows, accountId, account.zone) };
}

/** Replaces (or creates) the account's own queue; one batch, written only for an accessible account. */
export async function replaceAccountQueue(
  db: Database,
  tenant: Tenant,
  accountId: number,
  input: QueueInput,
): Promise<AccountQueue> {
  const now = new Date();
  const set = upsertSet(input, now);
  const [, [account], rows] = await db.batch([
    db
      .insert(postingQueues)
      .select(
        db
          .select({
            workspaceId: accounts.workspaceId,
            accountId: accounts.id,
            timezone: sql`${set.timezone}`.as("timezone"),
            slots: sql`${JSON.stringify(set.slots)}`.as("slots"),
            paused: sql`${set.paused ? 1 : 0}`.as("paused"),
            createdAt: sql`${now.getTime()}`.as("created_at"),
            updatedAt: sql`${now.getTime()}`.as("updated_at"),
          })
          .from(accounts)
          .where(and(eq(accounts.id, ownedId(accounts, tenant, accountId)), isNull(accounts.disconnectedAt))),
      )
      .onConflictDoUpdate({ target: [postingQueues.workspaceId, postingQueues.accountId], set }),
    accountWithZone(db, tenant, accountId),
    queueRowsStatement(db, workspaceOfAccount(db, tenant, accountId), [accountId]),
  ]);
  if (!account) throw notFound("Account");
  return { accountId, ...resolveQueue(rows, accountId, account.zone) };
}

/** Removes the account's own queue: it inherits the workspace's default again. */
export async function removeAccountQueue(
  db: Database,
  tenant: Tenant,
  accountId: number,
): Promise<AccountQueue> {
  const [, [account], rows] = await db.batch([
    db
      .delete(postingQueues)
      .where(
        and(
          eq(postingQueues.workspaceId, workspaceOfAccount(db, tenant, accountId)),
          eq(postingQueues.accountId, accountId),
        ),
      ),
    accountWithZone(db, tenant, accountId),
    queueRowsStatement(db, workspaceOfAccount(db, tenant, accountId), [accountId]),
  ]);
  if (!account) throw notFound("Account");
  return { accountId, ...resolveQueue(rows, accountId, account.zone) };
}

export type WorkspaceQueue = Omit<ResolvedQueue, "source"> & { workspaceId: number };

const workspaceQueueOf = (workspaceId: number, zone: string, rows: QueueRow[]): WorkspaceQueue => {
  const { source: _source, ...queue } = resolveQueue(rows, WORKSPACE_DEFAULT, zone);
  return { workspaceId, ...queue };
};

export async function workspaceQueue(
  db: Database,
  tenant: Tenant,
  workspaceId: number,
): Promise<WorkspaceQueue> {
  const [[workspace], rows] = await db.batch([
    accessibleWorkspace(db, tenant, workspaceId),
    queueRowsStatement(db, ownedWorkspace(tenant, workspaceId), []),
  ]);
  if (!workspace) throw notFound("Workspace");
  return workspaceQueueOf(workspaceId, workspace.timezone, rows);
}

export async function replaceWorkspaceQueue(
  db: Database,
  tenant: Tenant,
  workspaceId: number,
  input: QueueInput,
): Promise<WorkspaceQueue> {
  const now = new Date();
  const set = upsertSet(input, now);
  const [, [workspace], rows] = await db.batch([
    db
      .insert(postingQueues)
      .select(
        db
          .select({
            workspaceId: workspaces.id,
            accountId: sql`${WORKSPACE_DEFAULT}`.as("account_id"),
            timezone: sql`${set.timezone}`.as("timezone"),
            slots: sql`${JSON.stringify(set.slots)}`.as("slots"),
            paused: sql`${set.paused ? 1 : 0}`.as("paused"),
            createdAt: sql`${now.getTime()}`.as("created_at"),
            updatedAt: sql`${now.getTime()}`.as("updated_at"),
          })
          .from(workspaces)
          .where(eq(workspaces.id, ownedWorkspace(tenant, workspaceId))),
      )
      .onConflictDoUpdate({ target: [postingQueues.workspaceId, postingQueues.accountId], set }),
    accessibleWorkspace(db, tenant, workspaceId),
    queueRowsStatement(db, ownedWorkspace(tenant, workspaceId), []),
  ]);
  if (!workspace) throw notFound("Workspace");
  return workspaceQueueOf(workspaceId, workspace.timezone, rows);
}

export type FreeSlots = { accountId: number; timezone: string; paused: boolean; data: string[] };

/** The account's next `count` free slots, written in its queue's zone with their offsets. */
export async function nextFreeSlots(
  db: Database,
  tenant: Tenant,
  accountId: number,
  count: number,
  now = new Date(),
): Promise<FreeSlots> {
  const workspace = workspaceOfAccount(db, tenant, accountId);
  const [[account], rows, taken] = await db.batch([
    accountWithZone(db, tenant, accountId),
    queueRowsStatement(db, workspace, [accountId]),
    takenStatement(db, workspace, [accountId], now),
  ]);
  if (!account) throw notFound("Account");
  const queue = resolveQueue(rows, accountId, account.zone);
  const takenSet = new Set(taken.map((row) => row.at!.getTime()));
  const data = freeInstants(queue, takenSet, now)
    .slice(0, count)
    .map((at) => toZonedIso(new Date(at), queue.timezone));
  return { accountId, timezone: queue.timezone, paused: queue.paused, data };
}

export type CalendarSlot = {
  at: number;
  accounts: Array<{ id: number; platform: string; username: string }>;
};

/**
 * The free slots of the workspace's connected accounts in [from, to) (the console's week calendar), one
 * entry per instant with the accounts whose queue has it free; only instants a `queue: true` post could
 * take now: after `now`, within the horizon. One batch.
 */
export async function freeSlotsOfWorkspace(
  db: Database,
  tenant: Tenant,
  workspaceId: number,
  range: { from: Date; to: Date },
  now = new Date(),
): Promise<CalendarSlot[]> {
  const workspace = ownedWorkspace(tenant, workspaceId);
  const connected = and(eq(accounts.workspaceId, workspace), isNull(accounts.disconnectedAt));
  const ids = db.select({ id: accounts.id }).from(accounts).where(connected);
  const [[found], targets, rows, taken] = await db.batch([
    accessibleWorkspace(db, tenant, workspaceId),
    db
      .select({ id: accounts.id, platform: accounts.platform, username: accounts.username })
      .from(accounts)
      .where(connected)
      .orderBy(accounts.id),
    queueRowsStatement(db, workspace, ids),
    takenStatement(db, workspace, ids, now),
  ]);
  if (!found) throw notFound("Workspace");
  const from = new Date(Math.max(range.from.getTime(), now.getTime()));
  const until = new Date(Math.min(range.to.getTime(), now.getTime() + HORIZON_MS));
  if (from >= until) return [];
  const takenOn = new Set(taken.map((row) => `${row.accountId}@${row.at!.getTime()}`));
  const byInstant = new Map<number, CalendarSlot["accounts"]>();
  for (const account of targets) {
    const queue = resolveQueue(rows, account.id, found.timezone);
    if (queue.paused) continue;
    for (const at of slotInstants(queue.slots, queue.timezone, from, until))
      if (!takenOn.has(`${account.id}@${at}`)) byInstant.set(at, [...(byInstant.get(at) ?? []), account]);
  }
  return [...byInstant].sort(([a], [b]) => a - b).map(([at, list]) => ({ at, accounts: list }));
}
