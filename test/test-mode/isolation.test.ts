// Test mode beside live mode (ARCHITECTURE "Test mode"): one user, a live and a test workspace, a key of
// each mode. Each key sees only its own mode's workspaces and what they hold; the other mode's ids are
// the same 404 as absent ones; the rate window and the keys' prefixes are per mode; the database keeps a
// workspace's mode fixed and copies it to memberships and accounts.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call } from "../support/client";
import { createAccount, createKeyIn, createUser, createWorkspace } from "../support/seed";

/** A user with a workspace, an account, a label and a post in each mode, and a key of each mode. */
async function twoModes() {
  const user = await createUser();
  const side = async (mode: "live" | "test") => {
    const workspace = await createWorkspace(user.id, { mode });
    const account = await createAccount(workspace.id, "twitter");
    const { key, id: keyId } = await createKeyIn(user.id, mode);
    const label = await call("POST", "/api/v1/labels", {
      key,
      body: { workspace_id: workspace.id, name: `${mode} label`, color: "#112233" },
    });
    expect(label.status).toBe(201);
    const post = await call("POST", "/api/v1/posts", {
      key,
      body: { workspace_id: workspace.id, accounts: [account.id], content: [{ text: `${mode} post` }] },
    });
    expect(post.status).toBe(201);
    return { workspace, account, key, keyId, label: label.body, post: post.body };
  };
  return { user, live: await side("live"), test: await side("test") };
}

describe("test mode beside live mode", () => {
  it("gives test keys the spk_test_ prefix, keeps it when rolled, and shows each key's mode", async () => {
    const user = await createUser();
    const test = await createKeyIn(user.id, "test");
    const live = await createKeyIn(user.id, "live");
    expect(test.key).toMatch(/^spk_test_[A-Za-z0-9_-]{43}$/);
    expect(live.key).toMatch(/^spk_[A-Za-z0-9_-]{43}$/);
    const rolled = await admin<{ key: string }>("POST", `/api-keys/${test.id}/roll`);
    expect(rolled.status).toBe(201);
    expect(rolled.body.key).toMatch(/^spk_test_/);
    const me = await call("GET", "/api/v1/me", { key: rolled.body.key });
    expect(me.status).toBe(200);
    const listed = await admin<{ data: { prefix: string; mode: string }[] }>(
      "GET",
      `/users/${user.id}/api-keys`,
    );
    expect(listed.body.data.map((k) => k.mode).sort()).toEqual(["live", "test"]);
    expect(listed.body.data.find((k) => k.mode === "test")?.prefix).toMatch(/^spk_test_/);
    expect(listed.body.data.find((k) => k.mode === "live")?.prefix).toBe(live.key.slice(0, 12));
  });

  it("lists only the key's own mode, and answers the other mode's ids as absent ones", async () => {
    const { live, test } = await twoModes();
    for (const [mine, other] of [
      [live, test],
      [test, live],
    ] as const) {
      const workspaces = await call("GET", "/api/v1/workspaces", { key: mine.key });
      expect(workspaces.body.data.map((w: { id: number; mode: string }) => [w.id, w.mode])).toEqual([
        [mine.workspace.id, mine === live ? "live" : "test"],
      ]);
      const posts = await call("GET", "/api/v1/posts", { key: mine.key });
      expect(posts.body.data.map((p: { id: number }) => p.id)).toEqual([mine.post.id]);
      const byWorkspace = await call("GET", `/api/v1/posts?workspace_id=${other.workspace.id}`, {
        key: mine.key,
      });
      expect(byWorkspace.body.data).toEqual([]);
      const absent = 9_000_000_000;
      for (const [method, path, body] of [
        ["GET", "/api/v1/posts/{id}", undefined, other.post.id],
        ["PUT", "/api/v1/posts/{id}", { content: [{ text: "x" }] }, other.post.id],
        ["DELETE", "/api/v1/posts/{id}", undefined, other.post.id],
        ["GET", "/api/v1/accounts/{id}", undefined, other.account.id],
        ["DELETE", "/api/v1/accounts/{id}", undefined, other.account.id],
        ["PUT", "/api/v1/labels/{id}", { name: "x", color: "#000000" }, other.label.id],
        ["DELETE", "/api/v1/labels/{id}", undefined, other.label.id],
      ].map(([m, p, b, id]) => [m, (p as string).replace("{id}", String(id)), b, p, b] as const)) {
        const foreign = await call(method, path, { key: mine.key, body });
        const missing = await call(method, path.replace(/\d+$/, String(absent)), { key: mine.key, body });
        expect([method, path, foreign.status]).toEqual([method, path, 404]);
        expect(foreign.body).toEqual(missing.body);
      }
      // A post of this mode cannot name the other mode's workspace: refused as an absent one.
      const create = (workspaceId: number) =>
        call("POST", "/api/v1/posts", {
          key: mine.key,
          body: { workspace_id: workspaceId, accounts: [other.account.id], content: [{ text: "x" }] },
        });
      const [cross, nowhere] = [await create(other.workspace.id), await create(absent)];
      expect(cross.status).toBe(404);
      expect(cross.body).toEqual(nowhere.body);
    }
    // Nothing was deleted or changed across the modes.
    expect((await call("GET", `/api/v1/posts/${test.post.id}`, { key: test.key })).status).toBe(200);
    expect((await call("GET", `/api/v1/posts/${live.post.id}`, { key: live.key })).status).toBe(200);
  });

  it("counts the rate limit per mode: test traffic never spends the live window", async () => {
    const user = await createUser();
    const live = await createKeyIn(user.id, "live");
    const test = await createKeyIn(user.id, "test");
    const remaining = async (key: string) =>
      Number((await call("GET", "/api/v1/me", { key })).headers.get("x-ratelimit-remaining"));
    const before = await remaining(live.key);
    await Promise.all(Array.from({ length: 5 }, () => remaining(test.key)));
    const testNow = await remaining(test.key);
    expect(testNow).toBe(60 - 6);
    expect(await remaining(live.key)).toBe(before - 1);
  });

  it("keeps a workspace's mode fixed and copies it to its memberships and accounts", async () => {
    const user = await createUser();
    const workspace = await createWorkspace(user.id, { mode: "test" });
    const account = await createAccount(workspace.id, "twitter");
    const member = await createUser();
    expect((await admin("POST", `/workspaces/${workspace.id}/members`, { user_id: member.id })).status).toBe(
      201,
    );
    const memberships = await env.DB.prepare("SELECT mode FROM workspace_members WHERE workspace_id = ?")
      .bind(workspace.id)
      .all<{ mode: string }>();
    expect(memberships.results.map((r) => r.mode)).toEqual(["test", "test"]);
    const stored = await env.DB.prepare("SELECT mode FROM accounts WHERE id = ?").bind(account.id).first();
    expect(stored).toEqual({ mode: "test" });
    await expect(
      env.DB.prepare("UPDATE workspaces SET mode = 'live' WHERE id = ?").bind(workspace.id).run(),
    ).rejects.toThrow(/mode is fixed/);
    const bad = await admin("POST", "/workspaces", { user_id: user.id, name: "x", mode: "staging" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(["mode"]);
  });
});
