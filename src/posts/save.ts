// Creating and updating a post: one batch reads everything the request must be checked against (the
// workspace or stored post, and every account, label and media id it names), the rules run on the
// merged state, then one batch writes the post and reads it back. A post that is to publish now goes to
// the publish queue; a scheduled one gets its wake-up, a delayed message due at `scheduled_at` (a
// rescheduled post gets a new one, and the old one finds the post moved). Three D1 round trips with
// authentication. `queue: true` adds the queues and their taken slots to the read batch, and the write
// claims the slot itself (src/posting-queues/queries.ts claimedSlot): no round trip more.

import { eq, type SQL } from "drizzle-orm";
import { insertedId, type Statement } from "../db/batch";
import type { Database } from "../db/client";
import type { Platform } from "../db/enums";
import { type Post, postPlatforms, posts, workspaces } from "../db/schema";
import { accessibleWorkspace, ownedId, ownedWorkspace, type Tenant } from "../db/tenancy";
import { announce } from "../events/announce";
import { type OutboxKey, recordPostRescheduled, recordPostReviewed } from "../events/record";
import { conflict, invalidField, notFound, validationFailed } from "../http/errors";
import { createProblems } from "../platforms/catalog";
import type { CheckedItem } from "../platforms/rules";
import { settingsFor } from "../platforms/settings";
import {
  claimedSlot,
  type QueueRow,
  queueChoice,
  queueRowsStatement,
  resolveQueue,
  takenStatement,
} from "../posting-queues/queries";
import { enqueuePublish, sendWakeUps } from "../publishing/messages";
import { textErrors } from "./limits";
import type { PresentContext, PresentedPost } from "./present";
import { postOfUser, storedPostStatements, writeLoadAndAnswer } from "./queries";
import { referenceErrors, referenceStatements, toReferences } from "./references";
import { insertReview, reviewerOf, statusUnderPolicy } from "./reviews";
import { changesVersion, nextState, type PostState, ruleErrors, statusOf } from "./rules";
import type { CreatePostInput, PostInput } from "./schemas";
import { createStatements, isGuardFailure, unchangedSince, updateStatements } from "./write";

/**
 * What a write needs besides the database: how to present the answer, where to queue publishing, and
 * the webhooks queue that hears of a rescheduled post.
 */
export type SaveContext = Omit<PresentContext, "includeComments" | "env"> & {
  env: PresentContext["env"] & Pick<Env, "WEBHOOKS_QUEUE">;
  queue: Queue;
};

/** The slots a `queue: true` post may take (queueChoice), or its 422 messages on `queue`. */
type QueuePlan = { instants: number[] } | null;

/**
 * `queue: true`: the instants free in the queue of every target account (read by the request's batch),
 * the first of which becomes the post's provisional `scheduled_at`: the write claims the first still
 * free (claimedSlot). `queue` errors when there is none.
 */
function planQueue(
  input: PostInput,
  targets: ReadonlyArray<{ id: number }>,
  reads: { rows: QueueRow[]; taken: Array<{ at: Date | null }>; zone: string },
  state: PostState,
  now: Date,
): { plan: QueuePlan; state: PostState; errors: Record<string, string[]> } {
  if (!input.queue || targets.length === 0) return { plan: null, state, errors: {} };
  const index = new Map((input.accounts ?? []).map((id, i) => [id, i]));
  const queues = targets.map((account, i) => ({
    field: `accounts.${index.get(account.id) ?? i}`,
    queue: resolveQueue(reads.rows, account.id, reads.zone),
  }));
  const taken = new Set(reads.taken.map((row) => row.at!.getTime()));
  const choice = queueChoice(queues, taken, now);
  if ("errors" in choice) return { plan: null, state, errors: { queue: choice.errors } };
  return {
    plan: choice,
    state: { ...state, scheduledAt: new Date(choice.instants[0]!) },
    errors: {},
  };
}

const slotsGone = () =>
  invalidField("queue", "The free slots were taken by other posts meanwhile; send the request again.");

function throwIfErrors(...groups: Array<Record<string, string[]>>) {
  const errors = Object.assign({}, ...groups);
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
}

