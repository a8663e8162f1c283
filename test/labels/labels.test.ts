import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { createKey, createTenant, createWorkspace } from "../support/seed";

describe("labels", () => {
  it("creates (201), lists, updates and deletes a label with the documented shape", async () => {
    const t = await createTenant({ timezone: "Asia/Tokyo" });
    const created = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "Launch", color: "#4F46E5" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: "Launch",
      color: "#4F46E5",
      workspace: {
        id: t.workspace.id,
        name: expect.any(String),
        slug: expect.any(String),
        type: "PERSONAL",
        logo: null,
        timezone: "Asia/Tokyo",
        language: "en",
        mode: "live",
        approval: "none",
      },
      created_at: expect.stringMatching(/\+09:00$/),
      updated_at: expect.stringMatching(/\+09:00$/),
    });
    const id = created.body.id;
    const updated = await call("PUT", `/api/v1/labels/${id}`, {
      key: t.key,
      body: { name: "Promo", color: "#00aa00" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id,
      name: "Promo",
      color: "#00aa00",
      workspace: { id: t.workspace.id },
    });

    const list = await call("GET", `/api/v1/labels?workspace_id=${t.workspace.id}`, { key: t.key });
    expect(list.body.data).toEqual([updated.body]);

    const deleted = await call("DELETE", `/api/v1/labels/${id}`, { key: t.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: "Label deleted successfully." });
    expect((await call("DELETE", `/api/v1/labels/${id}`, { key: t.key })).status).toBe(404);
  });

  it("lists the labels of every accessible workspace without a filter", async () => {
    const t = await createTenant();
    const second = await createWorkspace(t.user.id);
    for (const workspaceId of [t.workspace.id, second.id]) {
      await call("POST", "/api/v1/labels", {
        key: t.key,
        body: { workspace_id: workspaceId, name: "x", color: "#111111" },
      });
    }
    const all = await call("GET", "/api/v1/labels", { key: t.key });
    expect(all.body.data.map((l: { workspace: { id: number } }) => l.workspace.id)).toEqual([
      t.workspace.id,
      second.id,
    ]);
  });

  it.each([
    [{ name: "" }, "name", "The name field is required."],
    [{ name: "x".repeat(256) }, "name", "The name field must not be greater than 255 characters."],
    [{ name: 7 }, "name", "The name field must be a string."],
    [{ color: "red" }, "color", "The color must be a hex color such as #4F46E5."],
    [{ color: "#12345" }, "color", "The color must be a hex color such as #4F46E5."],
    [{ color: undefined }, "color", "The color field is required."],
    [{ workspace_id: "abc" }, "workspace_id", "The workspace id field must be a positive integer."],
  ])("422 for %j", async (patch, field, message) => {
    const t = await createTenant();
    const body = { workspace_id: t.workspace.id, name: "ok", color: "#000000", ...patch };
    const res = await call("POST", "/api/v1/labels", { key: t.key, body });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ [field]: [message] });
  });

  it("accepts a name of exactly 255 characters", async () => {
    const t = await createTenant();
    const res = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "x".repeat(255), color: "#000000" },
    });
    expect(res.status).toBe(201);
  });

  it("requires both name and color on update", async () => {
    const t = await createTenant();
    const created = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "a", color: "#000000" },
    });
    const res = await call("PUT", `/api/v1/labels/${created.body.id}`, { key: t.key, body: { name: "b" } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ color: ["The color field is required."] });
  });

  it("hides other tenants' labels and workspaces (404) and checks ids (422)", async () => {
    const alice = await createTenant();
    const mallory = await createTenant();
    const label = await call("POST", "/api/v1/labels", {
      key: alice.key,
      body: { workspace_id: alice.workspace.id, name: "private", color: "#000000" },
    });
    const create = await call("POST", "/api/v1/labels", {
      key: mallory.key,
      body: { workspace_id: alice.workspace.id, name: "x", color: "#000000" },
    });
    expect(create.status).toBe(404);
    expect(create.body).toEqual({ message: "Workspace not found." });
    const update = await call("PUT", `/api/v1/labels/${label.body.id}`, {
      key: mallory.key,
      body: { name: "x", color: "#000000" },
    });
    expect(update.status).toBe(404);
    expect(update.body).toEqual({ message: "Label not found." });
    expect((await call("DELETE", `/api/v1/labels/${label.body.id}`, { key: mallory.key })).status).toBe(404);
    expect(
      (await call("GET", `/api/v1/labels?workspace_id=${alice.workspace.id}`, { key: mallory.key })).status,
    ).toBe(404);
    expect((await call("DELETE", "/api/v1/labels/abc", { key: mallory.key })).status).toBe(422);
    const list = await call("GET", "/api/v1/labels", { key: mallory.key });
    expect(list.body.data).toEqual([]);
    const intact = await call("GET", "/api/v1/labels", { key: alice.key });
    expect(intact.body.data[0].name).toBe("private");
  });

  it("requires the labels ability", async () => {
    const t = await createTenant();
    const { key } = await createKey(t.user.id, ["posts"]);
    expect((await call("GET", "/api/v1/labels", { key })).status).toBe(403);
    expect(
      (
        await call("POST", "/api/v1/labels", {
          key,
          body: { workspace_id: t.workspace.id, name: "x", color: "#000000" },
        })
      ).status,
    ).toBe(403);
  });

  it("removes a deleted label from the posts that carried it", async () => {
    const t = await createTenant();
    const label = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "temp", color: "#000000" },
    });
    const post = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        accounts: [t.accounts[0]!.id],
        content: [{ text: "x" }],
        labels: [label.body.id],
      },
    });
    await call("DELETE", `/api/v1/labels/${label.body.id}`, { key: t.key });
    const after = await call("GET", `/api/v1/posts/${post.body.id}`, { key: t.key });
    expect(after.body.labels).toEqual([]);
  });
});
