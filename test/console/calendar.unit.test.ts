// The week calendar's date math: ISO weeks, and days that are local dates (23 or 25 hours across a DST
// change) in Europe/Paris and America/New_York, for both changes of 2026.
import { describe, expect, it } from "vitest";
import {
  addDays,
  dayStart,
  firstDay,
  isoWeekOf,
  localDateOf,
  mondayOf,
  mondayOfWeek,
  weekFrom,
  weekQuery,
} from "../../src/console/calendar";

const HOUR = 3_600_000;

describe("ISO weeks", () => {
  it("finds a week's Monday and a date's week, across year ends", () => {
    expect(mondayOfWeek("2026-W13")).toBe("2026-03-23");
    expect(mondayOfWeek("2026-W01")).toBe("2025-12-29");
    expect(isoWeekOf("2026-12-31")).toBe("2026-W53");
    expect(isoWeekOf("2027-01-03")).toBe("2026-W53");
    expect(isoWeekOf("2027-01-04")).toBe("2027-W01");
    expect(mondayOfWeek("2026-W53")).toBe("2026-12-28");
    expect(mondayOf("2026-03-29")).toBe("2026-03-23");
    expect(mondayOf("2026-03-23")).toBe("2026-03-23");
  });

  it("refuses weeks and dates that do not exist", () => {
    expect(mondayOfWeek("2027-W53")).toBeNull();
    expect(mondayOfWeek("2026-W00")).toBeNull();
    expect(mondayOfWeek("2026-13")).toBeNull();
    expect(firstDay({ start: "2026-02-30" }, "2026-01-01")).toEqual({
      error: { field: "start", message: expect.any(String) },
    });
    expect(firstDay({ week: "2026-W60" }, "2026-01-01")).toMatchObject({ error: { field: "week" } });
  });

  it("starts at today's Monday without a query, and links weeks by ISO week when they start on Monday", () => {
    expect(firstDay({}, "2026-10-25")).toEqual({ start: "2026-10-19" });
    expect(firstDay({ start: "2026-10-21" }, "2026-01-01")).toEqual({ start: "2026-10-21" });
    expect(weekQuery("2026-10-19")).toBe("week=2026-W43");
    expect(weekQuery("2026-10-21")).toBe("start=2026-10-21");
  });
});

describe("days in a zone", () => {
  const cases = [
    // zone, week holding the change, the change's date, that day's length, the day's start
    ["Europe/Paris", "2026-W13", "2026-03-29", 23, "2026-03-28T23:00:00.000Z"],
    ["Europe/Paris", "2026-W43", "2026-10-25", 25, "2026-10-24T22:00:00.000Z"],
    ["America/New_York", "2026-W10", "2026-03-08", 23, "2026-03-08T05:00:00.000Z"],
    ["America/New_York", "2026-W44", "2026-11-01", 25, "2026-11-01T04:00:00.000Z"],
  ] as const;

  it.each(cases)("%s %s: the change day %s lasts %i hours of UTC", (zone, week, day, hours, start) => {
    expect(dayStart(day, zone).toISOString()).toBe(start);
    expect(dayStart(addDays(day, 1), zone).getTime() - dayStart(day, zone).getTime()).toBe(hours * HOUR);
    const w = weekFrom(mondayOfWeek(week)!, zone);
    expect(w.days).toHaveLength(7);
    expect(w.days).toContain(day);
    // The week is 7 × 24 hours give or take the change's hour.
    expect((w.to.getTime() - w.from.getTime()) / HOUR).toBe(7 * 24 + (hours - 24));
    // Its first instant is local midnight of Monday; its last, 23:59:59.999 of Sunday.
    expect(localDateOf(w.from, zone)).toBe(w.days[0]);
    expect(localDateOf(new Date(w.from.getTime() - 1), zone)).toBe(addDays(w.days[0]!, -1));
    expect(localDateOf(new Date(w.to.getTime() - 1), zone)).toBe(w.days[6]);
    expect(localDateOf(w.to, zone)).toBe(addDays(w.days[6]!, 1));
  });

  it("keeps 23:30 local of a 25-hour Sunday inside its week (24 h of UTC per day would lose it)", () => {
    // 2026-10-25 23:30 in Paris is +01:00: 22:30Z, past Monday's midnight (+02:00) plus 7 × 24 h.
    const w = weekFrom("2026-10-19", "Europe/Paris");
    const late = new Date("2026-10-25T22:30:00Z");
    expect(late >= w.from && late < w.to).toBe(true);
    expect(localDateOf(late, "Europe/Paris")).toBe("2026-10-25");
    expect(w.to.toISOString()).toBe("2026-10-25T23:00:00.000Z");
  });

  it("starts a day whose midnight a DST change skips when the day begins (America/Santiago)", () => {
    // Chile springs forward at 24:00 on the first Saturday of September: 2026-09-06 begins at 01:00.
    const start = dayStart("2026-09-06", "America/Santiago");
    expect(localDateOf(start, "America/Santiago")).toBe("2026-09-06");
    expect(localDateOf(new Date(start.getTime() - 1), "America/Santiago")).toBe("2026-09-05");
  });
});
