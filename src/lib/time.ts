// Rendering UTC instants in a workspace's time zone: ISO 8601 with the zone's offset for timestamps,
// `YYYY-MM-DD hh:mm AM/PM` for posted_on. Formatters are cached per zone (they are costly to build), and
// so are the zone's offsets per quarter hour: Intl is asked once per zone and quarter hour, and every
// other instant of that quarter hour is plain arithmetic (a page of 100 posts renders ~700 times).
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallClock(instant: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0");

/** The offset of the wall clock `w` shown at `instant`, in whole minutes east of UTC. */
function offsetOf(instant: Date, w: WallClock): number {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const whole = Math.floor(instant.getTime() / 1000) * 1000;
  return Math.round((asUtc - whole) / 60_000);
}

/** Offset of the zone at that instant, in whole minutes east of UTC. */
export const offsetMinutes = (instant: Date, timeZone: string): number =>
  offsetOf(instant, wallClock(instant, timeZone));

const QUARTER_HOUR_MS = 15 * 60_000;
const OFFSETS_MAX = 50_000;
/**
 * Per zone, quarter-hour index → the offset (minutes) of the whole quarter hour, or null when it changes
 * (numeric keys: no key string is built per instant). At most OFFSETS_MAX entries in all.
 */
const offsets = new Map<string, Map<number, number | null>>();
let offsetCount = 0;

/**
 * The instant's wall clock and offset. Offsets change only at transitions, which fall on quarter
 * hours: when a quarter hour starts and ends with the same offset, every instant in it has that offset.
 */
function zoned(instant: Date, timeZone: string): { w: WallClock; offset: number } {
  const ms = instant.getTime();
  const quarter = Math.floor(ms / QUARTER_HOUR_MS);
  let zone = offsets.get(timeZone);
  let offset = zone?.get(quarter);
  if (offset === undefined) {
    const start = new Date(quarter * QUARTER_HOUR_MS);
    const end = new Date((quarter + 1) * QUARTER_HOUR_MS - 1000);
    const first = offsetMinutes(start, timeZone);
    offset = first === offsetMinutes(end, timeZone) ? first : null;
    if (offsetCount >= OFFSETS_MAX) {
      offsets.clear();
      offsetCount = 0;
      zone = undefined;
    }
    if (!zone) {
      zone = new Map();
      offsets.set(timeZone, zone);
    }
    zone.set(quarter, offset);
    offsetCount += 1;
  }
  if (offset === null) {
    const w = wallClock(instant, timeZone);
    return { w, offset: offsetOf(instant, w) };
  }
  const local = new Date(Math.floor(ms / 1000) * 1000 + offset * 60_000);
  return {
    w: {
      year: local.getUTCFullYear(),
      month: local.getUTCMonth() + 1,
      day: local.getUTCDate(),
      hour: local.getUTCHours(),
      minute: local.getUTCMinutes(),
      second: local.getUTCSeconds(),
    },
    offset,
  };
}

/** `2026-11-21T09:15:00+01:00` */
export function toZonedIso(instant: Date, timeZone: string): string {
  const { w, offset } = zoned(instant, timeZone);
  const sign = offset < 0 ? "-" : "+";
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

/** `2026-11-21 09:15 AM` */
export function toPostedOn(instant: Date, timeZone: string): string {
  const { w } = zoned(instant, timeZone);
  const hour12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(hour12)}:${pad(w.minute)} ${w.hour < 12 ? "AM" : "PM"}`;
}

export const isoOrNull = (instant: Date | null, timeZone: string) =>
  instant ? toZonedIso(instant, timeZone) : null;
