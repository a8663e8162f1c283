import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { createKey, createTenant } from "../support/seed";

describe("folders", () => {
  it("creates a folder with the default color and returns the whole record", async () => {
    const t = await createTenant({ timezone: "Europe/Paris" });
    const res = await call("POST", "/api/v1/folders", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "Brand" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      workspace_id: t.workspace.id,
      name: "Brand",
      color: "#4F46E5",
      parent_id: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/),
      updated_at: expect.stringMatching(/\+0[12]:00$/),
    });
  });

  it("nests a folder under a parent of the same workspace and lists them", async () => {
    const t = await createTenant();
    const parent = await call("POST", "/api/v1/folders", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "A" },
    });
    const child = await call("POST", "/api/v1/folders", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "B", color: "#FF00FF", parent_id: parent.body.id },
    });
    expect(child.status).toBe(201);
    expect(child.body).toMatchObject({ parent_id: parent.body.id, color: "#FF00FF" });
    const all = await call("GET", `/api/v1/folders?workspace_id=${t.workspace.id}`, { key: t.key });
    expect(all.body.data.map((f: { name: string }) => f.name)).toEqual(["A", "B"]);
    const roots = await call("GET", `/api/v1/folders?workspace_id=${t.workspace.id}&parent_id=root`, {
      key: t.key,
    });
    expect(roots.body.data.map((f: { name: string }) => f.name)).toEqual(["A"]);
    const children = await call(
      "GET",
      `/api/v1/folders?workspace_id=${t.workspace.id}&parent_id=${parent.body.id}`,
      {
        key: t.key,
      },
    );
    expect(children.body.data.map((f: { name: string }) => f.name)).toEqual(["B"]);
  });

  it("422 for a parent of another workspace or an absent parent; 404 for a foreign workspace", async () => {
    const alice = await createTenant();
    const mallory = await createTenant();
    const foreign = await call("POST", "/api/v1/folders", {
      key: alice.key,
      body: { workspace_id: alice.workspace.id, name: "A" },
    });
    const crossParent = await call("POST", "/api/v1/folders", {
      key: mallory.key,
      body: { workspace_id: mallory.workspace.id, name: "B", parent_id: foreign.body.id },
    });
    expect(crossParent.status).toBe(422);
    expect(crossParent.body.errors).toEqual({ parent_id: ["The selected parent id is invalid."] });
    const absent = await call("POST", "/api/v1/folders", {
      key: mallory.key,
      body: { workspace_id: mallory.workspace.id, name: "B", parent_id: 99_999_999 },
    });
    expect(absent.status).toBe(422);
    const foreignWorkspace = await call("POST", "/api/v1/folders", {
      key: mallory.key,
      body: { workspace_id: alice.workspace.id, name: "B" },
    });
    expect(foreignWorkspace.status).toBe(404);
    expect(
      (await call("GET", `/api/v1/folders?workspace_id=${alice.workspace.id}`, { key: mallory.key })).status,
    ).toBe(404);
  });

  it.each([
    [{ name: "" }, "name"],
    [{ name: "x".repeat(256) }, "name"],
    [{ color: "blue" }, "color"],
    [{ parent_id: "1" }, "parent_id"],
    [{ workspace_id: null }, "workspace_id"],
  ])("422 for %j", async (patch, field) => {
    const t = await createTenant();
    const res = await call("POST", "/api/v1/folders", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "ok", ...patch },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it("422 for a missing or non-numeric workspace_id on list", async () => {
    const t = await createTenant();
    expect((await call("GET", "/api/v1/folders", { key: t.key })).status).toBe(422);
    expect((await call("GET", "/api/v1/folders?workspace_id=x", { key: t.key })).status).toBe(422);
  });

  it("requires the posts ability", async () => {
    const t = await createTenant();
    const { key } = await createKey(t.user.id, ["labels", "workspaces", "accounts"]);
    expect(
      (await call("POST", "/api/v1/folders", { key, body: { workspace_id: t.workspace.id, name: "x" } }))
        .status,
    ).toBe(403);
  });
});
