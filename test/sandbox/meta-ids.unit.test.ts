// Meta's ids grow with time: the emulators' drawer orders ids by the emulator's clock, then by a
// sequence within a millisecond, in the platform's digit format.
import { describe, expect, it } from "vitest";
import { growingIds } from "../../src/sandbox/meta-ids";

describe("growingIds", () => {
  it("draws ids of the platform's digits that grow with the clock and within one millisecond", () => {
    let clock = Date.parse("2026-03-02T10:00:00Z");
    const next = growingIds("18", 17, () => clock);
    const ids = [next(), next(), next()];
    clock += 1;
    ids.push(next());
    clock += 86_400_000;
    ids.push(next());
    for (const id of ids) expect(id).toMatch(/^18\d{15}$/);
    for (let n = 1; n < ids.length; n++) expect(BigInt(ids[n]!)).toBeGreaterThan(BigInt(ids[n - 1]!));
    // The clock's milliseconds lead: a later millisecond's id is larger than any of an earlier one's.
    expect(ids[3]!.slice(2, 15)).toBe(String(clock - 86_400_000));
  });

  it("never goes back, though the clock does", () => {
    let clock = Date.parse("2026-03-02T10:00:00Z");
    const next = growingIds("17", 18, () => clock);
    const first = next();
    clock -= 60_000;
    expect(BigInt(next())).toBeGreaterThan(BigInt(first));
  });
});
