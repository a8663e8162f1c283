// Posts: list (paginated, every accessible workspace), create, get, update, delete.
import { and, count, desc, eq, type SQL, sql } from "drizzle-orm";
import { insertedId, type Statement } from "../db/batch";
import type { Database } from "../db/client";
import { accounts, labels, media, postLabels, postMedia, postPlatforms, posts } from "../db/schema";
import { requireAbility } from "../http/abilities";
import type { ApiEnv } from "../http/env";
import { invalidField, notFound, validationFailed } from "../http/errors";
import { idPath, validate } from "../http/legacy";
import { paginated } from "../http/pagination";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { enqueuePublish } from "../publishing/messages";
import { accessibleWorkspace, inUserWorkspaces } from "../workspaces/queries";
import { assemblePosts, type PostResults, postStatements } from "./load";
import { type PresentContext, presentPosts } from "./present";
import { nextState, type PostState, ruleErrors, statusOf } from "./rules";
import { createPostBody, getPostQuery, listPostsQuery, type PostInput, updatePostBody } from "./schemas";
import {
  idsOrNothing,
  insertLabels,
  insertMedia,
  insertRows,
  replaceRows,
  type TargetAccount,
  updateRowSettings,
} from "./write";

/** Reads the accounts, labels and media a request names, scoped to one workspace (an SQL expression). */
function referenceStatements(db: Database, workspaceId: number | SQL, input: PostInput) {
  const mediaIds = [...new Set((input.content ?? []).flatMap((item) => item.media))];
  return [
    db
      .select({ id: accounts.id, platform: accounts.platform })
      .from(accounts)
      .where(and(eq(accounts.workspaceId, workspaceId), idsOrNothing(accounts.id, input.accounts ?? []))),
    db
      .select({ id: labels.id })
      .from(labels)
      .where(and(eq(labels.workspaceId, workspaceId), idsOrNothing(labels.id, input.labels ?? []))),
    db
      .select({ id: media.id, state: media.state })
      .from(media)
      .where(and(eq(media.workspaceId, workspaceId), idsOrNothing(media.id, mediaIds))),
  ] as const;
}

type References = {
  accounts: TargetAccount[];
  labelIds: Set<number>;
  media: Map<number, "processing" | "ready" | "failed">;
};

/** 422 naming each account, label or media id that is not of the post's workspace. */
function referenceErrors(input: PostInput, refs: References): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const accountIds = new Set(refs.accounts.map((a) => a.id));
  input.accounts?.forEach((id, i) => {
    if (!accountIds.has(id)) errors[`accounts.${i}`] = [`The selected accounts.${i} is invalid.`];
  });
  input.labels?.forEach((id, i) => {
    if (!refs.labelIds.has(id)) errors[`labels.${i}`] = [`The selected labels.${i} is invalid.`];
  });
  input.content?.forEach((item, i) => {
    item.media.forEach((id, j) => {
      const state = refs.media.get(id);
      if (!state || state === "failed")
        errors[`content.${i}.media.${j}`] = [`The selected content.${i}.media.${j} is invalid.`];
    });
  });
  return errors;
}

function toReferences(
  accountRows: TargetAccount[],
  labelRows: Array<{ id: number }>,
  mediaRows: Array<{ id: number; state: "processing" | "ready" | "failed" }>,
  input: PostInput,
): References {
  const byId = new Map(accountRows.map((a) => [a.id, a]));
  return {
    // In the order the client gave them: that is the order of the platform rows.
    accounts: (input.accounts ?? []).flatMap((id) => byId.get(id) ?? []),
    labelIds: new Set(labelRows.map((l) => l.id)),
    media: new Map(mediaRows.map((m) => [m.id, m.state])),
  };
}

function throwIfErrors(...groups: Array<Record<string, string[]>>) {
  const errors = Object.assign({}, ...groups);
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
}

