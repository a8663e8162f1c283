import { describe, expect, it } from "vitest";
import { admin, call, serverTiming } from "../support/client";
import { createAccount, createTenant, createWorkspace } from "../support/seed";

describe("GET /api/v1/accounts", () => {
  it("lists the accounts of the user's workspaces in list form", async () => {
    const tenant = await createTenant();
    const second = await createWorkspace(tenant.user.id);
    const tiktok = await createAccount(second.id, "tiktok");
    const res = await call("GET", "/api/v1/accounts", { key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body.data.map((a: { id: number }) => a.id)).toEqual([
      ...tenant.accounts.map((a) => a.id),
      tiktok.id,
    ]);
    const last = res.body.data.at(-1);
    expect(last).toEqual({
      id: tiktok.id,
      platform: "tiktok",
      username: expect.any(String),
      name: "Account Name",
      avatar: "https://cdn.example.test/avatar.png",
      workspace_id: second.id,
      has_expired: false,
      health: { status: "ok", token_expires_at: null, last_refreshed_at: null, last_error: null },
    });
  });

  it("never lists the accounts of a workspace the user is not a member of", async () => {
    const alice = await createTenant();
    const bob = await createTenant();
    const res = await call("GET", "/api/v1/accounts", { key: alice.key });
    const ids = res.body.data.map((a: { id: number }) => a.id);
    for (const account of bob.accounts) expect(ids).not.toContain(account.id);
    expect(res.body.data.every((a: { workspace_id: number }) => a.workspace_id === alice.workspace.id)).toBe(
      true,
    );
  });

  it("shows a shared workspace's accounts to a member added later", async () => {
    const alice = await createTenant();
    const bob = await createTenant();
    const before = await call("GET", "/api/v1/accounts", { key: bob.key });
    expect(before.body.data).toHaveLength(2);
    expect(
      (await admin("POST", `/workspaces/${alice.workspace.id}/members`, { user_id: bob.user.id })).status,
    ).toBe(201);
    const after = await call("GET", "/api/v1/accounts", { key: bob.key });
    expect(after.body.data).toHaveLength(4);
  });

  it("costs at most two D1 round trips and one Durable Object call", async () => {
    const tenant = await createTenant();
    const res = await call("GET", "/api/v1/accounts", { key: tenant.key });
    const timing = serverTiming(res.headers);
    expect(timing.dbTrips).toBeGreaterThanOrEqual(1);
    expect(timing.dbTrips).toBeLessThanOrEqual(2);
    expect(timing.gateCalls).toBe(1);
  });
});
