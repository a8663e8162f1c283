// The route contract of the comment inbox (test/support/contract.ts): a page with filters and a cursor
// costs one D1 statement after the key lookup. A list names no record, so it has no foreign case: another
// tenant's filters read nothing (test/comments/list.test.ts).
import type { RouteContract, Tenant } from "../support/contract";
import { insertComment } from "../support/db";
import { createPost } from "../support/seed";

/** A post of the tenant with two comments on its first account. */
async function commented(t: Tenant) {
  const post = await createPost(t, { accounts: [t.accounts[0]!.id] });
  await insertComment(post.id, { platform_comment_id: "c1", contact: { name: "Ada", username: "ada" } });
  await insertComment(post.id, {
    platform_comment_id: "c2",
    platform_parent_id: "c1",
    url: "https://x.example/c2",
  });
  return post.id as number;
}

export const commentsContracts: RouteContract[] = [
  {
    method: "GET",
    route: "/api/v1/comments",
    auth: "api",
    ability: "posts",
    request: async (t) => {
      await commented(t);
      return { path: `/api/v1/comments?per_page=1&workspace_id=${t.workspace.id}&hidden=false` };
    },
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
];
