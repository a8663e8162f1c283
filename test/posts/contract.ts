// The route contracts of the posts API (test/support/contract.ts). The GET of one post is the richest
// answer: every row published with metrics, media, a label, an auto_plug and comments, so the whole
// documented Post is checked against a real answer.
import { call } from "../support/client";
import type { RouteContract, Tenant } from "../support/contract";
import { d1Of, insertComment, insertMedia, publishRows } from "../support/db";
import { createPost } from "../support/seed";

const newPost = async (t: Tenant) => (await createPost(t)).id as number;

/** A post whose publication failed on its account, as the publisher leaves it. */
async function failedPost(t: Tenant) {
  const id = await newPost(t);
  const d1 = d1Of(id);
  await d1.batch([
    d1.prepare("UPDATE posts SET status = 'FAILED' WHERE id = ?").bind(id),
    d1
      .prepare(
        `UPDATE post_platforms SET status = 'FAILED', attempts = 1, error = '{"code":"server_error","message":"Unavailable."}' WHERE post_id = ?`,
      )
      .bind(id),
  ]);
  return id;
}

/** A post on both of the tenant's accounts, published, with media, a label, settings and comments. */
async function publishedPost(t: Tenant) {
  const label = await call("POST", "/api/v1/labels", {
    key: t.key,
    body: { workspace_id: t.workspace.id, name: "Launch", color: "#4F46E5" },
  });
  const { id } = await createPost(t, {
    accounts: t.accounts.map((a) => a.id),
    content: [{ text: "Hello", media: [await insertMedia(t.workspace.id)] }, { text: "Thread" }],
    labels: [label.body.id],
    settings: { twitter: { poll: { enabled: true, options: ["A", "B"], duration_minutes: 60 } } },
    auto_plug: { text: "More at https://example.com", threshold: 10 },
  });
  const metrics = {
    comments: 1,
    likes: 2,
    shares: 3,
    impressions: 4,
    quotes: 5,
    saves: 6,
    engagement_rate: 1.5,
  };
  await publishRows(id, metrics, Date.now());
  await insertComment(id, { contact: { name: "Grace Hopper", username: "grace" } });
  await insertComment(id, { platform: "linkedin" });
  return id as number;
}

export const postsContracts: RouteContract[] = [
  {
    method: "GET",
    route: "/api/v1/posts",
    auth: "api",
    ability: "posts",
    request: async (t) => {
      await newPost(t);
      return { path: "/api/v1/posts?per_page=10&include_comments=true" };
    },
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "POST",
    route: "/api/v1/posts",
    auth: "api",
    ability: "posts",
    jsonBody: true,
    request: (t) => ({
      path: "/api/v1/posts",
      body: {
        workspace_id: t.workspace.id,
        accounts: t.accounts.map((a) => a.id),
        content: [{ text: "Hello" }],
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    }),
    foreign: (victim) => ({
      path: "/api/v1/posts",
      body: {
        workspace_id: victim.workspace.id,
        accounts: [victim.accounts[0]!.id],
        content: [{ text: "x" }],
      },
    }),
    status: 201,
    budget: { db: 2, gate: 1, hops: 2 },
  },
  {
    // The dry run reads what create reads, in one batch that overlaps the gate's Coordinator call, and
    // writes nothing: one round trip and one hop, like a GET.
    method: "POST",
    route: "/api/v1/posts/validate",
    auth: "api",
    ability: "posts",
    jsonBody: true,
    request: async (t) => ({
      path: "/api/v1/posts/validate",
      body: {
        workspace_id: t.workspace.id,
        accounts: t.accounts.map((a) => a.id),
        content: [{ text: "Hello", media: [await insertMedia(t.workspace.id)] }, { text: "Thread" }],
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    }),
    foreign: (victim) => ({
      path: "/api/v1/posts/validate",
      body: {
        workspace_id: victim.workspace.id,
        accounts: [victim.accounts[0]!.id],
        content: [{ text: "x" }],
      },
    }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "GET",
    route: "/api/v1/posts/{id}",
    auth: "api",
    ability: "posts",
    request: async (t) => ({ path: `/api/v1/posts/${await publishedPost(t)}?include_comments=true` }),
    foreign: async (victim) => ({ path: `/api/v1/posts/${await newPost(victim)}` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "PUT",
    route: "/api/v1/posts/{id}",
    auth: "api",
    ability: "posts",
    jsonBody: true,
    request: async (t) => ({
      path: `/api/v1/posts/${await newPost(t)}`,
      body: { content: [{ text: "Edited" }], accounts: t.accounts.map((a) => a.id) },
    }),
    foreign: async (victim) => ({
      path: `/api/v1/posts/${await newPost(victim)}`,
      body: { content: [{ text: "pwned" }] },
    }),
    status: 200,
    budget: { db: 2, gate: 1, hops: 2 },
  },
  {
    method: "POST",
    route: "/api/v1/posts/{id}/retry",
    auth: "api",
    ability: "posts",
    request: async (t) => ({ path: `/api/v1/posts/${await failedPost(t)}/retry` }),
    foreign: async (victim) => ({ path: `/api/v1/posts/${await failedPost(victim)}/retry` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "DELETE",
    route: "/api/v1/posts/{id}",
    auth: "api",
    ability: "posts",
    request: async (t) => ({ path: `/api/v1/posts/${await newPost(t)}` }),
    foreign: async (victim) => ({ path: `/api/v1/posts/${await newPost(victim)}` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
];
