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

export async function insertComment(postId: number, fields: Partial<Record<string, unknown>> = {}) {
  const row = await d1Of(postId)
    .prepare(
      "INSERT INTO comments (post_id, platform, content, author_name, contact, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(
      postId,
      fields.platform ?? "twitter",
      fields.content ?? "Nice post!",
      fields.author_name ?? "Grace",
      fields.contact === undefined ? null : JSON.stringify(fields.contact),
      fields.created_at ?? Date.UTC(2026, 10, 21, 8, 15),
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
