// The week calendar's date math, pure: a week is seven local dates of the workspace's zone, Monday first
// (ISO 8601 weeks), and a day is the span from one local midnight to the next, so a DST day lasts 23 or
// 25 hours of UTC, never a fixed 24. Local dates are `YYYY-MM-DD` strings; their arithmetic is UTC
// calendar arithmetic (no zone involved); only `dayStart` asks the zone (through src/lib/time.ts).
import { addDays, dateMs, dayStart, fromMs, type LocalDate, mondayOf } from "../lib/local-date";

// The local-date primitives live in src/lib/local-date.ts (the posting queues' slots share them).
export { addDays, dayStart, isLocalDate, type LocalDate, localDateOf, mondayOf } from "../lib/local-date";

const DAY_MS = 86_400_000;
const WEEK = /^(\d{4})-W(\d{2})$/;

/** The ISO week of a date, `YYYY-Www` (the week's year is its Thursday's: 2026-12-31 is 2026-W53). */
export function isoWeekOf(date: LocalDate): string {
  const thursday = dateMs(addDays(mondayOf(date), 3))!;
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** Monday of an ISO week `YYYY-Www`, or null when there is no such week (W00, W54, W53 of a 52-week year). */
export function mondayOfWeek(week: string): LocalDate | null {
  const match = WEEK.exec(week);
  if (!match) return null;
  const year = Number(match[1]);
  // 4 January is always in week 1.
  const monday = addDays(mondayOf(fromMs(Date.UTC(year, 0, 4))), (Number(match[2]) - 1) * 7);
  return isoWeekOf(monday) === week ? monday : null;
}

export type Week = {
  /** The first day shown (a Monday for `week=`, any date for `start=`). */
  start: LocalDate;
  /** The seven local dates, in order. */
  days: LocalDate[];
  /** From the first day's start (included) to the start of the day after the last (excluded). */
  from: Date;
  to: Date;
};

export function weekFrom(start: LocalDate, timeZone: string): Week {
  const days = Array.from({ length: 7 }, (_, i) => addDays(start, i));
  return { start, days, from: dayStart(start, timeZone), to: dayStart(addDays(start, 7), timeZone) };
}

/**
 * The first day the calendar shows, from its query: `week=YYYY-Www` (that week's Monday), `start=YYYY-MM-DD`
 * (that date), or neither (the Monday of `today`'s week). An error names the field that is no date.
 */
export function firstDay(
  query: { week?: string; start?: string },
  today: LocalDate,
): { start: LocalDate } | { error: { field: "week" | "start"; message: string } } {
  if (query.week) {
    const monday = mondayOfWeek(query.week);
    return monday
      ? { start: monday }
      : { error: { field: "week", message: "The week must be an ISO week such as 2026-W13." } };
  }
  if (query.start) {
    return dateMs(query.start) === null
      ? { error: { field: "start", message: "The start must be a date such as 2026-03-23." } }
      : { start: query.start };
  }
  return { start: mondayOf(today) };
}

/** The query of the seven days before or after: by ISO week when the view starts on a Monday. */
export function weekQuery(start: LocalDate): string {
  return mondayOf(start) === start ? `week=${isoWeekOf(start)}` : `start=${start}`;
}
