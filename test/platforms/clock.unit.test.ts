// The platforms' clock: production code (tokens, keep-alive, analytics) reckons platform durations through
// src/platforms/clock.ts, never through the sandbox's own files; only the lookup's wiring and the
// emulators name src/platforms/sandbox/.
import { describe, expect, it } from "vitest";
import { clockScale, platformClockMs } from "../../src/platforms/clock";

/** Every source file outside the two folders allowed to name the sandbox, by its path under src/. */
const sources = import.meta.glob<string>(
  ["../../src/**/*.ts", "!../../src/platforms/**", "!../../src/sandbox/**"],
  {
    query: "?raw",
    import: "default",
    eager: true,
  },
);

describe("the platforms' clock", () => {
  it("is real time in production, SANDBOX_TIME_SCALE times faster on the emulated platforms", () => {
    expect(clockScale({ SANDBOX_TIME_SCALE: "43200" })).toBe(1);
    expect(clockScale({ SANDBOX: "true", SANDBOX_TIME_SCALE: "43200" })).toBe(43200);
    expect(platformClockMs({}, 300)).toBe(300_000);
    expect(platformClockMs({ SANDBOX: "true", SANDBOX_TIME_SCALE: "43200" }, 86_400)).toBe(2_000);
  });

  it("is the only way production code learns it: nothing outside src/platforms/ and src/sandbox/ imports src/platforms/sandbox/", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    const naming = Object.entries(sources)
      .filter(([, text]) => /from "[./]*\/platforms\/sandbox\//.test(text))
      .map(([file]) => file);
    expect(naming).toEqual([]);
  });
});
