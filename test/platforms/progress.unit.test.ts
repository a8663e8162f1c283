// The polling every adapter uses for what it recorded (src/platforms/progress.ts): looks at most `looks`
// times, `intervalMs` apart on the context's clock, none started past the deadline, then still_processing.
import { describe, expect, it } from "vitest";
import { pollUntil } from "../../src/platforms/progress";

function clock(start = 1_000) {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

const polling = { looks: 4, intervalMs: 5_000, message: "still at it", retryAfterSeconds: 30 };

describe("pollUntil", () => {
  it("answers the first look that is not undefined, sleeping only between looks", async () => {
    const context = clock();
    const looks: number[] = [];
    const answer = await pollUntil(context, polling, async (index) => {
      looks.push(index);
      return index === 2 ? "done" : undefined;
    });
    expect(answer).toBe("done");
    expect(looks).toEqual([0, 1, 2]);
    expect(context.sleeps).toEqual([5_000, 5_000]);
  });

  it("after its looks, ends the attempt with still_processing and the wait it was given", async () => {
    const context = clock();
    let looks = 0;
    const failure = await pollUntil(context, polling, async () => void looks++).catch((error) => error);
    expect(failure).toMatchObject({ kind: "transient", code: "still_processing", retryAfterSeconds: 30 });
    expect(failure.message).toBe("still at it");
    expect(looks).toBe(4);
  });

  it("starts no look past the deadline", async () => {
    const context = clock(1_000);
    let looks = 0;
    const failure = await pollUntil(context, { ...polling, deadline: 7_000 }, async () => void looks++).catch(
      (error) => error,
    );
    expect(failure).toMatchObject({ code: "still_processing" });
    // Looks at 1 s and 6 s; at 11 s the deadline has passed.
    expect(looks).toBe(2);
  });

  it("a look that throws ends the polling with its error", async () => {
    const failure = await pollUntil(clock(), polling, async () => {
      throw new Error("dead");
    }).catch((error) => error);
    expect(failure).toMatchObject({ message: "dead" });
  });
});
