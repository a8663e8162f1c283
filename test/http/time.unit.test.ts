import { describe, expect, it } from "vitest";
import { offsetMinutes, toPostedOn, toZonedIso } from "../../src/lib/time";

describe("toZonedIso", () => {
  it.each([
    ["2026-11-21T08:15:00Z", "UTC", "2026-11-21T08:15:00+00:00"],
    ["2026-11-21T08:15:00Z", "Europe/Paris", "2026-11-21T09:15:00+01:00"],
    ["2026-07-01T08:15:00Z", "Europe/Paris", "2026-07-01T10:15:00+02:00"],
    ["2026-11-21T08:15:30Z", "America/New_York", "2026-11-21T03:15:30-05:00"],
    ["2026-11-21T08:15:00Z", "Asia/Kolkata", "2026-11-21T13:45:00+05:30"],
    ["2026-11-21T08:15:00Z", "America/St_Johns", "2026-11-21T04:45:00-03:30"],
    ["2026-12-31T23:30:00Z", "Pacific/Auckland", "2027-01-01T12:30:00+13:00"],
  ])("%s in %s is %s", (utc, zone, expected) => {
    expect(toZonedIso(new Date(utc), zone)).toBe(expected);
  });

  it("follows the DST change in Europe/Paris (last Sunday of March, 01:00 UTC)", () => {
    expect(toZonedIso(new Date("2026-03-29T00:59:59Z"), "Europe/Paris")).toBe("2026-03-29T01:59:59+01:00");
    expect(toZonedIso(new Date("2026-03-29T01:00:00Z"), "Europe/Paris")).toBe("2026-03-29T03:00:00+02:00");
    expect(toZonedIso(new Date("2026-10-25T00:59:59Z"), "Europe/Paris")).toBe("2026-10-25T02:59:59+02:00");
    expect(toZonedIso(new Date("2026-10-25T01:00:00Z"), "Europe/Paris")).toBe("2026-10-25T02:00:00+01:00");
  });

  it("follows the DST change in America/New_York (2026-03-08 07:00 UTC)", () => {
    expect(offsetMinutes(new Date("2026-03-08T06:59:00Z"), "America/New_York")).toBe(-300);
    expect(offsetMinutes(new Date("2026-03-08T07:00:00Z"), "America/New_York")).toBe(-240);
    expect(toZonedIso(new Date("2026-03-08T07:00:00Z"), "America/New_York")).toBe(
      "2026-03-08T03:00:00-04:00",
    );
  });

  it("drops sub-second precision without shifting the offset", () => {
    expect(toZonedIso(new Date("2026-11-21T08:15:00.999Z"), "Asia/Tokyo")).toBe("2026-11-21T17:15:00+09:00");
  });
});

describe("toPostedOn", () => {
  it.each([
    ["2026-11-21T00:05:00Z", "UTC", "2026-11-21 12:05 AM"],
    ["2026-11-21T12:05:00Z", "UTC", "2026-11-21 12:05 PM"],
    ["2026-11-21T13:45:00Z", "UTC", "2026-11-21 01:45 PM"],
    ["2026-11-21T23:59:00Z", "Europe/Paris", "2026-11-22 12:59 AM"],
    ["2026-11-21T08:15:00Z", "America/Los_Angeles", "2026-11-21 12:15 AM"],
    ["2026-03-29T01:30:00Z", "Europe/Paris", "2026-03-29 03:30 AM"],
  ])("%s in %s is %s", (utc, zone, expected) => {
    expect(toPostedOn(new Date(utc), zone)).toBe(expected);
  });
});

describe("the cached quarter-hour offsets", () => {
  /** The wall clock read from Intl for every instant, independently of src/lib/time.ts. */
  function reference(instant: Date, timeZone: string): string {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      })
        .formatToParts(instant)
        .map((p) => [p.type, p.value]),
    );
    return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  }

  it.each([
    "Europe/Paris",
    "America/New_York",
    "Australia/Lord_Howe",
    "Asia/Kathmandu",
    "Pacific/Chatham",
    "America/Sao_Paulo",
  ])("renders what Intl renders, every instant, around transitions too (%s)", (zone) => {
    // Deterministic pseudo-random instants from 1990 to 2040, plus every minute around each of this
    // zone's 2026 transitions (found by scanning offsets hour by hour).
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const instants = Array.from(
      { length: 1500 },
      () => new Date(631_152_000_000 + random() * 1_577_000_000_000),
    );
    const year = Date.UTC(2026, 0, 1);
    for (let h = 0; h < 24 * 366; h++) {
      const at = year + h * 3_600_000;
      if (offsetMinutes(new Date(at), zone) !== offsetMinutes(new Date(at + 3_600_000), zone))
        for (let m = -5; m <= 65; m++) instants.push(new Date(at + m * 60_000 + 17_000));
    }
    for (const instant of instants) {
      expect(toZonedIso(instant, zone).slice(0, 19), instant.toISOString()).toBe(reference(instant, zone));
    }
  });
});
