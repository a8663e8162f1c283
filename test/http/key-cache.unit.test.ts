// The isolate's memory of keys D1 did not have (src/http/key-cache.ts): refused without a lookup for a
// wait that doubles with each miss, short at first so a key minted while a replica lagged is soon found.
import { describe, expect, it } from "vitest";
import {
  KEY_CACHE_MAX,
  UNKNOWN_KEY_FIRST_WAIT_MS,
  UNKNOWN_KEY_MAX_WAIT_MS,
  unknownKeys,
} from "../../src/http/key-cache";

describe("unknownKeys", () => {
  it("refuses for 5 s after a first miss, then twice as long after each further one, up to 5 minutes", () => {
    const hash = "a".repeat(64);
    expect(unknownKeys.refuses(hash, 0)).toBe(false);
    unknownKeys.miss(hash, 0);
    expect(unknownKeys.refuses(hash, UNKNOWN_KEY_FIRST_WAIT_MS - 1)).toBe(true);
    expect(unknownKeys.refuses(hash, UNKNOWN_KEY_FIRST_WAIT_MS)).toBe(false);
    let now = UNKNOWN_KEY_FIRST_WAIT_MS;
    let wait = UNKNOWN_KEY_FIRST_WAIT_MS;
    for (let miss = 2; miss < 20; miss++) {
      unknownKeys.miss(hash, now);
      wait = Math.min(wait * 2, UNKNOWN_KEY_MAX_WAIT_MS);
      expect(unknownKeys.refuses(hash, now + wait - 1)).toBe(true);
      expect(unknownKeys.refuses(hash, now + wait)).toBe(false);
      now += wait;
    }
    expect(wait).toBe(UNKNOWN_KEY_MAX_WAIT_MS);
  });

  it("forgets a key D1 turned out to have", () => {
    const hash = "b".repeat(64);
    unknownKeys.miss(hash, 0);
    unknownKeys.forget(hash);
    expect(unknownKeys.refuses(hash, 1)).toBe(false);
  });

  it("holds at most KEY_CACHE_MAX keys, dropping the oldest", () => {
    for (let i = 0; i <= KEY_CACHE_MAX; i++) unknownKeys.miss(`k${i}`, 0);
    expect(unknownKeys.refuses("k0", 1)).toBe(false);
    expect(unknownKeys.refuses("k1", 1)).toBe(true);
    expect(unknownKeys.refuses(`k${KEY_CACHE_MAX}`, 1)).toBe(true);
  });
});
