import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { createKey, createTenant } from "../support/seed";

const burst = (key: string, n: number) =>
  Promise.all(Array.from({ length: n }, () => call("GET", "/api/v1/workspaces", { key })));

describe("per-user rate limit", () => {
  it("lets exactly 60 of 100 parallel requests through and refuses 40 with 429", async () => {
    const tenant = await createTenant();
    const answers = await burst(tenant.key, 100);
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(60);
    expect(refused).toHaveLength(40);

    const remaining = ok.map((a) => Number(a.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i));
    for (const a of ok) expect(a.headers.get("x-ratelimit-limit")).toBe("60");

    const now = Date.now() / 1000;
    for (const a of refused) {
      expect(a.body).toEqual({ message: "Too Many Attempts." });
      expect(a.headers.get("x-ratelimit-limit")).toBe("60");
      expect(a.headers.get("x-ratelimit-remaining")).toBe("0");
      const retryAfter = Number(a.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const reset = Number(a.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThan(now);
      expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 61);
    }
  });

  it("shares one budget across all keys of a user, but not with another user", async () => {
    const tenant = await createTenant();
    const second = await createKey(tenant.user.id, ["workspaces"]);
    const other = await createTenant();
    const [first, withSecond] = await Promise.all([burst(tenant.key, 40), burst(second.key, 40)]);
    const ok = [...first, ...withSecond].filter((a) => a.status === 200).length;
    expect(ok).toBe(60);
    const otherAnswers = await burst(other.key, 10);
    expect(otherAnswers.every((a) => a.status === 200)).toBe(true);
    expect(
      otherAnswers.map((a) => Number(a.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b),
    ).toEqual([50, 51, 52, 53, 54, 55, 56, 57, 58, 59]);
  });

  it("counts requests refused for a missing ability too, and carries the headers on them", async () => {
    const tenant = await createTenant();
    const limited = await createKey(tenant.user.id, ["accounts"]);
    const res = await call("GET", "/api/v1/workspaces", { key: limited.key });
    expect(res.status).toBe(403);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("59");
  });

  it("does not count unauthenticated requests against anyone", async () => {
    const res = await call("GET", "/api/v1/workspaces");
    expect(res.status).toBe(401);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });
});
