import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { insertMedia } from "../support/db";
import { createPost as createFullPost, createKey, createTenant } from "../support/seed";

const createPost = async (t: Awaited<ReturnType<typeof createTenant>>) =>
  (await createFullPost(t, { content: [{ text: "Mine" }] })).id as number;

describe("post tenancy", () => {
  it("answers 404 for another tenant's post on get, update and delete, and changes nothing", async () => {
    const alice = await createTenant();
    const mallory = await createTenant();
    const id = await createPost(alice);
    for (const [method, body] of [["GET"], ["PUT", { content: [{ text: "pwned" }] }], ["DELETE"]] as const) {
      const res = await call(method, `/api/v1/posts/${id}`, { key: mallory.key, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Post not found." });
    }
    const still = await call("GET", `/api/v1/posts/${id}`, { key: alice.key });
    expect(still.body.content[0].text).toBe("Mine");
  });

  it("404 when creating in a workspace the user cannot access", async () => {
    const alice = await createTenant();
    const mallory = await createTenant();
    const res = await call("POST", "/api/v1/posts", {
      key: mallory.key,
      body: { workspace_id: alice.workspace.id, accounts: [alice.accounts[0]!.id], content: [{ text: "x" }] },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Workspace not found." });
  });

  it("422 naming foreign accounts, labels and media, on create and on update", async () => {
    const alice = await createTenant();
    const mallory = await createTenant();
    const foreignLabel = await call("POST", "/api/v1/labels", {
      key: alice.key,
      body: { workspace_id: alice.workspace.id, name: "secret", color: "#000000" },
    });
    const foreignMedia = await insertMedia(alice.workspace.id);
    const body = {
      workspace_id: mallory.workspace.id,
      accounts: [mallory.accounts[0]!.id, alice.accounts[0]!.id],
      content: [{ text: "x", media: [foreignMedia] }],
      labels: [foreignLabel.body.id],
    };
    const res = await call("POST", "/api/v1/posts", { key: mallory.key, body });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      "accounts.1": ["The selected accounts.1 is invalid."],
      "labels.0": ["The selected labels.0 is invalid."],
      "content.0.media.0": ["The selected content.0.media.0 is invalid."],
    });
    const id = await createPost(mallory);
    const update = await call("PUT", `/api/v1/posts/${id}`, {
      key: mallory.key,
      body: { accounts: [alice.accounts[1]!.id], labels: [foreignLabel.body.id] },
    });
    expect(update.status).toBe(422);
    expect(Object.keys(update.body.errors).sort()).toEqual(["accounts.0", "labels.0"]);
  });

  it("a member of a shared workspace sees and edits its posts", async () => {
    const alice = await createTenant();
    const bob = await createTenant();
    await call("POST", `/admin/v1/workspaces/${alice.workspace.id}/members`, {
      key: "test-admin-token",
      body: { user_id: bob.user.id },
    });
    const id = await createPost(alice);
    const edit = await call("PUT", `/api/v1/posts/${id}`, {
      key: bob.key,
      body: { content: [{ text: "by bob" }] },
    });
    expect(edit.status).toBe(200);
    const list = await call("GET", "/api/v1/posts", { key: bob.key });
    expect(list.body.data.map((p: { id: number }) => p.id)).toContain(id);
  });
});

describe("post abilities", () => {
  it("403 on every posts route without the posts ability", async () => {
    const t = await createTenant();
    const { key } = await createKey(t.user.id, ["workspaces", "accounts", "labels"]);
    const id = await createPost(t);
    for (const [method, path] of [
      ["GET", "/api/v1/posts"],
      ["POST", "/api/v1/posts"],
      ["GET", `/api/v1/posts/${id}`],
      ["PUT", `/api/v1/posts/${id}`],
      ["DELETE", `/api/v1/posts/${id}`],
    ] as const) {
      const res = await call(method, path, {
        key,
        body: method === "POST" || method === "PUT" ? {} : undefined,
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "Forbidden - Insufficient permissions", ability: "posts" });
    }
  });
});
