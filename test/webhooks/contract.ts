import { call } from "../support/client";
import type { RouteContract, Tenant } from "../support/contract";
import { d1Of } from "../support/db";

let counter = 0;
const url = () => `https://hooks-contract-${counter++}.example.test/in`;

const newWebhook = async (t: Tenant) => {
  const res = await call("POST", "/api/v1/webhooks", {
    key: t.key,
    body: { workspace_id: t.workspace.id, url: url(), events: ["post.published"] },
  });
  return res.body.id as number;
};

const onWebhook = (suffix: string) => ({
  request: async (t: Tenant) => ({ path: `/api/v1/webhooks/${await newWebhook(t)}${suffix}` }),
  foreign: async (victim: Tenant) => ({ path: `/api/v1/webhooks/${await newWebhook(victim)}${suffix}` }),
});

/** A webhook with one failed delivery (recorded straight in D1: no receiver is reached to fail it). */
const failedDelivery = async (t: Tenant) => {
  const webhook = await newWebhook(t);
  const event = `evt_post.published_contract_${webhook}`;
  const db = d1Of(webhook);
  await db.batch([
    db
      .prepare("INSERT INTO webhook_events (id, workspace_id, type, body) VALUES (?, ?, 'post.published', ?)")
      .bind(event, t.workspace.id, JSON.stringify({ id: event, type: "post.published", data: {} })),
    db
      .prepare(
        "INSERT INTO webhook_deliveries (endpoint_id, event_id, status, attempts) VALUES (?, ?, 'failed', 8)",
      )
      .bind(webhook, event),
  ]);
  const delivery = await db
    .prepare("SELECT id FROM webhook_deliveries WHERE event_id = ?")
    .bind(event)
    .first<{ id: number }>();
  return { path: `/api/v1/webhooks/${webhook}/deliveries/${delivery!.id}/redeliver` };
};

export const webhooksContracts: RouteContract[] = [
  {
    method: "GET",
    route: "/api/v1/webhooks",
    auth: "api",
    ability: "workspaces",
    request: async (t) => {
      await newWebhook(t);
      return { path: `/api/v1/webhooks?workspace_id=${t.workspace.id}` };
    },
    foreign: (victim) => ({ path: `/api/v1/webhooks?workspace_id=${victim.workspace.id}` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "POST",
    route: "/api/v1/webhooks",
    auth: "api",
    ability: "workspaces",
    jsonBody: true,
    request: (t) => ({
      path: "/api/v1/webhooks",
      body: { workspace_id: t.workspace.id, url: url(), events: ["post.published", "media.ready"] },
    }),
    foreign: (victim) => ({
      path: "/api/v1/webhooks",
      body: { workspace_id: victim.workspace.id, url: url(), events: ["post.published"] },
    }),
    status: 201,
    budget: { db: 2, gate: 1, hops: 2 },
  },
  {
    method: "GET",
    route: "/api/v1/webhooks/{id}",
    auth: "api",
    ability: "workspaces",
    ...onWebhook(""),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "DELETE",
    route: "/api/v1/webhooks/{id}",
    auth: "api",
    ability: "workspaces",
    ...onWebhook(""),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "POST",
    route: "/api/v1/webhooks/{id}/roll-secret",
    auth: "api",
    ability: "workspaces",
    ...onWebhook("/roll-secret"),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "POST",
    route: "/api/v1/webhooks/{id}/enable",
    auth: "api",
    ability: "workspaces",
    ...onWebhook("/enable"),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "GET",
    route: "/api/v1/webhooks/{id}/deliveries",
    auth: "api",
    ability: "workspaces",
    ...onWebhook("/deliveries"),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "POST",
    route: "/api/v1/webhooks/{id}/test",
    auth: "api",
    ability: "workspaces",
    ...onWebhook("/test"),
    status: 202,
    budget: { db: 1, gate: 1, hops: 2 },
  },
  {
    method: "POST",
    route: "/api/v1/webhooks/{id}/deliveries/{delivery}/redeliver",
    auth: "api",
    ability: "workspaces",
    request: failedDelivery,
    foreign: failedDelivery,
    status: 202,
    budget: { db: 1, gate: 1, hops: 2 },
  },
];