/** The post's items as the platforms' checks read them: each media id as the library knows it. */
export function checkedItems(
  content: Array<{ text: string; media: number[] }>,
  mediaRows: Array<{ id: number; state: string; mime: string; kind: "image" | "video"; size: number }>,
): CheckedItem[] {
  const library = new Map(mediaRows.map((m) => [m.id, m]));
  return content.map((item) => ({
    text: item.text,
    media: item.media.map((id) => {
      const m = library.get(id);
      return m && m.state !== "failed" ? { mime: m.mime, kind: m.kind, size: m.size } : null;
    }),
  }));
}

/**
 * 422 messages by field for what a target platform refuses on create too (TikTok without `privacy_level`,
 * a non-JPEG image on Instagram), on the settings its rows will get (the request's, else every default).
 * `only` keeps the problems of the request's `content` or of its `settings`.
 */
function createErrors(
  platforms: Platform[],
  items: CheckedItem[],
  settings: Partial<Record<Platform, Record<string, unknown>>> | undefined,
  only?: "content" | "settings",
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const platform of new Set(platforms))
    for (const { field, message } of createProblems(platform, {
      items,
      settings: settingsFor(platform, settings?.[platform]),
    }))
      if (!only || field === only || field.startsWith(`${only}.`))
        errors[field] = [...(errors[field] ?? []), message];
  return errors;
}

/**
 * Create's one read batch. A bulk import reads once for many posts of one workspace (the union of their
 * ids, and the same queued accounts) and hands the result to checkCreate: each post finds its own ids.
 */
export function readForCreate(db: Database, tenant: Tenant, input: CreatePostInput, now: Date) {
  const owned = ownedWorkspace(tenant, input.workspace_id);
  const queued = input.queue ? input.accounts : [];
  return db.batch([
    accessibleWorkspace(db, tenant, input.workspace_id),
    // Through the membership: another tenant's accounts, labels and media are never read.
    ...referenceStatements(db, owned, input),
    queueRowsStatement(db, owned, queued),
    takenStatement(db, owned, queued, now),
  ]);
}
export type CreateReads = Awaited<ReturnType<typeof readForCreate>>;

/**
 * Create's checks, shared with the dry run (validate.ts): one batch reads the workspace and every
 * account, label and media id the request names; `errors` is the 422's (empty when create accepts it).
 */
export async function checkCreate(
  db: Database,
  tenant: Tenant,
  input: CreatePostInput,
  now: Date,
  reads?: CreateReads,
) {
  const [workspace, accountRows, labelRows, mediaRows, queueRows, taken] =
    reads ?? (await readForCreate(db, tenant, input, now));
  if (workspace.length === 0) throw notFound("Workspace");
  const refs = toReferences(accountRows, labelRows, mediaRows, input);
  const queue = planQueue(
    input,
    refs.accounts,
    { rows: queueRows, taken, zone: workspace[0]!.timezone },
    nextState(null, input, now),
    now,
  );
  const state = queue.state;
  const texts = textErrors(
    input.content.map((item) => item.text),
    refs.accounts.map((a) => a.platform),
  );
  const errors: Record<string, string[]> = Object.assign(
    {},
    ruleErrors(input, state, now),
    referenceErrors(input, refs),
    texts,
    createErrors(
      refs.accounts.map((a) => a.platform),
      checkedItems(input.content, mediaRows),
      input.settings,
    ),
    queue.errors,
  );
  return {
    refs,
    state,
    errors,
    accountRows,
    mediaRows,
    plan: queue.plan,
    policy: workspace[0]!.approval,
    zone: workspace[0]!.timezone,
  };
}

/** The tenant of a write, and its key when a key made it (the reviewer its review entries name). */
type Writer = Tenant & { keyId?: number };

/**
 * A post that now waits for approval at `version`: its review entry (`submitted`, or `edited` when it
 * had been submitted or approved before) and the record of its `post.approval_requested`, for the
 * write's batch.
 */
function submission(
  db: Database,
  writer: Writer,
  postId: number | SQL,
  action: "submitted" | "edited",
  version: number,
  now: Date,
) {
  return {
    review: insertReview(db, { postId, action, version, by: reviewerOf(writer), at: now }),
    record: recordPostReviewed(
      db,
      "post.approval_requested",
      postId,
      version,
      now.getTime(),
      typeof postId !== "number",
    ),
  };
}

