// The test bytes helper makes what its definition says, at and around its period's edges.
import { describe, expect, it } from "vitest";
import { expectSameBytes, patternBytes } from "./bytes";

const byDefinition = (length: number, step: number, offset: number, modulus: number) =>
  Array.from({ length }, (_, i) => (i * step + offset) % modulus);

describe("patternBytes", () => {
  it.each([
    [0, 1, 0, 256],
    [1, 31, 7, 251],
    [250, 31, 7, 251],
    [251, 31, 7, 251],
    [252, 31, 7, 251],
    [3001, 7, 3, 256],
    [70_000, 31, 0, 256],
  ])("%i bytes of (i × %i + %i) mod %i", (length, step, offset, modulus) => {
    expect([...patternBytes(length, { step, offset, modulus })]).toEqual(
      byDefinition(length, step, offset, modulus),
    );
  });
});

describe("expectSameBytes", () => {
  it("passes equal bytes and names the first index that differs", async () => {
    const bytes = patternBytes(5000);
    await expectSameBytes(bytes.slice(), bytes);
    const changed = bytes.slice();
    changed[4321] = (bytes[4321] ?? 0) ^ 1;
    await expect(expectSameBytes(changed, bytes)).rejects.toThrow("the bytes differ from index 4321");
    await expect(expectSameBytes(bytes.subarray(1), bytes)).rejects.toThrow();
  });
});
