// A post may target 50 accounts: its platform rows are inserted in chunks measured on drizzle's own SQL
// (which binds the JS defaults of columns left out, too), never over D1's 100 bound parameters.
import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { createAccount, createTenant } from "../support/seed";

describe("a post to many accounts", () => {
  it("creates 50 platform rows with labels and media, and updates them", async () => {
    const t = await createTenant();
    const accounts = [...t.accounts];
    while (accounts.length < 50) accounts.push(await createAccount(t.workspace.id, "threads"));
    const labels = [];
    for (let i = 0; i < 50; i++) {
      const label = await call("POST", "/api/v1/labels", {
        key: t.key,
        body: { workspace_id: t.workspace.id, name: `l${i}`, color: "#000000" },
      });
      labels.push(label.body.id);
      if (i === 45) break; // stay under the rate limit with the calls below
    }
    const res = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        accounts: accounts.map((a) => a.id),
        content: [{ text: "to everyone" }],
        labels,
      },
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect(res.body.platforms).toHaveLength(50);
    expect(res.body.labels).toHaveLength(labels.length);
    const update = await call("PUT", `/api/v1/posts/${res.body.id}`, {
      key: t.key,
      body: { accounts: accounts.slice(0, 30).map((a) => a.id), labels: labels.slice(0, 40) },
    });
    expect(update.status).toBe(200);
    expect(update.body.platforms).toHaveLength(30);
    // From two accounts to fifty: 48 rows inserted by an update (the post's id is bound there).
    const small = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        accounts: [accounts[0]!.id, accounts[1]!.id],
        content: [{ text: "x" }],
      },
    });
    const grown = await call("PUT", `/api/v1/posts/${small.body.id}`, {
      key: t.key,
      body: { accounts: accounts.map((a) => a.id) },
    });
    expect(grown.status, JSON.stringify(grown.body).slice(0, 300)).toBe(200);
    expect(grown.body.platforms).toHaveLength(50);
  });
});
