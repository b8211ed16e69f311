// The request log's view (issue 49): the filters, the page's cursor, the report whose details are
// open and the archived month, so every view is a link and a link someone shares opens the same
// rows. What the page's components need too (the links they write); reading a URL into a view is
// the server's (request-log-url.server.ts: zod stays out of the page's JavaScript).
import { REQUEST_LOG } from "../constants";
import { addDays, addMonths, dayStart } from "./dates";
import type { LogCursor, UsageFilter } from "./ledger/types";

/** The URL's value of the device filter for reports sent with no device key (UsageFilter's ""). */
export const NO_DEVICE = "none";

/** What a view of the log shows: days of the account's zone, or an archived UTC month. */
export type LogView = {
  from: string;
  to: string;
  filter: UsageFilter;
  cursor: LogCursor | null;
  report: string | null;
  archive: string | null;
};

/** A cursor as the URL carries it: base64url of its JSON, opaque to the reader. */
export function encodeCursor(cursor: LogCursor): string {
  return btoa(JSON.stringify({ at: cursor.at, kind: cursor.kind, key: cursor.key }))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The instants a view's log covers: its first day's start to the start of the day after its last. */
export function logBounds(view: LogView, zone: string): { fromMs: number; toMs: number } {
  if (view.archive !== null) return { fromMs: Date.parse(`${view.archive}-01T00:00:00Z`), toMs: Date.parse(`${addMonths(view.archive, 1)}-01T00:00:00Z`) };
  return { fromMs: dayStart(view.from, zone), toMs: dayStart(addDays(view.to, 1), zone) };
}

/** Whether a range's histogram is drawn hour by hour (a day or two) rather than day by day. */
export function hourly(view: Pick<LogView, "from" | "to">): boolean {
  return addDays(view.from, REQUEST_LOG.hourlyMaxDays - 1) >= view.to;
}

/** The days of a range, oldest first. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}

/**
 * The URL search of a view (what the links write). Its days are always spelled out, so a link
 * shared today still opens the same days tomorrow; filters only when set. `overrides` set or
 * remove the cursor and the open report.
 */
export function viewSearch(view: LogView, overrides: Partial<Record<"cursor" | "report", string | null>> = {}): string {
  const params = new URLSearchParams();
  if (view.archive !== null) params.set("archive", view.archive);
  else {
    params.set("from", view.from);
    params.set("to", view.to);
  }
  const f = view.filter;
  if (f.model !== undefined) params.set("model", f.model);
  if (f.provider !== undefined) params.set("provider", f.provider);
  if (f.device !== undefined) params.set("device", f.device === "" ? NO_DEVICE : f.device);
  if (f.status !== undefined) params.set("status", f.status);
  if (f.requestType !== undefined) params.set("type", f.requestType);
  const cursor = overrides.cursor === undefined ? (view.cursor ? encodeCursor(view.cursor) : null) : overrides.cursor;
  if (cursor !== null) params.set("cursor", cursor);
  const report = overrides.report === undefined ? view.report : overrides.report;
  if (report !== null) params.set("report", report);
  return `?${params.toString()}`;
}
