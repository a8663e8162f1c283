// Rendering UTC instants in a workspace's time zone: ISO 8601 with the zone's offset for timestamps,
// `YYYY-MM-DD hh:mm AM/PM` for posted_on. Formatters are cached per zone (they are costly to build).
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

/** `2026-11-21T09:15:00+01:00`; the zone's parts are read once (formatToParts is the costly step). */
export function toZonedIso(instant: Date, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  const offset = offsetOf(instant, w);
  const sign = offset < 0 ? "-" : "+";
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

/** `2026-11-21 09:15 AM` */
export function toPostedOn(instant: Date, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  const hour12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(hour12)}:${pad(w.minute)} ${w.hour < 12 ? "AM" : "PM"}`;
}

export const isoOrNull = (instant: Date | null, timeZone: string) =>
  instant ? toZonedIso(instant, timeZone) : null;
