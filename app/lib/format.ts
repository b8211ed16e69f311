// Spec: money in USD, en-US, 2 decimals; large counts shortened to K and M.
//
// Money, integers and dates are written here by hand, as Intl would write them in en-US (UTC):
// the first Intl object a page makes costs Chromium 15-25 ms of main thread while it loads its
// locale data, and every dashboard page made four when this module loaded, in the task that
// hydrates the page (docs/performance.md, "Formats without Intl"). format.test.ts checks each
// against Intl; a value outside what they cover (not finite, past 10^15, a year outside 1-9999)
// goes to Intl itself, made on first use.

import { MS } from "./constants";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const SHORT_MONTHS = MONTHS.map((month) => month.slice(0, 3));

/** Made on first use only: the fallback for values the hand-written formats do not cover. */
function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

const usd = lazy(() => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 }));
const usdExact = lazy(() => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 6 }));

/** "1234567" → "1,234,567" (en-US groups every three digits, from 1,000 up). */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** The sign Intl writes for en-US: "-" for a negative number and for -0 ("-$0.00", "-0"). */
const minus = (value: number) => (value < 0 || Object.is(value, -0) ? "-" : "");

/** Whether a number is written by hand here: finite and below 10^15 (String() writes its whole digits, not an exponent). */
const inHandRange = (value: number) => Number.isFinite(value) && Math.abs(value) < 1e15;

/**
 * A non-negative number's digits rounded to `decimals` places, as Intl rounds: from the shortest
 * decimal that reads back as the number (what String() writes: 0.015 is "0.015", not toFixed's
 * 0.01499…), ties away from zero.
 */
function roundedDigits(abs: number, decimals: number): { whole: string; fraction: string } {
  let text = String(abs);
  const exponent = text.indexOf("e");
  if (exponent >= 0) {
    // Below 10^-6 String() writes "5e-7": the same digits, written out.
    const power = Number(text.slice(exponent + 1));
    const digits = text.slice(0, exponent).replace(".", "");
    text = `0.${"0".repeat(-power - 1)}${digits}`;
  }
  const [whole = "0", fraction = ""] = text.split(".");
  if (fraction.length <= decimals) return { whole, fraction: fraction.padEnd(decimals, "0") };
  let kept = `${whole}${fraction.slice(0, decimals)}`;
  if (fraction.charAt(decimals) >= "5") {
    // Add one at the last kept place, carrying to the left.
    const out = kept.split("");
    let i = out.length - 1;
    while (i >= 0 && out[i] === "9") out[i--] = "0";
    if (i >= 0) out[i] = String(Number(out[i]) + 1);
    else out.unshift("1");
    kept = out.join("");
  }
  return { whole: kept.slice(0, kept.length - decimals) || "0", fraction: kept.slice(kept.length - decimals) };
}

/**
 * Dollars as Intl's en-US currency format writes them, with `min` to `max` decimals: "$1,234.50",
 * and "-$0.00" for a negative amount that rounds to zero (and for -0).
 */
function dollars(value: number, min: number, max: number): string {
  const { whole, fraction } = roundedDigits(Math.abs(value), max);
  const shown = fraction.replace(/0+$/, "").padEnd(min, "0");
  return `${minus(value)}$${groupThousands(whole)}.${shown}`;
}

/**
 * The one money format on every page: 2 decimals, and a non-zero amount below one cent reads
 * "< $0.01" (a model call that cost something never shows as $0.00; <Money> puts the exact
 * amount on hover). The CSV export keeps its own 4 decimals.
 */
export function formatUsd(value: number): string {
  if (value > 0 && value < 0.01) return "< $0.01";
  return inHandRange(value) ? dollars(value, 2, 2) : usd().format(value);
}

/** The exact amount (up to 6 decimals: micro-dollars, as stored), for a sub-cent amount's hover. */
export function formatUsdExact(value: number): string {
  return inHandRange(value) ? dollars(value, 2, 6) : usdExact().format(value);
}

/** Whether formatUsd hides this amount's digits (then the exact one is worth showing). */
export function isSubCent(value: number): boolean {
  return value > 0 && value < 0.01;
}

