// API keys this isolate has looked up, by the SHA-256 of the key, so a warm request skips the D1 lookup.
// A cached key is only trusted together with its Coordinator's answer (src/http/gate.ts), which says
// when the operator changed it; the TTL only bounds memory and how long an unused entry lingers. Keys
// D1 did not have are remembered too (`unknownKeys`), so that sending one again costs no lookup.
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
 * Keys D1 did not have, by hash: a key that is not found is refused without a lookup until a wait that
 * doubles with each miss (5 s, 10 s, 20 s, … up to 5 minutes) has passed, so a forged, revoked or
 * mistyped key sent again and again costs a handful of lookups per isolate, not one per request. The
 * first wait stays short because a key minted a moment ago may not yet be on the read replica that
 * answered: it is looked up again within seconds, and found then. Bounded like the key cache.
 */
export const UNKNOWN_KEY_FIRST_WAIT_MS = 5_000;
export const UNKNOWN_KEY_MAX_WAIT_MS = 5 * 60_000;

const unknown = new Map<string, { misses: number; until: number }>();

export const unknownKeys = {
  /** Whether this key was not found recently enough to be refused without asking D1 again. */
  refuses(hash: string, now: number): boolean {
    const entry = unknown.get(hash);
    return entry !== undefined && now < entry.until;
  },
  /** D1 did not have it (again). */
  miss(hash: string, now: number) {
    const misses = (unknown.get(hash)?.misses ?? 0) + 1;
    const wait = Math.min(UNKNOWN_KEY_MAX_WAIT_MS, UNKNOWN_KEY_FIRST_WAIT_MS * 2 ** Math.min(misses - 1, 16));
    unknown.delete(hash);
    if (unknown.size >= KEY_CACHE_MAX) unknown.delete(unknown.keys().next().value as string);
    unknown.set(hash, { misses, until: now + wait });
  },
  /** D1 has it after all (a key minted while a replica lagged). */
  forget(hash: string) {
    unknown.delete(hash);
  },
};

/**
 * Rate windows (a user's in one mode: the Coordinator's name) that refused a request, until the window closes: the Coordinator refuses every
 * request until then (a refused request neither consumes nor extends the window), so this isolate can
 * answer 429 itself, with no remote call at all.
 */
const refusedUntil = new Map<string, number>();

export const refusals = {
  until(window: string, now: number): number | undefined {
    const resetAt = refusedUntil.get(window);
    if (resetAt === undefined) return undefined;
    if (now >= resetAt) {
      refusedUntil.delete(window);
      return undefined;
    }
    return resetAt;
  },
  set(window: string, resetAt: number) {
    if (refusedUntil.size >= KEY_CACHE_MAX) refusedUntil.delete(refusedUntil.keys().next().value as string);
    refusedUntil.set(window, resetAt);
  },
};
