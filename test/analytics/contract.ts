// The route contracts of the analytics API (test/support/contract.ts). Every answer is made from
// published rows with metrics, so the documented metrics object is checked against real numbers; each
// report costs one D1 batch after the key lookup (db: 2).
import type { RouteContract, Tenant } from "../support/contract";
import { metrics, postOn, publishFake, subscribe } from "./support";

const SAMPLE = metrics({
  comments: 1,
  likes: 12,
  shares: 3,
  impressions: 400,
  quotes: 1,
  saves: 2,
  engagement_rate: 4.75,
});

/** A post on both of the tenant's accounts, one row published with metrics, the other a draft. */
async function publishedPost(t: Tenant) {
  const post = await postOn(t, [t.accounts[0]!.id, t.accounts[1]!.id]);
  await publishFake(post.rows[0]!, SAMPLE);
  return post.id;
}

export const analyticsContracts: RouteContract[] = [
  {
    method: "GET",
    route: "/api/v1/analytics",
    auth: "api",
    ability: "posts",
    request: async (t) => {
      await publishedPost(t);
      return { path: "/api/v1/analytics" };
    },
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "GET",
    route: "/api/v1/analytics/posts/{id}",
    auth: "api",
    ability: "posts",
    request: async (t) => ({ path: `/api/v1/analytics/posts/${await publishedPost(t)}` }),
    foreign: async (victim) => ({ path: `/api/v1/analytics/posts/${await publishedPost(victim)}` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "GET",
    route: "/api/v1/analytics/accounts/{id}",
    auth: "api",
    ability: "posts",
    request: async (t) => {
      await publishedPost(t);
      return { path: `/api/v1/analytics/accounts/${t.accounts[0]!.id}` };
    },
    foreign: async (victim) => {
      await publishedPost(victim);
      return { path: `/api/v1/analytics/accounts/${victim.accounts[0]!.id}` };
    },
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "GET",
    route: "/api/v1/analytics/workspaces/{id}",
    auth: "api",
    ability: "posts",
    request: async (t) => {
      await publishedPost(t);
      return { path: `/api/v1/analytics/workspaces/${t.workspace.id}` };
    },
    foreign: async (victim) => {
      await publishedPost(victim);
      return { path: `/api/v1/analytics/workspaces/${victim.workspace.id}` };
    },
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "POST",
    route: "/api/v1/analytics/posts/{id}/sync",
    auth: "api",
    ability: "posts",
    // A subscribed owner, so the success dispatches a job (to a made-up platform post: its sync fails
    // permanently and is acknowledged).
    setup: (t) => subscribe(t.user.id),
    request: async (t) => ({ path: `/api/v1/analytics/posts/${await publishedPost(t)}/sync` }),
    foreign: async (victim) => ({ path: `/api/v1/analytics/posts/${await publishedPost(victim)}/sync` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
];
