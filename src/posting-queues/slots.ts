// A queue's slots as instants, pure: each weekly slot (ISO day, `HH:MM`) is its wall-clock time in the
// queue's zone on every matching local date (src/lib/local-date.ts `wallClockInstant` applies the DST
// rule), so 09:00 Europe/Paris is 08:00Z in winter and 07:00Z in summer. Which of them are free is the
// database's answer (queries.ts); this module only lists candidates.
import { addDays, isoWeekday, localDateOf, wallClockInstant } from "../lib/local-date";

export type Slot = { day: number; time: string };

/** How far ahead a queued post may land: beyond it, a queue with no free slot is a 422. */
export const HORIZON_DAYS = 90;
export const HORIZON_MS = HORIZON_DAYS * 86_400_000;

/** The instants of `slots` after `from` and before `until`, ascending, each once. */
export function slotInstants(slots: readonly Slot[], timeZone: string, from: Date, until: Date): number[] {
  if (slots.length === 0) return [];
  const instants = new Set<number>();
  // A day's margin either side: a local date starts up to 14 hours before or after its UTC date.
  const last = addDays(localDateOf(until, timeZone), 1);
  for (let date = addDays(localDateOf(from, timeZone), -1); date <= last; date = addDays(date, 1)) {
    const weekday = isoWeekday(date);
    for (const slot of slots) {
      if (slot.day !== weekday) continue;
      const at = wallClockInstant(date, slot.time, timeZone).getTime();
      if (at > from.getTime() && at < until.getTime()) instants.add(at);
    }
  }
  return [...instants].sort((a, b) => a - b);
}

/**
 * The instants that are a slot of every queue (a post on several accounts takes a slot they share),
 * ascending.
 */
export function sharedInstants(lists: readonly number[][]): number[] {
  const [first, ...rest] = lists;
  if (!first) return [];
  const others = rest.map((list) => new Set(list));
  return first.filter((at) => others.every((set) => set.has(at)));
}
