// Calendar keys and bounds in a time zone (ADR 0030): the account's zone for its days, hours,
// months and budgets; UTC for the free tier's windows and the cross-account rollup. A day key is
// 'YYYY-MM-DD' and a month key 'YYYY-MM' on the zone's calendar; a day is the instants from its
// local midnight to the next one (23 or 25 hours on a daylight-saving change).
import { BoundedMap } from "../bounded-map";
import { MS } from "../constants";
import { offsetPeriods, wallClock } from "../time-zone";

export function dayKey(ms: number, zone: string): string {
  return wallClock(ms, zone).toISOString().slice(0, 10);
}

export function monthKey(ms: number, zone: string): string {
  return wallClock(ms, zone).toISOString().slice(0, 7);
}

/** The day `n` days after (or before) a day key, on the calendar (no zone involved). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The month `n` months after (or before) a month key. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + n, 1)).toISOString().slice(0, 7);
}

const starts = new BoundedMap<string, number>(4096);

/**
 * The first instant of a local day: its midnight, or, where the zone skips midnight (a change at
 * 00:00, as in America/Santiago), the moment the day begins after the skip.
 */
export function dayStart(day: string, zone: string): number {
  const key = `${zone}\u0000${day}`;
  const held = starts.get(key, 0);
  if (held !== undefined) return held;
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const midnight = Date.UTC(y, m - 1, d);
  // Offsets lie between -12 and +14 hours: the day's start is within these bounds.
  const periods = offsetPeriods(midnight - 15 * MS.HOUR, midnight + 13 * MS.HOUR, zone);
  let start: number | null = null;
  for (const p of periods) {
    const candidate = midnight - p.offset;
    if (candidate >= p.start && candidate < p.end) {
      start = candidate;
      break;
    }
  }
  start ??= periods.find((p) => p.start + p.offset >= midnight)!.start;
  starts.set(key, start);
  return start;
}

export function startOfDay(ms: number, zone: string): number {
  return dayStart(dayKey(ms, zone), zone);
}

export function startOfMonth(ms: number, zone: string): number {
  return dayStart(`${monthKey(ms, zone)}-01`, zone);
}

export function startOfPreviousMonth(ms: number, zone: string): number {
  return dayStart(`${addMonths(monthKey(ms, zone), -1)}-01`, zone);
}

export function startOfNextMonth(ms: number, zone: string): number {
  return dayStart(`${addMonths(monthKey(ms, zone), 1)}-01`, zone);
}

export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / MS.DAY) * MS.DAY;
}

/** The n calendar days of the zone ending today (oldest first), as 'YYYY-MM-DD'. */
export function lastDays(n: number, now: number, zone: string): string[] {
  const today = dayKey(now, zone);
  return Array.from({ length: n }, (_, i) => addDays(today, i - (n - 1)));
}

/** One local hour of a day: when it starts, and its hour on the clock (0-23). */
export type LocalHour = { start: number; hour: number };

/**
 * The hours of a local day, in order: 24, or 23 on the day the clocks go forward and 25 on the
 * day they go back (its repeated hour twice, each with its own start). In a zone whose change is
 * half an hour (Australia/Lord_Howe), the hour of the change is half an hour long.
 */
export function hoursOf(day: string, zone: string): LocalHour[] {
  const from = dayStart(day, zone);
  const to = dayStart(addDays(day, 1), zone);
  const hours: LocalHour[] = [];
  for (let q = from; q < to; q += MS.QUARTER_HOUR) {
    const local = wallClock(q, zone).getTime();
    const start = q - (local % MS.HOUR);
    if (hours.at(-1)?.start !== start) hours.push({ start, hour: new Date(local).getUTCHours() });
  }
  return hours;
}
