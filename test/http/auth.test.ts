import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { createKey, createTenant, createUser } from "../support/seed";

const ENDPOINTS: Array<[path: string, ability: string]> = [
  ["/api/v1/workspaces", "workspaces"],
  ["/api/v1/accounts", "accounts"],
];

describe("API key authentication", () => {
  it.each(ENDPOINTS)("401 Unauthenticated. without a key on %s", async (path) => {
    const res = await call("GET", path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Unauthenticated." });
  });

  it.each([
    ["an unknown key", "Bearer spk_not-a-real-key"],
    ["a non-bearer scheme", "Basic dXNlcjpwYXNz"],
    ["an empty bearer", "Bearer "],
    ["a huge header", `Bearer ${"x".repeat(10_000)}`],
  ])("401 Unauthenticated. for %s", async (_, authorization) => {
    const res = await call("GET", "/api/v1/workspaces", { headers: { authorization } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Unauthenticated." });
  });

  it("401 Expired for an expired key, while a key expiring later works", async () => {
    const user = await createUser();
    const expired = await createKey(user.id, ["workspaces"], new Date(Date.now() - 1000).toISOString());
    const later = await createKey(user.id, ["workspaces"], new Date(Date.now() + 3_600_000).toISOString());
    const res = await call("GET", "/api/v1/workspaces", { key: expired.key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Expired" });
    expect((await call("GET", "/api/v1/workspaces", { key: later.key })).status).toBe(200);
  });

  it("accepts the Bearer scheme case-insensitively", async () => {
    const tenant = await createTenant();
    const res = await call("GET", "/api/v1/workspaces", {
      headers: { authorization: `bearer ${tenant.key}` },
    });
    expect(res.status).toBe(200);
  });

  it("stores only a SHA-256 hash of the key, never the plaintext", async () => {
    const tenant = await createTenant();
    expect(tenant.key).toMatch(/^spk_[A-Za-z0-9_-]{43}$/);
    const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?")
      .bind(tenant.keyId)
      .first<Record<string, unknown>>();
    expect(row).not.toBeNull();
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(tenant.key));
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    expect(row!.key_hash).toBe(hex);
    for (const value of Object.values(row!)) expect(String(value)).not.toContain(tenant.key);
  });
});

describe("abilities", () => {
  it.each(ENDPOINTS)("403 on %s for a key without the %s ability", async (path, ability) => {
    const user = await createUser();
    const others = ["posts", "workspaces", "accounts", "labels"].filter((a) => a !== ability);
    const { key } = await createKey(user.id, others);
    const res = await call("GET", path, { key });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Forbidden - Insufficient permissions", ability });
  });

  it.each(ENDPOINTS)("200 on %s for a key with only the %s ability", async (path, ability) => {
    const user = await createUser();
    const { key } = await createKey(user.id, [ability]);
    expect((await call("GET", path, { key })).status).toBe(200);
  });

  it("403 for a key with no abilities at all", async () => {
    const user = await createUser();
    const { key } = await createKey(user.id, []);
    expect((await call("GET", "/api/v1/accounts", { key })).status).toBe(403);
  });
});

describe("unknown routes", () => {
  it("answers JSON 404 for an unknown path", async () => {
    const res = await call("GET", "/api/v1/nope");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Route not found." });
  });
});
