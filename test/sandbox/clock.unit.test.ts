// The sandbox's clock for platform durations: SANDBOX_TIME_SCALE divides them, a token lives 60 s at least.
import { describe, expect, it } from "vitest";
import { lifetimeMs, scaledMs, timeScale } from "../../src/sandbox/clock";

describe("SANDBOX_TIME_SCALE", () => {
  it("reads a scale of 1 or more, anything else as real time", () => {
    expect(timeScale({})).toBe(1);
    expect(timeScale({ SANDBOX_TIME_SCALE: "43200" })).toBe(43200);
    for (const bad of ["0", "-5", "abc", "", "0.5", "Infinity"])
      expect(timeScale({ SANDBOX_TIME_SCALE: bad })).toBe(1);
  });

  it("divides durations: at 43200 a day lasts 2 s, a 60-day token 120 s, a one-hour token 60 s", () => {
    const env = { SANDBOX_TIME_SCALE: "43200" };
    expect(scaledMs(env, 86_400)).toBe(2_000);
    expect(lifetimeMs(env, 60 * 86_400)).toBe(120_000);
    expect(lifetimeMs(env, 3_600)).toBe(60_000);
    expect(lifetimeMs({}, 7_200)).toBe(7_200_000);
  });
});
