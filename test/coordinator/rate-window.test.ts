import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// The window rule itself, driven with explicit clock values through the Durable Object's RPC.
describe("Coordinator rate window", () => {
  it("opens at the first request, refuses past the limit, and reopens after the window", async () => {
    const coordinator = env.COORDINATOR.getByName(`unit:${crypto.randomUUID()}`);
    const t0 = 1_000_000;
    const first = await coordinator.hit(3, 60_000, t0);
    expect(first).toEqual({ allowed: true, limit: 3, remaining: 2, resetAt: t0 + 60_000 });
    await coordinator.hit(3, 60_000, t0 + 10);
    expect((await coordinator.hit(3, 60_000, t0 + 20)).remaining).toBe(0);
    const refused = await coordinator.hit(3, 60_000, t0 + 59_999);
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, resetAt: t0 + 60_000 });
    const reopened = await coordinator.hit(3, 60_000, t0 + 60_000);
    expect(reopened).toEqual({ allowed: true, limit: 3, remaining: 2, resetAt: t0 + 120_000 });
  });
});

describe("Coordinator key use", () => {
  it("records the last use of each key it counts, refused requests included", async () => {
    const coordinator = env.COORDINATOR.getByName(`unit:${crypto.randomUUID()}`);
    expect(await coordinator.lastKeyUses()).toEqual({});
    await coordinator.hit(1, 60_000, 1_000, 7);
    await coordinator.hit(1, 60_000, 2_000, 8);
    await coordinator.hit(1, 60_000, 3_000, 7);
    expect(await coordinator.lastKeyUses()).toEqual({ 7: 3_000, 8: 2_000 });
  });
});
