// Numbers, money and dates as a person reads them: in the visitor's locale (issue 48; en-US
// without one) and the account's time zone (UTC for a signed-out visitor), by Intl. Pages get
// theirs from useFormat() (components/format.tsx), made once per locale and zone for the page's
// server render and its hydration alike. Money is always USD (the plan's currency), written the
// locale's way: "$1,234.50", "1.234,50 $". The site's words stay English: a length of time in a
// sentence ("15 minutes", "2 hours ago") is English words around the locale's digits.
//
// The formatters are made on first use (a page that shows no date makes no DateTimeFormat): the
// first Intl object a page makes costs the browser its locale data.
import { BoundedMap } from "./bounded-map";
import { MS } from "./constants";
import { DEFAULT_LOCALE } from "./locale";
import { UTC } from "./time-zone";

export type Formats = {
  readonly locale: string;
  readonly timeZone: string;
  /** The same locale's formats in UTC: for what is counted in UTC days (the free tier, the admins' rollup), calendar dates and UTC on hover. */
  utc(): Formats;
  /** 2 decimals; a non-zero amount below a cent reads "< $0.01" (<Money> puts the exact amount on hover). */
  usd(value: number): string;
  /** The exact amount (up to 6 decimals: micro-dollars, as stored), for a sub-cent amount's hover. */
  usdExact(value: number): string;
  /** A count, shortened from a thousand on ("1.5K", "2M" in en-US). */
  count(value: number): string;
  /** A whole number with the locale's grouping ("1,234"). */
  integer(value: number): string;
  /** A number with exactly `places` decimals (0 to 2): "1.25". */
  decimal(value: number, places: 0 | 1 | 2): string;
  /** A share in percent (12.5 → "12.5%"), with `places` decimals. */
  percent(value: number, places: 0 | 1): string;
  /** A change in percent with its sign ("+12.5%", "-3%"), or "—" when there is nothing to compare. */
  change(value: number | null): string;
  /** A response time: "850 ms", "1.25 s"; "—" for none. */
  ms(ms: number | null): string;
  /** A file size as file managers show it (binary units): "142 MB", "1.2 GB". */
  bytes(bytes: number): string;
  /** "1 day", "3 days" (the count shortened as `count` does). */
  plural(count: number, one: string, many?: string): string;
  /** "Sep 3, 2026": the day in the zone. */
  date(ms: number): string;
  /** "Sep 3": the day in the zone, without its year. */
  monthDay(ms: number): string;
  /** "September 2026". */
  monthYear(ms: number): string;
  /** "Sep 3, 09:07 UTC": hours 00 to 23, with the zone's short name. */
  dateTime(ms: number): string;
  /** "09:07:05" in the zone. */
  time(ms: number): string;
  /** An hour's label on a chart ("09:00"), from the hour's first instant. */
  hour(ms: number): string;
  /** The days of two instants as a range, without the year: "Nov 3 – 9". */
  dateRange(from: number, to: number): string;
  /** How long ago, as people say it: "less than a minute ago", "2 minutes ago"; a time a little ahead (another clock) is just now. */
  timeAgo(ms: number, now: number): string;
};

/** Made on first use only. */
function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

