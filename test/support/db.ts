// Direct D1 seeding for data the public API cannot create (media bytes arrive in issue 4's importer,
// comments come from platforms) and for bulk fixtures that would exceed the per-user rate limit.
import { env } from "cloudflare:workers";
import { shardBindings, shardOfId } from "../../src/db/shards";

/** The D1 database an id lives in (src/db/shards.ts). */
export const d1Of = (id: number) => shardBindings(env)[shardOfId(id)]!;

export async function insertMedia(workspaceId: number, fields: Partial<Record<string, unknown>> = {}) {
  const row = await d1Of(workspaceId)
    .prepare(
      `INSERT INTO media (workspace_id, name, r2_key, mime_type, type, size, state, progress)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .bind(
      workspaceId,
      fields.name ?? "photo.jpg",
      `test/${crypto.randomUUID()}`,
      fields.mime_type ?? "image/jpeg",
      fields.type ?? "image",
      fields.size ?? 12345,
      fields.state ?? "ready",
      fields.progress ?? 100,
    )
    .first<{ id: number }>();
  return row!.id;
}

/**
 * A comment on the post, as a sync stores it: its workspace is the post's, its account the post's row on
 * that platform (else its first row) unless `account_id` says otherwise.
 */
export async function insertComment(postId: number, fields: Partial<Record<string, unknown>> = {}) {
  const platform = fields.platform ?? "twitter";
  const created = fields.created_at ?? Date.UTC(2026, 10, 21, 8, 15);
  const row = await d1Of(postId)
    .prepare(
      `INSERT INTO comments (workspace_id, account_id, post_id, platform, platform_comment_id, platform_parent_id,
        content, author_name, contact, url, is_own, hidden, replied_at, received_at, created_at)
      VALUES ((SELECT workspace_id FROM posts WHERE id = ?1),
        coalesce(?2, (SELECT account_id FROM post_platforms WHERE post_id = ?1 ORDER BY platform = ?3 DESC, id LIMIT 1)),
        ?1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) RETURNING id`,
    )
    .bind(
      postId,
      fields.account_id ?? null,
      platform,
      fields.platform_comment_id ?? null,
      fields.platform_parent_id ?? null,
      fields.content ?? "Nice post!",
      fields.author_name ?? "Grace",
      fields.contact === undefined ? null : JSON.stringify(fields.contact),
      fields.url ?? null,
      fields.is_own ? 1 : 0,
      fields.hidden ? 1 : 0,
      fields.replied_at ?? null,
      fields.received_at ?? created,
      created,
    )
    .first<{ id: number }>();
  return row!.id;
}

/** Marks the rows of a post as published with metrics, as the publisher and analytics sync will. */
export async function publishRows(postId: number, analytics: Record<string, number>, postedAt: number) {
  const d1 = d1Of(postId);
  await d1.batch([
    d1.prepare("UPDATE posts SET status = 'PUBLISHED' WHERE id = ?").bind(postId),
    d1
      .prepare(
        "UPDATE post_platforms SET status = 'PUBLISHED', analytics = ?, posted_on = ?, platform_post_id = 'p' || id, post_url = 'https://x.example/' || id WHERE post_id = ?",
      )
      .bind(JSON.stringify(analytics), JSON.stringify([postedAt]), postId),
  ]);
}
