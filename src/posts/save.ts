// Creating and updating a post: one batch reads everything the request must be checked against (the
// workspace or stored post, and every account, label and media id it names), the rules run on the
// merged state, then one batch writes the post and reads it back. A post that is to publish now goes to
// the publish queue; a scheduled one gets its wake-up, a delayed message due at `scheduled_at` (a
// rescheduled post gets a new one, and the old one finds the post moved). Three D1 round trips with
// authentication.
import { insertedId } from "../db/batch";
import type { Database } from "../db/client";
import type { Platform } from "../db/enums";
import { type Post, posts } from "../db/schema";
import { accessibleWorkspace, ownedWorkspace, type Tenant } from "../db/tenancy";
import { conflict, invalidField, notFound, validationFailed } from "../http/errors";
import { createProblems } from "../platforms/catalog";
import type { CheckedItem } from "../platforms/rules";
import { settingsFor } from "../platforms/settings";
import { enqueuePublish, sendWakeUps } from "../publishing/messages";
import { textErrors } from "./limits";
import type { PresentContext, PresentedPost } from "./present";
import { postOfUser, storedPostStatements, writeAndLoad } from "./queries";
import { referenceErrors, referenceStatements, toReferences } from "./references";
import { nextState, ruleErrors, statusOf } from "./rules";
import type { CreatePostInput, PostInput } from "./schemas";
import { createStatements, unchangedSince, updateStatements } from "./write";

/** What a write needs besides the database: how to present the answer and where to queue publishing. */
export type SaveContext = Omit<PresentContext, "includeComments"> & { queue: Queue };

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
 * Create's checks, shared with the dry run (validate.ts): one batch reads the workspace and every
 * account, label and media id the request names; `errors` is the 422's (empty when create accepts it).
 */
export async function checkCreate(db: Database, tenant: Tenant, input: CreatePostInput, now: Date) {
  const [workspace, accountRows, labelRows, mediaRows] = await db.batch([
    accessibleWorkspace(db, tenant, input.workspace_id),
    // Through the membership: another tenant's accounts, labels and media are never read.
    ...referenceStatements(db, ownedWorkspace(tenant, input.workspace_id), input),
  ]);
  if (workspace.length === 0) throw notFound("Workspace");
  const refs = toReferences(accountRows, labelRows, mediaRows, input);
  const state = nextState(null, input, now);
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
  );
  return { refs, state, errors, accountRows, mediaRows };
}

export async function createPost(
  db: Database,
  tenant: Tenant,
  input: CreatePostInput,
  ctx: SaveContext,
): Promise<PresentedPost> {
  const now = new Date();
  const { refs, state, errors } = await checkCreate(db, tenant, input, now);
  throwIfErrors(errors);

  const status = statusOf(state);
  const post = await writeAndLoad(
    db,
    createStatements(db, tenant.userId, input, refs, state, status),
    insertedId(posts),
    { ...ctx, includeComments: false },
  );
  if (status === "PUBLISHING") await enqueuePublish(ctx.queue, [post.id]);
  if (status === "SCHEDULED")
    await sendWakeUps(ctx.queue, [{ postId: post.id, due: state.scheduledAt!.getTime() }]);
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
  throw error;
}

/**
 * A partial update (absent fields keep their value) of a DRAFT, SCHEDULED or FAILED post; a published
 * post is a 422 on `status`, one being published a 409.
 */
export async function updatePost(
  db: Database,
  tenant: Tenant,
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
  const [[stored], existingRows, accountRows, labelRows, mediaRows] = await db.batch([
    ...storedPostStatements(db, tenant, id),
    ...referenceStatements(db, workspaceOfPost, input),
  ]);
  if (!stored) throw notFound("Post");
  refuseEdit(stored.status);
  const refs = toReferences(accountRows, labelRows, mediaRows, input);
  const state = nextState(stored, input, now);
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
  const targets = input.accounts ? refs.accounts : existingRows;
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
  );

  const status = statusOf(state);
  // Conditional on the status (and version) just checked: the publisher can never be raced.
  const writes = [
    unchangedSince(db, stored),
    ...updateStatements(db, stored, existingRows, input, refs, state, status, now),
  ];
  const updated = await writeAndLoad(db, writes, id, { ...ctx, includeComments: false }).catch((error) =>
    explainFailedWrite(db, tenant, stored, error),
  );
  if (status === "PUBLISHING") await enqueuePublish(ctx.queue, [id]);
  const due = state.scheduledAt?.getTime();
  if (status === "SCHEDULED" && (stored.status !== "SCHEDULED" || stored.scheduledAt?.getTime() !== due))
    await sendWakeUps(ctx.queue, [{ postId: id, due: due! }]);
  return updated;
}
