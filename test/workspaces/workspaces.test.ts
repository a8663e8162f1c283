import { describe, expect, it } from "vitest";
import { call, serverTiming } from "../support/client";
import {
  createAccount,
  createKey,
  createPost,
  createTenant,
  createUser,
  createWorkspace,
} from "../support/seed";

describe("GET /api/v1/workspaces", () => {
  it("lists the user's workspaces with their accounts in short form", async () => {
    const tenant = await createTenant({ timezone: "Europe/Paris", type: "ORGANIZATION", language: "fr" });
    const res = await call("GET", "/api/v1/workspaces", { key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [workspace] = res.body.data;
    expect(Object.keys(workspace).sort()).toEqual(
      ["accounts", "approval", "id", "language", "logo", "mode", "name", "slug", "timezone", "type"].sort(),
    );
    expect(workspace).toMatchObject({
      id: tenant.workspace.id,
      type: "ORGANIZATION",
      timezone: "Europe/Paris",
      language: "fr",
      logo: null,
    });
    expect(workspace.accounts.map((a: { id: number }) => a.id)).toEqual(tenant.accounts.map((a) => a.id));
    for (const account of workspace.accounts) {
      expect(Object.keys(account).sort()).toEqual(["avatar", "id", "name", "platform", "username"]);
    }
  });

  it("never shows another user's workspace, and shows a shared one to every member", async () => {
    const alice = await createTenant();
    const bob = await createTenant();
    const shared = await createWorkspace(alice.user.id, { name: "Shared" });
    await createAccount(shared.id, "youtube");
    const { call: _ } = { call };
    const member = await call("POST", `/admin/v1/workspaces/${shared.id}/members`, {
      key: "test-admin-token",
      body: { user_id: bob.user.id },
    });
    expect(member.status).toBe(201);

    const aliceView = await call("GET", "/api/v1/workspaces", { key: alice.key });
    const bobView = await call("GET", "/api/v1/workspaces", { key: bob.key });
    const ids = (res: typeof aliceView) => res.body.data.map((w: { id: number }) => w.id);
    expect(ids(aliceView)).toEqual([alice.workspace.id, shared.id]);
    expect(ids(bobView)).toEqual([bob.workspace.id, shared.id]);
    expect(ids(aliceView)).not.toContain(bob.workspace.id);
  });

  it("answers an empty list for a user with no workspace", async () => {
    const user = await createUser();
    const { key } = await createKey(user.id);
    const res = await call("GET", "/api/v1/workspaces", { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });

  it("costs one auth lookup plus one batch and one Durable Object call", async () => {
    const tenant = await createTenant();
    const res = await call("GET", "/api/v1/workspaces", { key: tenant.key });
    const timing = serverTiming(res.headers);
    expect(timing.dbTrips).toBeLessThanOrEqual(2);
    expect(timing.gateCalls).toBe(1);
  });
});

describe("PATCH /api/v1/workspaces/{id} timezone", () => {
  it("changes the zone times are written in, moves no instant, and refuses a zone the runtime does not know", async () => {
    const t = await createTenant({ timezone: "Europe/Paris" });
    const post = await createPost(t, { scheduled_at: "2031-01-06T09:00:00+01:00" });
    expect(post.scheduled_at).toBe("2031-01-06T09:00:00+01:00");
    const res = await call("PATCH", `/api/v1/workspaces/${t.workspace.id}`, {
      key: t.key,
      body: { timezone: "Europe/London" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timezone: "Europe/London", approval: "none" });
    const after = await call("GET", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(after.body.scheduled_at).toBe("2031-01-06T08:00:00+00:00");
    const bad = await call("PATCH", `/api/v1/workspaces/${t.workspace.id}`, {
      key: t.key,
      body: { timezone: "Mars/Olympus_Mons" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.timezone).toEqual([
      "The timezone must be a valid IANA time zone such as Europe/Paris.",
    ]);
    const list = await call("GET", "/api/v1/workspaces", { key: t.key });
    expect(list.body.data[0].timezone).toBe("Europe/London");
  });
});
