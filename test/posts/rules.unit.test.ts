import { describe, expect, it } from "vitest";
import { nextState, ruleErrors, statusOf } from "../../src/posts/rules";

const now = new Date("2026-11-21T12:00:00Z");
const later = new Date("2026-11-22T12:00:00Z");
const earlier = new Date("2026-11-20T12:00:00Z");
const stored = {
  status: "SCHEDULED" as const,
  scheduledAt: later,
  publishNow: false,
  repeatable: true,
  repeatableTimes: 3,
  repeatableGap: 2,
  repeatableGapUnit: "days" as const,
};

describe("post state rules", () => {
  it("derives DRAFT, SCHEDULED and PUBLISHING", () => {
    expect(statusOf(nextState(null, {}, now))).toBe("DRAFT");
    expect(statusOf(nextState(null, { scheduled_at: later }, now))).toBe("SCHEDULED");
    const publishing = nextState(null, { publish_now: true }, now);
    expect(statusOf(publishing)).toBe("PUBLISHING");
    expect(publishing.scheduledAt).toEqual(now);
  });

  it("keeps stored fields the request leaves out and drops repeat fields when repeatable is turned off", () => {
    expect(nextState(stored, {}, now)).toMatchObject({
      scheduledAt: later,
      repeatableTimes: 3,
      repeatableGapUnit: "days",
    });
    expect(nextState(stored, { repeatable: false }, now)).toMatchObject({
      repeatable: false,
      repeatableTimes: null,
      repeatableGap: null,
      repeatableGapUnit: null,
    });
    expect(nextState(stored, { scheduled_at: null }, now).scheduledAt).toBeNull();
  });

  it("forgets a passed schedule of a post that is no longer SCHEDULED", () => {
    expect(nextState({ ...stored, status: "FAILED", scheduledAt: earlier }, {}, now).scheduledAt).toBeNull();
    expect(nextState({ ...stored, status: "SCHEDULED", scheduledAt: earlier }, {}, now).scheduledAt).toEqual(
      earlier,
    );
  });

  it("reports each broken cross-field rule once", () => {
    const input = { publish_now: true, scheduled_at: earlier, repeatable: true };
    expect(ruleErrors(input, nextState(null, input, now), now)).toEqual({
      publish_now: ["The publish now field is prohibited when scheduled at is present."],
      scheduled_at: ["The scheduled at field must be a date after now."],
      repeatable_times: ["The repeatable times field is required when repeatable is true."],
      repeatable_gap: ["The repeatable gap field is required when repeatable is true."],
      repeatable_gap_unit: ["The repeatable gap unit field is required when repeatable is true."],
    });
    expect(ruleErrors({ repeatable_gap_unit: "days" }, nextState(null, {}, now), now)).toEqual({
      repeatable_gap_unit: ["The repeatable gap unit field is prohibited unless repeatable is true."],
    });
    expect(ruleErrors({ scheduled_at: later }, nextState(null, { scheduled_at: later }, now), now)).toEqual(
      {},
    );
  });
});
