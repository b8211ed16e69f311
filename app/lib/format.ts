// Spec: money in USD, en-US, 2 decimals; large counts shortened to K and M.
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatUsd(value: number): string {
  return usd.format(value);
}

/** Per-request costs are often fractions of a cent: show 4 decimals below one cent. */
export function formatUsdPrecise(value: number): string {
  return value > 0 && value < 0.01 ? `$${value.toFixed(4)}` : usd.format(value);
}

export function formatCount(value: number): string {
  if (Math.abs(value) >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (Math.abs(value) >= 1_000) return `${trim(value / 1_000)}K`;
  return String(Math.round(value));
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
