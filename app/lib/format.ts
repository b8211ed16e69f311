// Spec: money in USD, en-US, 2 decimals; large counts shortened to K and M.
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatUsd(value: number): string {
  return usd.format(value);
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