function make(locale: string, timeZone: string): Formats {
  const number = (options: Intl.NumberFormatOptions) => lazy(() => new Intl.NumberFormat(locale, options));
  const dates = (options: Intl.DateTimeFormatOptions) => lazy(() => new Intl.DateTimeFormat(locale, { ...options, timeZone }));
  const usd = number({ style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const usdExact = number({ style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 6 });
  const compact = number({ notation: "compact", maximumFractionDigits: 1 });
  const integer = number({ maximumFractionDigits: 0 });
  const upToOne = number({ maximumFractionDigits: 1 });
  const decimals = [0, 1, 2].map((places) => number({ minimumFractionDigits: places, maximumFractionDigits: places }));
  const percents = [0, 1].map((places) => number({ style: "percent", minimumFractionDigits: places, maximumFractionDigits: places }));
  const changes = [0, 1].map((places) => number({ style: "percent", maximumFractionDigits: places, signDisplay: "exceptZero" }));
  const date = dates({ year: "numeric", month: "short", day: "numeric" });
  const monthDay = dates({ month: "short", day: "numeric" });
  const monthYear = dates({ month: "long", year: "numeric" });
  const dateTime = dates({ month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" });
  const time = dates({ hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  const hour = dates({ hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  // English words ("2 minutes ago"), as the sentences around them are.
  const ago = lazy(() => new Intl.RelativeTimeFormat(DEFAULT_LOCALE, { numeric: "always" }));

  const count = (value: number) => compact().format(Math.abs(value) < 1000 ? Math.round(value) : value);
  const units = ["KB", "MB", "GB"];
  return {
    locale,
    timeZone,
    utc: () => formatsFor(locale, UTC),
    usd: (value) => (isSubCent(value) ? `< ${usd().format(0.01)}` : usd().format(value)),
    usdExact: (value) => usdExact().format(value),
    count,
    integer: (value) => integer().format(value),
    decimal: (value, places) => decimals[places]!().format(value),
    percent: (value, places) => percents[places]!().format(value / 100),
    change: (value) => (value === null ? "—" : changes[Math.abs(value) >= 10 ? 0 : 1]!().format(value / 100)),
    ms: (ms) => (ms === null ? "—" : ms >= MS.SECOND ? `${decimals[2]!().format(ms / MS.SECOND)} s` : `${integer().format(ms)} ms`),
    bytes: (bytes) => {
      if (bytes < 1024) return `${integer().format(bytes)} B`;
      let value = bytes / 1024;
      let unit = 0;
      while (value >= 1024 && unit < units.length - 1) {
        value /= 1024;
        unit++;
      }
      // "142 MB", "1.2 GB" and "2 GB": a decimal below 100 only, and only where it says something.
      return `${(value >= 100 ? integer : upToOne)().format(value)} ${units[unit]}`;
    },
    plural: (n, one, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`,
    date: (ms) => date().format(ms),
    monthDay: (ms) => monthDay().format(ms),
    monthYear: (ms) => monthYear().format(ms),
    dateTime: (ms) => dateTime().format(ms),
    time: (ms) => time().format(ms),
    hour: (ms) => hour().format(ms),
    dateRange: (from, to) => monthDay().formatRange(from, to),
    timeAgo: (ms, now) => {
      const minutes = Math.floor((now - ms) / MS.MINUTE);
      if (minutes < 1) return "less than a minute ago";
      if (minutes < 60) return ago().format(-minutes, "minute");
      const hours = Math.floor(minutes / 60);
      if (hours < 24) return ago().format(-hours, "hour");
      return ago().format(-Math.floor(hours / 24), "day");
    },
  };
}

// Per locale and zone: 15 locales, and the zones of the accounts an isolate serves.
const made = new BoundedMap<string, Formats>(256);

/** The formats of a locale and a time zone, made once per isolate (or browser page) and kept. */
export function formatsFor(locale: string, timeZone: string): Formats {
  const key = `${locale} ${timeZone}`;
  let formats = made.get(key);
  if (!formats) {
    formats = make(locale, timeZone);
    made.set(key, formats);
  }
  return formats;
}

/**
 * The formats of the site's own sentences, the same for every visitor (en-US, UTC): messages,
 * e-mails and the spec's texts written by the server, such as "Budgets are limited to $10,000".
 */
export const SITE_FORMATS = formatsFor(DEFAULT_LOCALE, UTC);

/** Whether `usd` hides this amount's digits (then the exact one is worth showing). */
export function isSubCent(value: number): boolean {
  return value > 0 && value < 0.01;
}

const UNIT_MS = { second: MS.SECOND, minute: MS.MINUTE, hour: MS.HOUR, day: MS.DAY } as const;

/**
 * A length of time from its milliseconds, in the unit its sentence counts in: (15 min, "minute")
 * is "15 minutes", (24 h, "hour") "24 hours", (1 h, "hour", { article: true }) "an hour". So a
 * page says what the constant is, not a number typed again beside it. English, as the site's sentences.
 */
export function formatDuration(ms: number, unit: keyof typeof UNIT_MS, options: { article?: boolean } = {}): string {
  const count = Math.round(ms / UNIT_MS[unit]);
  if (count === 1) return options.article ? `${unit === "hour" ? "an" : "a"} ${unit}` : `1 ${unit}`;
  return `${SITE_FORMATS.integer(count)} ${unit}s`;
}

/** How often a limit allows something, from its window: 1 h is "an hour", 2 h "every 2 hours". */
export function formatPer(ms: number, unit: keyof typeof UNIT_MS): string {
  const text = formatDuration(ms, unit, { article: true });
  return Math.round(ms / UNIT_MS[unit]) === 1 ? text : `every ${text}`;
}
