import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// The window rule itself, driven with explicit clock values through the Durable Object's RPC.
describe("Gate rate window", () => {
  it("opens at the first request, refuses past the limit, and reopens after the window", async () => {
    const gate = env.COORDINATOR.getByName(`unit:${crypto.randomUUID()}`);
    const t0 = 1_000_000;
    const first = await gate.hit(3, 60_000, t0);
    expect(first).toEqual({ allowed: true, limit: 3, remaining: 2, resetAt: t0 + 60_000 });
    await gate.hit(3, 60_000, t0 + 10);
    expect((await gate.hit(3, 60_000, t0 + 20)).remaining).toBe(0);
    const refused = await gate.hit(3, 60_000, t0 + 59_999);
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, resetAt: t0 + 60_000 });
    const reopened = await gate.hit(3, 60_000, t0 + 60_000);
    expect(reopened).toEqual({ allowed: true, limit: 3, remaining: 2, resetAt: t0 + 120_000 });
  });
});
