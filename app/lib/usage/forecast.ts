// This month's spend, forecast from the days so far (the overview's "Cost Predictions", issue 49).
// The method, in the words the page uses: what was spent so far this month, plus the average daily
// spend of the last USAGE.forecastBasisDays complete days times the days left in the month. Days
// and the month are the account zone's (ADR 0030); "days left" counts the rest of today by the
// time it has left, so a day of 23 or 25 hours weighs what it lasts. Complete days before the
// account's first spending are not averaged in: a week-old account with two days of use is
// forecast from those two days, not from five empty ones.
import { MS, USAGE } from "../constants";
import { addDays, addMonths, dayKey, dayStart } from "./dates";

export type DaySpend = { date: string; costMicros: number; requests: number };

export type Forecast = {
  /** The month forecast ('YYYY-MM', the account zone's). */
  month: string;
  /** Spent this month so far, today included. */
  spentMicros: number;
  /** Complete days the daily average is taken over (0: none yet, so nothing is added). */
  basisDays: number;
  /** The average daily spend of those days. */
  dailyMicros: number;
  /** Days left in the month after now: the rest of today as a fraction, then every later day. */
  daysLeft: number;
  /** Spent so far plus daily average × days left, in whole micro-dollars. */
  forecastMicros: number;
};

/**
 * The forecast at `now` from each day's spend (any days; those outside the month and the basis are
 * ignored, and a missing day counts as no spend).
 */
export function forecastMonth(days: DaySpend[], now: number, zone: string, basis: number = USAGE.forecastBasisDays): Forecast {
  const today = dayKey(now, zone);
  const month = today.slice(0, 7);
  const byDay = new Map<string, DaySpend>();
  for (const d of days) {
    const held = byDay.get(d.date);
    byDay.set(d.date, held ? { date: d.date, costMicros: held.costMicros + d.costMicros, requests: held.requests + d.requests } : d);
  }
  let spentMicros = 0;
  for (const d of byDay.values()) if (d.date >= `${month}-01` && d.date <= today) spentMicros += d.costMicros;

  // The complete days before today, from the first one with any use.
  const candidates = Array.from({ length: basis }, (_, i) => addDays(today, i - basis));
  const first = candidates.findIndex((d) => (byDay.get(d)?.requests ?? 0) > 0 || (byDay.get(d)?.costMicros ?? 0) > 0);
  const basisDays = first === -1 ? 0 : basis - first;
  const basisMicros = candidates.slice(first === -1 ? basis : first).reduce((s, d) => s + (byDay.get(d)?.costMicros ?? 0), 0);
  const dailyMicros = basisDays ? basisMicros / basisDays : 0;

  const tomorrow = addDays(today, 1);
  const todayStart = dayStart(today, zone);
  const todayEnd = dayStart(tomorrow, zone);
  const nextMonth = `${addMonths(month, 1)}-01`;
  const laterDays = Math.round((Date.parse(`${nextMonth}T00:00:00Z`) - Date.parse(`${tomorrow}T00:00:00Z`)) / MS.DAY);
  const daysLeft = (todayEnd - now) / (todayEnd - todayStart) + laterDays;

  return { month, spentMicros, basisDays, dailyMicros, daysLeft, forecastMicros: Math.round(spentMicros + dailyMicros * daysLeft) };
}
