// The events, one emitter each, called where the change they report commits: a post settling
// (src/publishing/post-status.ts), an account found expired (src/accounts/tokens.ts), an import settling
// (src/media/import/consumer.ts), a row's analytics synced (src/analytics/consumer.ts). Each says how
// its event id is made deterministic and reads its record, as the API answers it, only when an endpoint
// listens.
import { desc, eq, sql } from "drizzle-orm";
import { presentAccount } from "../accounts/present";
import { presentPostAnalytics } from "../analytics/present";
import { postReport } from "../analytics/queries";
import type { Database } from "../db/client";
import type { PostStatus } from "../db/enums";
import { type Account, media, posts, workspaceMembers } from "../db/schema";
import { backgroundOrigin } from "../lib/origin";
import { presentMediaList } from "../media/present";
import { assemblePosts, postStatements } from "../posts/load";
import { presentPosts } from "../posts/present";
import { emitEvent, emitSafely } from "./events";

type EmitEnv = Pick<Env, "WEBHOOKS_QUEUE" | "ENCRYPTION_KEY" | "PUBLIC_BASE_URL">;

const postWorkspace = (db: Database, postId: number) =>
  sql`(${db.select({ id: posts.workspaceId }).from(posts).where(eq(posts.id, postId))})`;

/**
 * A post left PUBLISHING at `at`: PUBLISHED (or a repeat's occurrence published everywhere and put
 * back to SCHEDULED) is `post.published`; FAILED is `post.partially_published` when a row published,
 * else `post.failed`. One settlement per post and time, so `<post>_<at>` names it.
 */
export const emitPostSettled = (env: EmitEnv, db: Database, postId: number, status: PostStatus, at: number) =>
  emitSafely("a post event", () =>
    emitEvent(env, db, {
      workspace: postWorkspace(db, postId),
      types: status === "FAILED" ? ["post.failed", "post.partially_published"] : ["post.published"],
      key: `${postId}_${at}`,
      at,
      build: async () => {
        const ids = db.select({ id: posts.id }).from(posts).where(eq(posts.id, postId));
        const [loaded] = assemblePosts(await db.batch(postStatements(db, ids, false)));
        if (!loaded) return null;
        const [data] = await presentPosts([loaded], {
          env,
          origin: backgroundOrigin(env),
          includeComments: false,
        });
        const partly = loaded.rows.some((row) => row.status === "PUBLISHED");
        const type =
          status !== "FAILED" ? "post.published" : partly ? "post.partially_published" : "post.failed";
        return { workspaceId: loaded.post.workspaceId, type, data };
      },
    }),
  );

/** An account whose token could not be refreshed: once per expiry, so `<account>_<expired_at>`. */
export const emitAccountExpired = (env: EmitEnv, db: Database, account: Account) =>
  emitSafely("account.expired", () =>
    emitEvent(env, db, {
      workspace: account.workspaceId,
      types: ["account.expired"],
      key: `${account.id}_${account.expiredAt?.getTime() ?? 0}`,
      at: account.expiredAt?.getTime() ?? Date.now(),
      build: async () => ({
        workspaceId: account.workspaceId,
        type: "account.expired",
        data: presentAccount(account),
      }),
    }),
  );

/**
 * An import that settled, as the item now stands: ready or failed, once, so its id names the event;
 * nothing while it is processing. It throws: the import consumer emits it on every delivery of the
 * item's message, after the change, and retries the message when emission fails, so a crash or a
 * failure between the change and its event is made good by the redelivery (which stores nothing twice).
 */
export const emitMediaSettled = (env: EmitEnv, db: Database, mediaId: number) =>
  emitEvent(env, db, {
    workspace: sql`(${db.select({ id: media.workspaceId }).from(media).where(eq(media.id, mediaId))})`,
    types: ["media.ready", "media.failed"],
    key: String(mediaId),
    at: Date.now(),
    build: async () => {
      const row = await db.select().from(media).where(eq(media.id, mediaId)).get();
      if (!row || row.state === "processing") return null;
      const [data] = await presentMediaList(env, backgroundOrigin(env), [row]);
      return {
        workspaceId: row.workspaceId,
        type: row.state === "ready" ? "media.ready" : "media.failed",
        data,
      };
    },
  });

/**
 * A platform row's analytics synced; `data` is the post's analytics report. A sync job redelivered
 * keeps its message id, so `<row>_<message id>` names one job's sync however often it runs. It throws:
 * the sync consumer retries the job when emission fails, and the redelivered job syncs (idempotently)
 * and emits again.
 */
export const emitAnalyticsSynced = (
  env: EmitEnv,
  db: Database,
  sync: { postId: number; rowId: number; messageId: string },
) =>
  emitEvent(env, db, {
    workspace: postWorkspace(db, sync.postId),
    types: ["analytics.synced"],
    key: `${sync.rowId}_${sync.messageId}`,
    at: Date.now(),
    build: async () => {
      // The report is read as a member of the post's workspace would read it (its author first).
      const [member] = await db
        .select({ userId: workspaceMembers.userId, workspaceId: posts.workspaceId })
        .from(posts)
        .innerJoin(workspaceMembers, eq(workspaceMembers.workspaceId, posts.workspaceId))
        .where(eq(posts.id, sync.postId))
        .orderBy(desc(sql`${workspaceMembers.userId} = ${posts.userId}`))
        .limit(1);
      if (!member) return null;
      const [found, rows, accounts, [total]] = await postReport(db, member.userId, sync.postId);
      if (found.length === 0) return null;
      return {
        workspaceId: member.workspaceId,
        type: "analytics.synced",
        data: presentPostAnalytics(sync.postId, total, rows, accounts),
      };
    },
  });
