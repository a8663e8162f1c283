// Fixtures of the analytics tests: platform rows put into a given state with SQL (so the tests do not
// depend on the publishing engine), subscriptions through the operator API, and the sandbox's view of
// a published post.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { Platform } from "../../src/db/enums";
import { publishingAdapter } from "../../src/platforms";
import { admin, call } from "../support/client";
import type { Tenant } from "../support/contract";
import { d1Of } from "../support/db";
import { createPost } from "../support/seed";

export type Metrics = {
  comments: number;
  likes: number;
  shares: number;
  impressions: number;
  quotes: number;
  saves: number;
  engagement_rate: number;
};

export const metrics = (fields: Partial<Metrics> = {}): Metrics => ({
  comments: 0,
  likes: 0,
  shares: 0,
  impressions: 0,
  quotes: 0,
  saves: 0,
  engagement_rate: 0,
  ...fields,
});

/**
 * Sets the user's subscription; `null` removes it altogether (a user created before new users started
 * `active`, or whose row an operator deleted): no row is no subscription.
 */
export async function subscribe(userId: number, status: string | null = "active") {
  if (status === null) {
    await d1Of(userId).prepare("DELETE FROM subscriptions WHERE user_id = ?").bind(userId).run();
    return;
  }
  const res = await admin("PUT", `/users/${userId}/subscription`, { status });
  expect(res.status).toBe(200);
}

/** The platform row ids of a post, in account order. */
export async function rowIds(postId: number): Promise<number[]> {
  const { results } = await d1Of(postId)
    .prepare("SELECT id FROM post_platforms WHERE post_id = ? ORDER BY id")
    .bind(postId)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

export type RowState = {
  status?: string;
  analytics?: Record<string, number>;
  platform_post_id?: string | null;
  post_url?: string | null;
  posted_on?: number[];
  analytics_synced_at?: number | null;
  plugged_at?: number | null;
  plug_post_id?: string | null;
  awaiting_public_id?: number;
};

/** Writes the given columns of a platform row (JSON columns serialized). */
export async function setRow(rowId: number, state: RowState) {
  const entries = Object.entries(state);
  const assignments = entries.map(([column]) => `${column} = ?`).join(", ");
  const values = entries.map(([, value]) =>
    value !== null && typeof value === "object" ? JSON.stringify(value) : value,
  );
  await d1Of(rowId)
    .prepare(`UPDATE post_platforms SET ${assignments} WHERE id = ?`)
    .bind(...values, rowId)
    .run();
}

export async function readRow(rowId: number) {
  const row = await d1Of(rowId)
    .prepare("SELECT * FROM post_platforms WHERE id = ?")
    .bind(rowId)
    .first<Record<string, any>>();
  return { ...row!, analytics: JSON.parse(row!.analytics as string) } as Record<string, any>;
}

/** A draft post on the given accounts (default: the tenant's first), with its row ids. */
export async function postOn(
  t: Tenant,
  accountIds = [t.accounts[0]!.id],
  fields: Record<string, unknown> = {},
) {
  const post = await createPost(t, { accounts: accountIds, ...fields });
  return { id: post.id as number, rows: await rowIds(post.id) };
}

let fakeId = 1_000_000;
/** Marks a row PUBLISHED with the given metrics and a made-up platform post (not on the sandbox). */
export async function publishFake(rowId: number, analytics: Record<string, number>, platformPostId?: string) {
  const id = platformPostId ?? String(fakeId++);
  await setRow(rowId, {
    status: "PUBLISHED",
    analytics,
    platform_post_id: id,
    post_url: `https://platform.example/${id}`,
    posted_on: [Date.now()],
  });
}

export const getJson = (t: Tenant, path: string) => call("GET", path, { key: t.key });

export type SandboxAccount = { id: number; platform: Platform; username: string };

/** The tenant's account as a sandbox account (its handle is its username). */
export const sandboxAccount = (t: Tenant, index = 0) => t.accounts[index] as unknown as SandboxAccount;

export const authOf = (account: SandboxAccount) => ({
  handle: account.username,
  platformUserId: null,
  accessToken: null,
});

/**
 * Publishes the row's post on the sandbox through the adapter (not the engine) and marks the row (and
 * its post) PUBLISHED with the platform's id and URL, as the engine would.
 */
export async function publishOnSandbox(rowId: number, account: SandboxAccount, text = "Hello") {
  const published = await publishingAdapter(env, account.platform, "live").publish(authOf(account), {
    items: [{ text, media: [] }],
    settings: {},
    fingerprint: `sp-${rowId}-1`,
  });
  await setRow(rowId, {
    status: "PUBLISHED",
    platform_post_id: published.id,
    post_url: published.url,
    posted_on: [Date.now()],
  });
  await d1Of(rowId)
    .prepare(
      "UPDATE posts SET status = 'PUBLISHED' WHERE id = (SELECT post_id FROM post_platforms WHERE id = ?)",
    )
    .bind(rowId)
    .run();
  return published;
}

/** The sandbox's JSON view of a published post: `{id, handle, text, media, replies, published_at}`. */
export async function sandboxPost(url: string | null) {
  expect(url).not.toBeNull();
  const res = await call("GET", new URL(url!).pathname, { headers: { accept: "application/json" } });
  expect(res.status).toBe(200);
  return res.body as { id: string; replies: Array<{ id: string; text: string }> };
}