/**
 * Runs a post's writes and reads it back in the same batch (one round trip): `postId` may be SQL, the
 * id of the post the batch itself inserts.
 */
async function writeAndLoad(db: Database, writes: Statement[], postId: number | SQL, ctx: PresentContext) {
  const ids = db.select({ id: posts.id }).from(posts).where(eq(posts.id, postId));
  const reads = postStatements(db, ids, ctx.includeComments);
  const [first, ...rest]: Statement[] = [...writes, ...reads];
  const results = await db.batch([first!, ...rest]);
  const [presented] = await presentPosts(
    assemblePosts(results.slice(-reads.length) as unknown as PostResults),
    ctx,
  );
  return presented!;
}

async function loadOne(db: Database, userId: number, postId: number, ctx: PresentContext) {
  const ids = db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, postId), inUserWorkspaces(db, posts.workspaceId, userId)));
  const results = await db.batch(postStatements(db, ids, ctx.includeComments));
  const [presented] = await presentPosts(assemblePosts(results), ctx);
  if (!presented) throw notFound("Post");
  return presented;
}

const stateFields = (state: PostState, status: ReturnType<typeof statusOf>) => ({
  status,
  scheduledAt: state.scheduledAt,
  publishNow: state.publishNow,
  repeatable: state.repeatable,
  repeatableTimes: state.repeatableTimes,
  repeatableGap: state.repeatableGap,
  repeatableGapUnit: state.repeatableGapUnit,
});

