// Spec: money in USD, en-US, 2 decimals; large counts shortened to K and M.
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });
const usdExact = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 6 });

/**
 * The one money format on every page: 2 decimals, and a non-zero amount below one cent reads
 * "< $0.01" (a model call that cost something never shows as $0.00; <Money> puts the exact
 * amount on hover). The CSV export keeps its own 4 decimals.
 */
export function formatUsd(value: number): string {
  if (value > 0 && value < 0.01) return "< $0.01";
  return usd.format(value);
}

/** The exact amount (up to 6 decimals: micro-dollars, as stored), for a sub-cent amount's hover. */
export function formatUsdExact(value: number): string {
  return usdExact.format(value);
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

// One formatter for the module's life: Number#toLocaleString builds a new one on every call, which
// in a server render costs more than the rest of a row (bench/profile.mjs showed it on every landing page).
const grouped = new Intl.NumberFormat("en-US");

/** A whole count with its thousands separated: "1,234,567". */
export function formatGrouped(value: number): string {
  return grouped.format(value);
}

function trim(n: number): string {
  return n.toFixed(1).replace(/\.0$/, "");
}

const dateFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

export function formatDate(ms: number): string {
  return dateFormat.format(new Date(ms));
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

const dateTime = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC", hour12: false });
export function formatDateTime(ms: number): string {
  return `${dateTime.format(new Date(ms))} UTC`;
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
