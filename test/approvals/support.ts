// Approvals tests' helpers: a tenant whose workspace requires approval, a post waiting in it, and the
// approval events recorded for a post (in the outbox still, or emitted).
import { expect } from "vitest";
import { call } from "../support/client";
import { d1Of } from "../support/db";
import { createTenant, inMinutes } from "../support/seed";

export type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** A tenant (key with every ability) whose workspace's approval is `required`, set through the API. */
export async function requiredTenant(fields: Record<string, unknown> = {}) {
  const t = await createTenant(fields);
  const res = await call("PATCH", `/api/v1/workspaces/${t.workspace.id}`, {
    key: t.key,
    body: { approval: "required" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return t;
}

/** Creates a post (scheduled in an hour unless `fields` says otherwise); answers the response. */
export const postIn = (t: Tenant, fields: Record<string, unknown> = {}, key = t.key) =>
  call("POST", "/api/v1/posts", {
    key,
    body: {
      workspace_id: t.workspace.id,
      accounts: [t.accounts[0]!.id],
      content: [{ text: "For review" }],
      scheduled_at: inMinutes(60),
      ...fields,
    },
  });

/** A post waiting for approval; answers its body. */
export async function pendingPost(t: Tenant, fields: Record<string, unknown> = {}) {
  const res = await postIn(t, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.status).toBe("PENDING_APPROVAL");
  return res.body as { id: number; version: number; status: string; scheduled_at: string | null };
}

export const approve = (t: Tenant, id: number, body: Record<string, unknown>, key = t.key) =>
  call("POST", `/api/v1/posts/${id}/approve`, { key, body });

export const reject = (t: Tenant, id: number, body: Record<string, unknown>, key = t.key) =>
  call("POST", `/api/v1/posts/${id}/reject`, { key, body });

export async function reviewsOf(t: Tenant, id: number) {
  const res = await call("GET", `/api/v1/posts/${id}/reviews`, { key: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Array<{
    action: string;
    version: number;
    note: string | null;
    by: { type: string; name: string };
    at: string;
  }>;
}

/** The versions of `type` events recorded for the post, whether still in the outbox or emitted. */
export async function eventVersions(type: string, postId: number): Promise<string[]> {
  const db = d1Of(postId);
  const [outbox, events] = await Promise.all([
    db
      .prepare("SELECT version FROM outbox WHERE type = ? AND record_id = ?")
      .bind(type, postId)
      .all<{ version: string }>(),
    db
      .prepare("SELECT id FROM webhook_events WHERE id LIKE ?")
      .bind(`evt_${type}_${postId}_%`)
      .all<{ id: string }>(),
  ]);
  return [...outbox.results.map((r) => r.version), ...events.results.map((r) => r.id.split("_").at(-1)!)];
}

/** Moves a post's (and its rows') time into the past, as if it waited past its time. */
export const makeDue = (postId: number, at = Date.now() - 60_000) =>
  d1Of(postId).prepare("UPDATE posts SET scheduled_at = ? WHERE id = ?").bind(at, postId).run();