export const postsRouter = createRouter<ApiEnv>()
  .use(requireAbility("posts"))
  .get("/", validate("query", listPostsQuery), async (c) => {
    const { db, principal } = c.var;
    const { page, per_page, include_comments } = c.req.valid("query");
    const mine = inUserWorkspaces(db, posts.workspaceId, principal.userId);
    const pageIds = db
      .select({ id: posts.id })
      .from(posts)
      .where(mine)
      .orderBy(desc(posts.id))
      .limit(per_page)
      .offset((page - 1) * per_page);
    const [[totals], ...results] = await db.batch([
      db.select({ total: count() }).from(posts).where(mine),
      ...postStatements(db, pageIds, include_comments),
    ]);
    const ctx = { env: c.env, origin: publicOrigin(c.env, c.req.url), includeComments: include_comments };
    const data = await presentPosts(assemblePosts(results), ctx);
    return c.json(
      paginated(
        { requestUrl: c.req.url, origin: ctx.origin, page, perPage: per_page },
        data,
        totals?.total ?? 0,
      ),
    );
  })
  .post("/", validate("json", createPostBody), async (c) => {
    const { db, principal } = c.var;
    const input = c.req.valid("json");
    const now = new Date();
    const [workspace, accountRows, labelRows, mediaRows] = await db.batch([
      accessibleWorkspace(db, principal.userId, input.workspace_id),
      ...referenceStatements(db, input.workspace_id, input),
    ]);
    if (workspace.length === 0) throw notFound("Workspace");
    const refs = toReferences(accountRows, labelRows, mediaRows, input);
    const state = nextState(null, input, now);
    throwIfErrors(ruleErrors(input, state, now), referenceErrors(input, refs));

    const status = statusOf(state);
    const newPostId = insertedId(posts);
    const ctx = { env: c.env, origin: publicOrigin(c.env, c.req.url), includeComments: false };
    const post = await writeAndLoad(
      db,
      [
        db.insert(posts).values({
          workspaceId: input.workspace_id,
          userId: principal.userId,
          content: input.content.map((item) => item.text),
          ...stateFields(state, status),
          remainingPosts: state.repeatable ? state.repeatableTimes : null,
          autoPlug: input.auto_plug ?? null,
        }),
        ...insertRows(db, newPostId, refs.accounts, status, input.settings),
        ...insertMedia(db, newPostId, input.content),
        ...insertLabels(db, newPostId, input.labels ?? []),
      ],
      newPostId,
      ctx,
    );
    if (status === "PUBLISHING") await enqueuePublish(c.env.PUBLISH_QUEUE, [post.id]);
    return c.json(post, 201);
  })
  .get("/:id", idPath(), validate("query", getPostQuery), async (c) => {
    const { db, principal } = c.var;
    const { id } = c.req.valid("param");
    const { include_comments } = c.req.valid("query");
    const ctx = { env: c.env, origin: publicOrigin(c.env, c.req.url), includeComments: include_comments };
    return c.json(await loadOne(db, principal.userId, id, ctx));
  })
  .put("/:id", idPath(), validate("json", updatePostBody), async (c) => {
    const { db, principal } = c.var;
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const now = new Date();
    const workspaceOfPost = sql`(SELECT workspace_id FROM ${posts} WHERE ${posts.id} = ${id})`;
    const [[post], existingRows, accountRows, labelRows, mediaRows] = await db.batch([
      db
        .select()
        .from(posts)
        .where(and(eq(posts.id, id), inUserWorkspaces(db, posts.workspaceId, principal.userId))),
      db
        .select({ accountId: postPlatforms.accountId })
        .from(postPlatforms)
        .where(eq(postPlatforms.postId, id)),
      ...referenceStatements(db, workspaceOfPost, input),
    ]);
    if (!post) throw notFound("Post");
    if (post.status === "PUBLISHED" || post.status === "PUBLISHING") {
      throw invalidField(
        "status",
        post.status === "PUBLISHED"
          ? "A published post cannot be edited."
          : "A post cannot be edited while it is being published.",
      );
    }
    const refs = toReferences(accountRows, labelRows, mediaRows, input);
    const state = nextState(post, input, now);
    throwIfErrors(ruleErrors(input, state, now), referenceErrors(input, refs));

    const status = statusOf(state);
    const repeatChanged =
      input.repeatable !== undefined ||
      input.repeatable_times !== undefined ||
      post.repeatable !== state.repeatable;
    const ctx = { env: c.env, origin: publicOrigin(c.env, c.req.url), includeComments: false };
    const updated = await writeAndLoad(
      db,
      [
        db
          .update(posts)
          .set({
            ...stateFields(state, status),
            ...(input.content ? { content: input.content.map((item) => item.text) } : {}),
            ...(repeatChanged ? { remainingPosts: state.repeatable ? state.repeatableTimes : null } : {}),
            ...(input.auto_plug !== undefined ? { autoPlug: input.auto_plug } : {}),
            updatedAt: now,
          })
          .where(eq(posts.id, id)),
        ...(input.accounts ? replaceRows(db, id, existingRows, refs.accounts, status, input.settings) : []),
        ...(input.settings ? updateRowSettings(db, id, input.settings) : []),
        db.update(postPlatforms).set({ status, updatedAt: now }).where(eq(postPlatforms.postId, id)),
        ...(input.content
          ? [db.delete(postMedia).where(eq(postMedia.postId, id)), ...insertMedia(db, id, input.content)]
          : []),
        ...(input.labels
          ? [db.delete(postLabels).where(eq(postLabels.postId, id)), ...insertLabels(db, id, input.labels)]
          : []),
      ],
      id,
      ctx,
    );
    if (status === "PUBLISHING") await enqueuePublish(c.env.PUBLISH_QUEUE, [id]);
    return c.json(updated);
  })
  .delete("/:id", idPath(), async (c) => {
    const { db, principal } = c.var;
    const { id } = c.req.valid("param");
    // Rows, media links, labels and comments go with it (ON DELETE CASCADE); a queued publish job
    // or a cron claim then finds no post and publishes nothing.
    const deleted = await db
      .delete(posts)
      .where(and(eq(posts.id, id), inUserWorkspaces(db, posts.workspaceId, principal.userId)))
      .returning({ id: posts.id });
    if (deleted.length === 0) throw notFound("Post");
    return c.json({ message: "Post deleted successfully." });
  });
