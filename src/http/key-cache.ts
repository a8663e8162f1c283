// API keys this isolate has looked up, by the SHA-256 of the key, so a warm request skips the D1 lookup.
// A cached key is only trusted together with its Coordinator's answer (src/http/gate.ts), which says
// when the operator changed it; the TTL only bounds memory and how long an unused entry lingers.
import type { LoadedKey } from "./auth";

export const KEY_CACHE_TTL_MS = 5 * 60_000;
export const KEY_CACHE_MAX = 10_000;

type Entry = LoadedKey & { cachedAt: number };

const entries = new Map<string, Entry>();

export const keyCache = {
  get(hash: string, now: number): LoadedKey | undefined {
    const entry = entries.get(hash);
    if (!entry) return undefined;
    if (now - entry.cachedAt > KEY_CACHE_TTL_MS) {
      entries.delete(hash);
      return undefined;
    }
    return entry;
  },
  set(hash: string, key: LoadedKey, now: number) {
    entries.delete(hash);
    // Oldest first: a Map iterates in insertion order.
    if (entries.size >= KEY_CACHE_MAX) entries.delete(entries.keys().next().value as string);
    entries.set(hash, { ...key, cachedAt: now });
  },
  evict(hash: string) {
    entries.delete(hash);
  },
};

/**
 * Users whose rate window refused a request, until the window closes: the Coordinator refuses every
 * request until then (a refused request neither consumes nor extends the window), so this isolate can
 * answer 429 itself, with no remote call at all.
 */
const refusedUntil = new Map<number, number>();

export const refusals = {
  until(userId: number, now: number): number | undefined {
    const resetAt = refusedUntil.get(userId);
    if (resetAt === undefined) return undefined;
    if (now >= resetAt) {
      refusedUntil.delete(userId);
      return undefined;
    }
    return resetAt;
  },
  set(userId: number, resetAt: number) {
    if (refusedUntil.size >= KEY_CACHE_MAX) refusedUntil.delete(refusedUntil.keys().next().value as number);
    refusedUntil.set(userId, resetAt);
  },
};
