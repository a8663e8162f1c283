// The queues' date math: a slot is its wall-clock time in the queue's zone on each date, through both
// DST changes of 2026 in Europe/Paris and America/New_York: a time inside the spring-forward gap moves to
// the first minute after it, a time inside the repeated fall-back hour is its first occurrence.
import { describe, expect, it } from "vitest";
import { isoWeekday, wallClockInstant } from "../../src/lib/local-date";
import { toZonedIso } from "../../src/lib/time";
import { sharedInstants, slotInstants } from "../../src/posting-queues/slots";

const iso = (date: Date | number) => new Date(date).toISOString();

describe("wallClockInstant", () => {
  it("keeps the local time across a change: 09:00 Paris is 08:00Z in winter, 07:00Z in summer", () => {
    expect(iso(wallClockInstant("2026-03-28", "09:00", "Europe/Paris"))).toBe("2026-03-28T08:00:00.000Z");
    expect(iso(wallClockInstant("2026-03-29", "09:00", "Europe/Paris"))).toBe("2026-03-29T07:00:00.000Z");
    expect(iso(wallClockInstant("2026-10-25", "09:00", "Europe/Paris"))).toBe("2026-10-25T08:00:00.000Z");
    expect(iso(wallClockInstant("2026-03-08", "09:00", "America/New_York"))).toBe("2026-03-08T13:00:00.000Z");
    expect(iso(wallClockInstant("2026-03-07", "09:00", "America/New_York"))).toBe("2026-03-07T14:00:00.000Z");
  });

  it("moves a time inside the spring-forward gap to the first minute after it", () => {
    // Paris, 29 March 2026: 02:00 → 03:00 (01:00Z).
    const paris = wallClockInstant("2026-03-29", "02:30", "Europe/Paris");
    expect(iso(paris)).toBe("2026-03-29T01:00:00.000Z");
    expect(toZonedIso(paris, "Europe/Paris")).toBe("2026-03-29T03:00:00+02:00");
    expect(iso(wallClockInstant("2026-03-29", "02:00", "Europe/Paris"))).toBe("2026-03-29T01:00:00.000Z");
    expect(iso(wallClockInstant("2026-03-29", "03:00", "Europe/Paris"))).toBe("2026-03-29T01:00:00.000Z");
    // New York, 8 March 2026: 02:00 → 03:00 (07:00Z).
    const ny = wallClockInstant("2026-03-08", "02:15", "America/New_York");
    expect(iso(ny)).toBe("2026-03-08T07:00:00.000Z");
    expect(toZonedIso(ny, "America/New_York")).toBe("2026-03-08T03:00:00-04:00");
  });

  it("takes the first occurrence of a time inside the repeated fall-back hour", () => {
    // Paris, 25 October 2026: 03:00 → 02:00; 02:30 happens at 00:30Z (+02:00) and 01:30Z (+01:00).
    const paris = wallClockInstant("2026-10-25", "02:30", "Europe/Paris");
    expect(iso(paris)).toBe("2026-10-25T00:30:00.000Z");
    expect(toZonedIso(paris, "Europe/Paris")).toBe("2026-10-25T02:30:00+02:00");
    // New York, 1 November 2026: 02:00 → 01:00; 01:30 happens at 05:30Z (-04:00) and 06:30Z (-05:00).
    const ny = wallClockInstant("2026-11-01", "01:30", "America/New_York");
    expect(iso(ny)).toBe("2026-11-01T05:30:00.000Z");
    expect(toZonedIso(ny, "America/New_York")).toBe("2026-11-01T01:30:00-04:00");
    expect(iso(wallClockInstant("2026-11-01", "02:00", "America/New_York"))).toBe("2026-11-01T07:00:00.000Z");
  });

  it("handles midnight and zones without DST", () => {
    expect(iso(wallClockInstant("2026-07-01", "00:00", "UTC"))).toBe("2026-07-01T00:00:00.000Z");
    expect(iso(wallClockInstant("2026-07-01", "23:59", "Asia/Kolkata"))).toBe("2026-07-01T18:29:00.000Z");
  });
});

describe("slotInstants", () => {
  it("lists a week's slots in order, each on its ISO weekday", () => {
    const from = new Date("2026-03-23T00:00:00Z"); // a Monday
    const until = new Date("2026-03-30T00:00:00Z");
    const slots = [
      { day: 7, time: "09:00" },
      { day: 1, time: "09:00" },
      { day: 1, time: "17:30" },
    ];
    const zoned = slotInstants(slots, "Europe/Paris", from, until).map((at) =>
      toZonedIso(new Date(at), "Europe/Paris"),
    );
    // Sunday 29 March is the change: 09:00 is +02:00 from then on.
    expect(zoned).toEqual([
      "2026-03-23T09:00:00+01:00",
      "2026-03-23T17:30:00+01:00",
      "2026-03-29T09:00:00+02:00",
    ]);
    expect(isoWeekday("2026-03-29")).toBe(7);
  });

  it("counts two slots inside the gap once, and only instants after `from`", () => {
    const slots = [
      { day: 7, time: "02:15" },
      { day: 7, time: "02:45" },
    ];
    const from = new Date("2026-03-29T00:00:00Z");
    const found = slotInstants(slots, "Europe/Paris", from, new Date("2026-03-30T00:00:00Z"));
    expect(found.map(iso)).toEqual(["2026-03-29T01:00:00.000Z"]);
    expect(
      slotInstants(slots, "Europe/Paris", new Date("2026-03-29T01:00:00Z"), new Date("2026-03-30T00:00:00Z")),
    ).toEqual([]);
  });

  it("keeps the slots every queue shares", () => {
    expect(
      sharedInstants([
        [1, 2, 3],
        [2, 3, 4],
        [0, 3],
      ]),
    ).toEqual([3]);
    expect(sharedInstants([])).toEqual([]);
  });
});
