// When a repeatable post publishes next: `repeatable_gap` `repeatable_gap_unit` after the occurrence it
// just finished. Minutes and hours are exact durations; days, weeks and months are counted on the
// workspace's wall clock (a post at 09:00 stays at 09:00 across a DST change; months are calendar
// months, the 31st becoming the month's last day). Slots already past are skipped, not caught up in a
// burst: an occurrence that finished late publishes next at the first slot after now.
import type { GapUnit } from "../db/enums";
import { offsetMinutes } from "../lib/time";

const MINUTE = 60_000;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** The instant whose wall clock in `zone` reads `wall` (a UTC-fields timestamp); two passes settle DST. */
function fromWallClock(wall: number, zone: string): number {
  const guess = wall - offsetMinutes(new Date(wall), zone) * MINUTE;
  return wall - offsetMinutes(new Date(guess), zone) * MINUTE;
}

export function addGap(from: number, gap: number, unit: GapUnit, zone: string): number {
  if (unit === "minutes") return from + gap * MINUTE;
  if (unit === "hours") return from + gap * 60 * MINUTE;
  const wall = new Date(from + offsetMinutes(new Date(from), zone) * MINUTE);
  const year = wall.getUTCFullYear();
  let [month, day] = [wall.getUTCMonth(), wall.getUTCDate()];
  if (unit === "days") day += gap;
  else if (unit === "weeks") day += 7 * gap;
  else {
    month += gap;
    day = Math.min(day, daysIn(year + Math.floor(month / 12), month % 12));
  }
  // Date.UTC normalises a month or day past the end of its year or month.
  const target = Date.UTC(
    year,
    month,
    day,
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
    wall.getUTCMilliseconds(),
  );
  return fromWallClock(target, zone);
}

export type RepeatRule = { gap: number; unit: GapUnit; zone: string };

/** The first slot after `now`, counting from the occurrence at `from`. */
export function nextOccurrence(from: number, rule: RepeatRule, now: number): number {
  if (rule.unit === "minutes" || rule.unit === "hours") {
    const step = rule.gap * (rule.unit === "minutes" ? 1 : 60) * MINUTE;
    const steps = Math.max(1, Math.floor((now - from) / step) + 1);
    return from + steps * step;
  }
  let next = addGap(from, rule.gap, rule.unit, rule.zone);
  // Calendar slots are walked one by one; a post years behind stops at a bound and restarts from now.
  for (let i = 0; next <= now && i < 5000; i++) next = addGap(next, rule.gap, rule.unit, rule.zone);
  return next > now ? next : addGap(now, rule.gap, rule.unit, rule.zone);
}
