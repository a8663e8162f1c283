// Creating and updating a post: one batch reads everything the request must be checked against (the
// workspace or stored post, and every account, label and media id it names), the rules run on the
// merged state, then one batch writes the post and reads it back. A post that is to publish now goes to
// the publish queue. Three D1 round trips with authentication.
import { eq } from "drizzle-orm";
import { insertedId } from "../db/batch";
import type { Database } from "../db/client";
import { posts } from "../db/schema";
import { invalidField, notFound, validationFailed } from "../http/errors";
import { enqueuePublish } from "../publishing/messages";
import { accessibleWorkspace } from "../workspaces/queries";
import type { PresentContext, PresentedPost } from "./present";
import { storedPostStatements, writeAndLoad } from "./queries";
import { referenceErrors, referenceStatements, toReferences } from "./references";
import { nextState, ruleErrors, statusOf } from "./rules";
import type { CreatePostInput, PostInput } from "./schemas";
import { createStatements, updateStatements } from "./write";

/** What a write needs besides the database: how to present the answer and where to queue publishing. */
export type SaveContext = Omit<PresentContext, "includeComments"> & { queue: Queue };

function throwIfErrors(...groups: Array<Record<string, string[]>>) {
  const errors = Object.assign({}, ...groups);
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
}

export async function createPost(
  db: Database,
  userId: number,
  input: CreatePostInput,
  ctx: SaveContext,
): Promise<PresentedPost> {
  const now = new Date();
  const [workspace, accountRows, labelRows, mediaRows] = await db.batch([
    accessibleWorkspace(db, userId, input.workspace_id),
    ...referenceStatements(db, input.workspace_id, input),
  ]);
  if (workspace.length === 0) throw notFound("Workspace");
  const refs = toReferences(accountRows, labelRows, mediaRows, input);
  const state = nextState(null, input, now);
  throwIfErrors(ruleErrors(input, state, now), referenceErrors(input, refs));

  const status = statusOf(state);
  const post = await writeAndLoad(
    db,
    createStatements(db, userId, input, refs, state, status),
    insertedId(posts),
    { ...ctx, includeComments: false },
  );
  if (status === "PUBLISHING") await enqueuePublish(ctx.queue, [post.id]);
  return post;
}

/** A partial update (absent fields keep their value); a post being or already published is refused. */
export async function updatePost(
  db: Database,
  userId: number,
  id: number,
  input: PostInput,
  ctx: SaveContext,
): Promise<PresentedPost> {
  const now = new Date();
  // The references are checked against the stored post's workspace, read by the same batch.
  const workspaceOfPost = db.select({ id: posts.workspaceId }).from(posts).where(eq(posts.id, id));
  const [[stored], existingRows, accountRows, labelRows, mediaRows] = await db.batch([
    ...storedPostStatements(db, userId, id),
    ...referenceStatements(db, workspaceOfPost, input),
  ]);
  if (!stored) throw notFound("Post");
  if (stored.status === "PUBLISHED" || stored.status === "PUBLISHING") {
    throw invalidField(
      "status",
      stored.status === "PUBLISHED"
        ? "A published post cannot be edited."
        : "A post cannot be edited while it is being published.",
    );
  }
  const refs = toReferences(accountRows, labelRows, mediaRows, input);
  const state = nextState(stored, input, now);
  throwIfErrors(ruleErrors(input, state, now), referenceErrors(input, refs));

  const status = statusOf(state);
  const updated = await writeAndLoad(
    db,
    updateStatements(db, stored, existingRows, input, refs, state, status, now),
    id,
    { ...ctx, includeComments: false },
  );
  if (status === "PUBLISHING") await enqueuePublish(ctx.queue, [id]);
  return updated;
}
