// Local dates of a time zone, pure: `YYYY-MM-DD` strings whose arithmetic is UTC calendar arithmetic
// (no zone involved), and the few functions that ask the zone (through ./time.ts): the local date of an
// instant, the instant a local day begins, and the instant of a local wall-clock time (the posting
// queues' slots), each following the zone's DST changes rather than assuming 24-hour days.
import { offsetMinutes, toZonedIso } from "./time";

/** A local date, `YYYY-MM-DD`. */
export type LocalDate = string;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The date as milliseconds of its UTC midnight (calendar arithmetic only), or null if it is no date. */
export function dateMs(date: string): number | null {
  const match = DATE.exec(date);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // Date.UTC rolls 2026-02-30 over to March: a date that does not round-trip does not exist.
  return new Date(ms).toISOString().slice(0, 10) === date ? ms : null;
}

/** Whether the string is a date that exists, `YYYY-MM-DD`. */
export const isLocalDate = (value: string): value is LocalDate => dateMs(value) !== null;

export const fromMs = (ms: number): LocalDate => new Date(ms).toISOString().slice(0, 10);

export const addDays = (date: LocalDate, days: number): LocalDate => fromMs(dateMs(date)! + days * DAY_MS);

/** The ISO day of the week, 1 (Monday) to 7 (Sunday). */
export const isoWeekday = (date: LocalDate): number => ((new Date(dateMs(date)!).getUTCDay() + 6) % 7) + 1;

/** Monday of the ISO week holding the date. */
export const mondayOf = (date: LocalDate): LocalDate => addDays(date, 1 - isoWeekday(date));

/** The local date of an instant in the zone. */
export const localDateOf = (instant: Date, timeZone: string): LocalDate =>
  toZonedIso(instant, timeZone).slice(0, 10);

/**
 * The first instant of the local date in the zone: its midnight, or, where a DST change skips midnight,
 * the instant the day begins. Tried with the offsets in force a day before and after (a zone changes at
 * most once in between): the earliest candidate whose local date is that date.
 */
export function dayStart(date: LocalDate, timeZone: string): Date {
  const wall = dateMs(date)!;
  const candidates = [-DAY_MS, 0, DAY_MS].map(
    (shift) => wall - offsetMinutes(new Date(wall + shift), timeZone) * MINUTE_MS,
  );
  const starts = candidates.filter((ms) => localDateOf(new Date(ms), timeZone) === date);
  return new Date(Math.min(...starts));
}

/**
 * The instant the zone's clocks show `time` (`HH:MM`) on `date`. A time that occurs twice that day (the
 * hour repeated when clocks go back) is its first occurrence; a time that does not occur (skipped when
 * clocks go forward) is the first minute after the gap, the instant the clocks jump.
 */
export function wallClockInstant(date: LocalDate, time: string, timeZone: string): Date {
  const [hours, minutes] = time.split(":").map(Number) as [number, number];
  const wall = dateMs(date)! + hours * 3_600_000 + minutes * MINUTE_MS;
  const local = `${date}T${time}`;
  // The offsets in force a day either side (a zone changes at most once in between).
  const offsets = [-DAY_MS, DAY_MS].map((shift) => offsetMinutes(new Date(wall + shift), timeZone));
  const shows = (ms: number) => toZonedIso(new Date(ms), timeZone).slice(0, 16) === local;
  const found = offsets.map((offset) => wall - offset * MINUTE_MS).filter(shows);
  if (found.length > 0) return new Date(Math.min(...found));
  // In the gap: the jump lies between the instants the two offsets give; find its minute.
  let before = wall - Math.max(...offsets) * MINUTE_MS;
  let after = wall - Math.min(...offsets) * MINUTE_MS;
  const offsetBefore = offsetMinutes(new Date(before), timeZone);
  while (after - before > MINUTE_MS) {
    const middle = before + Math.floor((after - before) / 2 / MINUTE_MS) * MINUTE_MS;
    if (offsetMinutes(new Date(middle), timeZone) === offsetBefore) before = middle;
    else after = middle;
  }
  return new Date(after);
}
