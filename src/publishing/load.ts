// What one publish needs, read in one batch: the post (with its workspace's zone, for repeats), its
// PUBLISHING rows with their accounts, and its media in thread order.
import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { accounts, media, postMedia, postPlatforms, posts, workspaces } from "../db/schema";

export async function loadForPublishing(db: Database, postId: number) {
  const [[post], rows, items] = await db.batch([
    db
      .select({
        id: posts.id,
        status: posts.status,
        content: posts.content,
        scheduledAt: posts.scheduledAt,
        repeatable: posts.repeatable,
        repeatableGap: posts.repeatableGap,
        repeatableGapUnit: posts.repeatableGapUnit,
        remainingPosts: posts.remainingPosts,
        timezone: workspaces.timezone,
      })
      .from(posts)
      .innerJoin(workspaces, eq(workspaces.id, posts.workspaceId))
      .where(eq(posts.id, postId)),
    // Named columns only: a D1 batch keys results by column name, so no two may share one.
    db
      .select({
        rowId: postPlatforms.id,
        platform: postPlatforms.platform,
        username: accounts.username,
        mode: accounts.mode,
        platformUserId: accounts.platformUserId,
        accountId: postPlatforms.accountId,
        accessTokenEnc: accounts.accessTokenEnc,
        refreshTokenEnc: accounts.refreshTokenEnc,
        tokenExpiresAt: accounts.tokenExpiresAt,
        expiredAt: accounts.expiredAt,
      })
      .from(postPlatforms)
      .innerJoin(accounts, eq(accounts.id, postPlatforms.accountId))
      .where(and(eq(postPlatforms.postId, postId), eq(postPlatforms.status, "PUBLISHING")))
      .orderBy(asc(postPlatforms.id)),
    db
      .select({
        itemIndex: postMedia.itemIndex,
        mediaId: media.id,
        name: media.name,
        mime: media.mimeType,
        kind: media.type,
        size: media.size,
        r2Key: media.r2Key,
      })
      .from(postMedia)
      .innerJoin(media, eq(media.id, postMedia.mediaId))
      .where(eq(postMedia.postId, postId))
      .orderBy(asc(postMedia.itemIndex), asc(postMedia.position)),
  ]);
  return post ? { post, rows, media: items } : null;
}

export type Publishing = NonNullable<Awaited<ReturnType<typeof loadForPublishing>>>;
export type PublishingPost = Publishing["post"];
export type PublishingRow = Publishing["rows"][number];
