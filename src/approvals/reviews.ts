// A post's review history, as GET /api/v1/posts/{id}/reviews answers it: one batch reads the post (its
// workspace's zone) and its entries, both within the tenant's scope.
import { asc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "../db/client";
import { type PostReview, postReviews, posts, workspaces } from "../db/schema";
import { ownedId, type Tenant } from "../db/tenancy";
import { invalidField, notFound } from "../http/errors";
import { toZonedIso } from "../lib/time";
import type { reviewSchema } from "./schemas";

export type PresentedReview = z.output<typeof reviewSchema>;

export const presentReview = (entry: PostReview, zone: string): PresentedReview => ({
  action: entry.action,
  version: entry.version,
  note: entry.note,
  by: { type: entry.byType, name: entry.byName },
  at: toZonedIso(entry.createdAt, zone),
});

/** The post's entries, oldest first; 404 when the tenant has no such post. */
export async function reviewsOfPost(db: Database, tenant: Tenant, id: number): Promise<PresentedReview[]> {
  const post = ownedId(posts, tenant, id);
  const [found, entries] = await db.batch([
    db
      .select({ zone: workspaces.timezone })
      .from(posts)
      .innerJoin(workspaces, eq(workspaces.id, posts.workspaceId))
      .where(eq(posts.id, post)),
    db.select().from(postReviews).where(eq(postReviews.postId, post)).orderBy(asc(postReviews.id)),
  ]);
  if (!found[0]) throw notFound("Post");
  return entries.map((entry) => presentReview(entry, found[0]!.zone));
}

/** The version at which the tenant's post waits for approval: 404 when absent, 422 when not waiting. */
export async function waitingVersion(db: Database, tenant: Tenant, id: number): Promise<number> {
  const [found] = await db
    .select({ status: posts.status, version: posts.version })
    .from(posts)
    .where(eq(posts.id, ownedId(posts, tenant, id)));
  if (!found) throw notFound("Post");
  if (found.status !== "PENDING_APPROVAL")
    throw invalidField(
      "status",
      `Only a post waiting for approval can be reviewed; this one is ${found.status}.`,
    );
  return found.version;
}
