// GET /api/v1/me: any key, its user, abilities, expiry, subscription and the rate window it spends.
import { describe, expect, it } from "vitest";
import { admin, call } from "../support/client";
import { createKey, createTenant } from "../support/seed";

describe("GET /api/v1/me", () => {
  it("answers the key's user, abilities, expiry and the window, counted", async () => {
    const t = await createTenant();
    const res = await call("GET", "/api/v1/me", { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user: { id: t.user.id, name: "Test User" },
      subscription: "active",
      key: {
        id: t.keyId,
        abilities: ["posts", "workspaces", "accounts", "labels", "approvals"],
        expires_at: null,
        has_signing_secret: false,
      },
      rate_limit: { limit: 60, remaining: 59 },
    });
    expect(t.key.startsWith(res.body.key.prefix)).toBe(true);
    expect(Date.parse(res.body.rate_limit.reset_at)).toBeGreaterThan(Date.now());
    expect(res.headers.get("X-RateLimit-Remaining")).toBe("59");
    const again = await call("GET", "/api/v1/me", { key: t.key });
    expect(again.body.rate_limit.remaining).toBe(58);
  });

  it("needs no ability, and reports the expiry", async () => {
    const t = await createTenant();
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const { key } = await createKey(t.user.id, [], expires);
    const res = await call("GET", "/api/v1/me", { key });
    expect(res.status).toBe(200);
    expect(res.body.key.abilities).toEqual([]);
    expect(Date.parse(res.body.key.expires_at)).toBe(Date.parse(expires));
  });

  it("reports the subscription the operator set", async () => {
    const t = await createTenant();
    expect((await admin("PUT", `/users/${t.user.id}/subscription`, { status: "canceled" })).status).toBe(200);
    const res = await call("GET", "/api/v1/me", { key: t.key });
    expect(res.body.subscription).toBe("canceled");
  });

  it("is 401 without a key", async () => {
    const res = await call("GET", "/api/v1/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Unauthenticated." });
  });
});
