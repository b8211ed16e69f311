// Calendar keys in UTC, matching how the aggregates group usage.
import { MS } from "../constants";

export function dayKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function monthKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / MS.DAY) * MS.DAY;
}

/** The n calendar days ending today (oldest first), as 'YYYY-MM-DD'. */
export function lastDays(n: number, now: number): string[] {
  const today = startOfUtcDay(now);
  return Array.from({ length: n }, (_, i) => dayKey(today - (n - 1 - i) * MS.DAY));
}

export function startOfMonth(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export function startOfPreviousMonth(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
}