/** `also`: statements written in the post's own batch (a bulk import records the row it created). */
export async function createPost(
  db: Database,
  tenant: Writer,
  input: CreatePostInput,
  ctx: SaveContext,
  also: (postId: SQL<number>) => Statement[] = () => [],
): Promise<PresentedPost> {
  const now = new Date();
  const { refs, state, errors, plan, policy } = await checkCreate(db, tenant, input, now);
  throwIfErrors(errors);

  // In a workspace that requires approval, a post with a time waits for it (a draft stays a draft).
  const status = statusUnderPolicy(statusOf(state), policy);
  const submitted = status === "PENDING_APPROVAL";
  const claim = plan
    ? claimedSlot(
        input.workspace_id,
        refs.accounts.map((a) => a.id),
        plan.instants,
      )
    : undefined;
  const submit = submitted ? submission(db, tenant, insertedId(posts), "submitted", 1, now) : null;
  const { post, written } = await writeLoadAndAnswer(
    db,
    [
      ...createStatements(db, tenant.userId, input, refs, state, status, claim),
      ...also(insertedId(posts)),
      // Last: `written.at(-1)` is the outbox record to announce.
      ...(submit ? [submit.review, submit.record] : []),
    ],
    insertedId(posts),
    { ...ctx, includeComments: false },
  ).catch((error) => {
    throw claim && isGuardFailure(error) ? slotsGone() : error;
  });
  if (submitted) await announce(ctx.env, written.at(-1) as OutboxKey[]);
  if (status === "PUBLISHING") await enqueuePublish(ctx.queue, [post.id]);
  // A queued post's time is the slot its write claimed (whole minutes, so the presented time is exact);
  // any other's is the one asked for, to the millisecond.
  if (status === "SCHEDULED") {
    const due = claim ? Date.parse(post.scheduled_at!) : state.scheduledAt!.getTime();
    await sendWakeUps(ctx.queue, [{ postId: post.id, due }]);
  }
  return post;
}

/** Why a post cannot be edited in its status: a published one never, one being published not now. */
function refuseEdit(status: Post["status"]) {
  if (status === "PUBLISHED") throw invalidField("status", "A published post cannot be edited.");
  if (status === "PUBLISHING") throw conflict("A post cannot be edited while it is being published.");
}

/** An update's batch failed: a post claimed, edited or deleted since it was read explains it. */
async function explainFailedWrite(
  db: Database,
  tenant: Tenant,
  stored: Post,
  error: unknown,
): Promise<never> {
  const [now] = await storedPostStatements(db, tenant, stored.id)[0];
  if (!now) throw notFound("Post");
  refuseEdit(now.status);
  if (now.status !== stored.status || now.updatedAt.getTime() !== stored.updatedAt.getTime())
    throw conflict("The post changed while it was being updated; send the update again.");
  // Unchanged, so the guard that failed is the queue claim's.
  throw isGuardFailure(error) ? slotsGone() : error;
}

/**
 * A partial update (absent fields keep their value) of a DRAFT, SCHEDULED or FAILED post; a published
 * post is a 422 on `status`, one being published a 409.
 */