/** "1 day", "3 days". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

export function formatCount(value: number): string {
  if (Math.abs(value) >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (Math.abs(value) >= 1_000) return `${trim(value / 1_000)}K`;
  return String(Math.round(value));
}

function trim(n: number): string {
  return n.toFixed(1).replace(/\.0$/, "");
}

/** A whole number as `toLocaleString("en-US")` writes it: "1,234", "-12,000". */
export function formatInteger(value: number): string {
  if (!Number.isInteger(value) || !inHandRange(value)) return value.toLocaleString("en-US");
  return `${minus(value)}${groupThousands(String(Math.abs(value)))}`;
}

/** The date's UTC parts, or null where Intl's own writing is left to decide (an invalid date, a year outside 1-9999). */
function utcParts(ms: number) {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 1 || year > 9999) return null;
  return { year, month: date.getUTCMonth(), day: date.getUTCDate(), hour: date.getUTCHours(), minute: date.getUTCMinutes() };
}

const twoDigits = (n: number) => String(n).padStart(2, "0");

const dateFormat = lazy(() => new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }));

/** "Sep 3, 2026" (UTC). */
export function formatDate(ms: number): string {
  const at = utcParts(ms);
  return at ? `${SHORT_MONTHS[at.month]} ${at.day}, ${at.year}` : dateFormat().format(new Date(ms));
}

const monthDayFormat = lazy(() => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }));

/** "Sep 3" (UTC): a week's label on a chart. */
export function formatMonthDay(ms: number): string {
  const at = utcParts(ms);
  return at ? `${SHORT_MONTHS[at.month]} ${at.day}` : monthDayFormat().format(new Date(ms));
}

const monthYearFormat = lazy(() => new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }));

/** "September 2026" (UTC). */
export function formatMonthYear(ms: number): string {
  const at = utcParts(ms);
  return at ? `${MONTHS[at.month]} ${at.year}` : monthYearFormat().format(new Date(ms));
}

/** A change in percent with its sign ("+12.5%", "-3%"), or "—" when there is nothing to compare. */
export function formatChange(value: number | null): string {
  if (value === null) return "—";
  const rounded = Math.abs(value) >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded > 0 ? "+" : ""}${rounded}%`;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return "—";
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

const dateTime = lazy(
  () => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC", hour12: false }),
);

/** "Sep 3, 09:07 UTC": hours 00 to 23, as workerd and Chromium write them (Node's Intl writes midnight as 24). */
export function formatDateTime(ms: number): string {
  const at = utcParts(ms);
  const text = at ? `${SHORT_MONTHS[at.month]} ${at.day}, ${twoDigits(at.hour)}:${twoDigits(at.minute)}` : dateTime().format(new Date(ms));
  return `${text} UTC`;
}

/**
 * How long ago, as people say it: "less than a minute ago", "2 minutes ago", "1 hour ago". A time
 * a little in the future (another machine's clock) reads as just now.
 */
export function formatTimeAgo(ms: number, now: number): string {
  const minutes = Math.floor((now - ms) / 60_000);
  if (minutes < 1) return "less than a minute ago";
  if (minutes < 60) return `${plural(minutes, "minute")} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${plural(hours, "hour")} ago`;
  return `${plural(Math.floor(hours / 24), "day")} ago`;
}

const UNIT_MS = { second: MS.SECOND, minute: MS.MINUTE, hour: MS.HOUR, day: MS.DAY } as const;

/**
 * A length of time from its milliseconds, in the unit its sentence counts in: (15 min, "minute")
 * is "15 minutes", (24 h, "hour") "24 hours", (1 h, "hour", { article: true }) "an hour". So a
 * page says what the constant is, not a number typed again beside it.
 */
export function formatDuration(ms: number, unit: keyof typeof UNIT_MS, options: { article?: boolean } = {}): string {
  const count = Math.round(ms / UNIT_MS[unit]);
  if (count === 1) return options.article ? `${unit === "hour" ? "an" : "a"} ${unit}` : `1 ${unit}`;
  return `${formatInteger(count)} ${unit}s`;
}

/** How often a limit allows something, from its window: 1 h is "an hour", 2 h "every 2 hours". */
export function formatPer(ms: number, unit: keyof typeof UNIT_MS): string {
  const text = formatDuration(ms, unit, { article: true });
  return Math.round(ms / UNIT_MS[unit]) === 1 ? text : `every ${text}`;
}

/** A file size as people read it: "142 MB", "1.2 GB", "293 KB" (binary units, as file managers show). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1).replace(/\.0$/, "")} ${units[unit]}`;
}
