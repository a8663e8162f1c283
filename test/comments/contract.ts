// The route contracts of the comment inbox (test/support/contract.ts): a page with filters and a cursor
// costs one D1 statement after the key lookup. A list names no record, so it has no foreign case: another
// tenant's filters read nothing (test/comments/list.test.ts). The actions act on a follower's comment (or
// the account's own reply) on a post published on the X sandbox; another tenant's comment is a 404.
import { publishOnSandbox, rowIds, sandboxAccount } from "../analytics/support";
import { follow } from "../sandbox/support";
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

/**
 * A post of the tenant's X account published on the sandbox, with a comment on the emulator and in the
 * inbox: a follower's, or (`own`) the account's reply to one. Its id.
 */
async function onX(t: Tenant, own = false) {
  const account = sandboxAccount(t);
  const post = await createPost(t, { accounts: [account.id] });
  const [rowId] = await rowIds(post.id);
  const published = await publishOnSandbox(rowId!, account, `Hello ${crypto.randomUUID()}`);
  const fan = await follow("twitter", account.username, {
    post_id: published.id,
    text: "Nice!",
    author: { name: "Fan", username: "fan" },
  });
  const comment = own
    ? await follow("twitter", account.username, {
        post_id: published.id,
        text: "Thanks!",
        author: account.username,
        parent_id: fan.body.id,
      })
    : fan;
  return insertComment(post.id, {
    platform_comment_id: comment.body.id,
    is_own: own,
    ...(own ? { platform_parent_id: fan.body.id } : {}),
  });
}

const action = (
  method: "POST" | "DELETE",
  route: string,
  path: (id: number) => string,
  own: boolean,
  status: number,
  extra: Partial<RouteContract> = {},
): RouteContract => ({
  method,
  route,
  auth: "api",
  ability: "posts",
  request: async (t) => ({
    path: path(await onX(t, own)),
    ...(extra.jsonBody ? { body: { text: "Hi" } } : {}),
  }),
  foreign: async (victim) => ({
    path: path(await onX(victim, own)),
    ...(extra.jsonBody ? { body: { text: "Hi" } } : {}),
  }),
  status,
  // The comment read, the platform's call, the row written.
  budget: { db: 2, gate: 1, hops: 3 },
  ...extra,
});

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
  // The reply: the comment, its pending reply looked for, recorded, then settled; X's create in between.
  action("POST", "/api/v1/comments/{id}/replies", (id) => `/api/v1/comments/${id}/replies`, false, 201, {
    jsonBody: true,
    budget: { db: 4, gate: 1, hops: 5 },
  }),
  action("POST", "/api/v1/comments/{id}/hide", (id) => `/api/v1/comments/${id}/hide`, false, 200),
  action("POST", "/api/v1/comments/{id}/unhide", (id) => `/api/v1/comments/${id}/unhide`, false, 200),
  action("DELETE", "/api/v1/comments/{id}", (id) => `/api/v1/comments/${id}`, true, 200),
];