export async function updatePost(
  db: Database,
  tenant: Writer,
  id: number,
  input: PostInput,
  ctx: SaveContext,
): Promise<PresentedPost> {
  const now = new Date();
  // The references are checked against the stored post's workspace, read by the same batch.
  // Found through the user's workspaces: another tenant's post names no workspace, so nothing is read.
  const workspaceOfPost = db
    .select({ id: posts.workspaceId })
    .from(posts)
    .where(postOfUser(db, tenant, id));
  // A queued update reads the queues of the accounts the post will have, and the slots they hold.
  const queued = !input.queue
    ? []
    : (input.accounts ??
      db
        .select({ id: postPlatforms.accountId })
        .from(postPlatforms)
        .where(eq(postPlatforms.postId, ownedId(posts, tenant, id))));
  const [[stored], existingRows, accountRows, labelRows, mediaRows, zones, queueRows, taken] = await db.batch(
    [
      ...storedPostStatements(db, tenant, id),
      ...referenceStatements(db, workspaceOfPost, input),
      db
        .select({ zone: workspaces.timezone, policy: workspaces.approval })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceOfPost)),
      queueRowsStatement(db, workspaceOfPost, queued),
      takenStatement(db, workspaceOfPost, queued, now, id),
    ],
  );
  if (!stored) throw notFound("Post");
  refuseEdit(stored.status);
  const refs = toReferences(accountRows, labelRows, mediaRows, input);
  const targets = input.accounts
    ? refs.accounts
    : existingRows.map((row) => ({ id: row.accountId, platform: row.platform }));
  const queue = planQueue(
    input,
    targets,
    { rows: queueRows, taken, zone: zones[0]?.zone ?? "UTC" },
    nextState(stored, input, now),
    now,
  );
  const state = queue.state;
  // The text as it will be, against the platforms it will go to (either may come from the stored post).
  const texts = textErrors(
    input.content?.map((item) => item.text) ?? stored.content,
    input.accounts ? refs.accounts.map((a) => a.platform) : existingRows.map((row) => row.platform),
  );
  // Rows the update creates get the request's settings (else the defaults), and so do the rows of every
  // platform the request gives settings for; kept rows keep the settings they have.
  const kept = new Set(existingRows.map((row) => row.accountId));
  const newSettings = [
    ...(input.accounts ? refs.accounts.filter((a) => !kept.has(a.id)).map((a) => a.platform) : []),
    ...(input.accounts ? refs.accounts : existingRows)
      .map((a) => a.platform)
      .filter((platform) => input.settings?.[platform] !== undefined),
  ];
  // New content is checked against every platform the post will go to.
  throwIfErrors(
    ruleErrors(input, state, now),
    referenceErrors(input, refs),
    texts,
    createErrors(newSettings, [], input.settings, "settings"),
    input.content
      ? createErrors(
          targets.map((a) => a.platform),
          checkedItems(input.content, mediaRows),
          input.settings,
          "content",
        )
      : {},
    queue.errors,
  );

  // A change a reviewer would see makes a new version; in a workspace that requires approval the post
  // then waits for it again, even if it was approved (SCHEDULED); one approved and left as it was keeps
  // its approval.
  const bump = changesVersion(stored, input, state);
  const policy = zones[0]?.policy ?? "none";
  const status = statusUnderPolicy(statusOf(state), policy, stored.status === "SCHEDULED" && !bump);
  const version = stored.version + (bump ? 1 : 0);
  const submitted = status === "PENDING_APPROVAL" && (bump || stored.status !== "PENDING_APPROVAL");
  const waitedBefore = stored.status === "PENDING_APPROVAL" || stored.status === "SCHEDULED";
  const claim = queue.plan
    ? claimedSlot(
        stored.workspaceId,
        targets.map((a) => a.id),
        queue.plan.instants,
        id,
      )
    : undefined;
  // Conditional on the status (and version) just checked: the publisher can never be raced. A
  // SCHEDULED post whose time the batch moves records `post.rescheduled` (the last write).
  const mayMove = stored.status === "SCHEDULED" && status === "SCHEDULED";
  const submit = submitted
    ? submission(db, tenant, id, waitedBefore ? "edited" : "submitted", version, now)
    : null;
  // The records of events come last: their answers are the outbox keys to announce.
  const records = [
    ...(mayMove ? [recordPostRescheduled(db, id, stored.scheduledAt!, now.getTime())] : []),
    ...(submit ? [submit.record] : []),
  ];
  const writes = [
    unchangedSince(db, stored),
    ...updateStatements(db, stored, existingRows, input, refs, state, status, now, claim, bump),
    ...(submit ? [submit.review] : []),
    ...records,
  ];
  const { post: updated, written } = await writeLoadAndAnswer(db, writes, id, {
    ...ctx,
    includeComments: false,
  }).catch((error) => explainFailedWrite(db, tenant, stored, error));
  await announce(ctx.env, written.slice(writes.length - records.length).flat() as OutboxKey[]);
  if (status === "PUBLISHING") await enqueuePublish(ctx.queue, [id]);
  // As on create: a claimed slot's presented time is exact; an asked-for time keeps its milliseconds.
  const due = claim
    ? updated.scheduled_at
      ? Date.parse(updated.scheduled_at)
      : undefined
    : state.scheduledAt?.getTime();
  if (status === "SCHEDULED" && (stored.status !== "SCHEDULED" || stored.scheduledAt?.getTime() !== due))
    await sendWakeUps(ctx.queue, [{ postId: id, due: due! }]);
  return updated;
}
