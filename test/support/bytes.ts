// Test bytes, made and compared cheaply. A file of tests may need megabytes: `Uint8Array.map` calls a
// closure per byte and `toEqual` walks a typed array element by element, each about a second of CPU per
// few MiB in workerd.
import { expect } from "vitest";

/**
 * `length` bytes where byte i is `(i * step + offset) % modulus`: the pattern repeats every `modulus`
 * bytes, so one period is computed and the rest copied by doubling.
 */
export function patternBytes(length: number, { step = 1, offset = 0, modulus = 256 } = {}) {
  const bytes = new Uint8Array(length);
  const period = Math.min(length, modulus);
  for (let i = 0; i < period; i++) bytes[i] = (i * step + offset) % modulus;
  for (let filled = period; filled < length; filled *= 2)
    bytes.copyWithin(filled, 0, Math.min(filled, length - filled));
  return bytes;
}

/**
 * Asserts that two byte arrays are the same: their lengths, then their SHA-256 digests; on a difference,
 * names its first index.
 */
export async function expectSameBytes(actual: Uint8Array, expected: Uint8Array) {
  expect(actual.byteLength).toBe(expected.byteLength);
  const digest = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const [a, b] = [await digest(actual), await digest(expected)];
  if (a.some((byte, i) => byte !== b[i]))
    expect.fail(`the bytes differ from index ${actual.findIndex((byte, i) => byte !== expected[i])}`);
}
