// The request log's view, read from its URL (issue 49): the filters, the page's cursor, the report
// whose details are open and the archived month, so every view is a link, a GET form fills it in
// without JavaScript, and a link someone shares opens the same rows. The address bar is user input:
// anything it cannot mean is refused with a sentence saying what (the page answers 400 with it).
import { LEDGER, REQUEST_LOG } from "../constants";
import { z } from "../zod";
import { addDays, addMonths, dayKey, dayStart, monthKey } from "./dates";
import type { LogCursor, UsageFilter } from "./ledger/types";
import { MAX } from "./report";
import { UTC } from "../time-zone";

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

export type ParsedLogView = { ok: true; view: LogView } | { ok: false; message: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
// A usage report's id (a UUID), or a fallback report's: "fallback:" and its hash.
const REPORT_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|fallback:[A-Za-z0-9_-]{1,128})$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const M = {
  day: "Dates are written YYYY-MM-DD (for example 2026-03-31).",
  month: "An archived month is written YYYY-MM (for example 2026-03).",
  text: "That filter value is too long.",
  device: "That device is not one of this account's device keys.",
  status: "Status is either success or error.",
  report: "That report id is not valid.",
  cursor: "That page link is not valid (it may have been cut short). Start again from the first page.",
  order: "The start date must not be after the end date.",
  future: "The end date must not be after today.",
} as const;

/** A calendar day that exists ('2026-02-30' does not). */
const day = z.string().refine((d) => DAY.test(d) && addDays(d, 0) === d, M.day);
const text = (max: number) => z.string().trim().max(max, M.text);
// One value per parameter; an empty one (a form's "Any") means no filter.
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

const paramsSchema = z.object({
  from: optional(day),
  to: optional(day),
  model: optional(text(MAX.modelName)),
  provider: optional(text(MAX.provider)),
  device: optional(z.string().refine((v) => v === NO_DEVICE || UUID.test(v), M.device)),
  status: optional(z.enum(["success", "error"], M.status)),
  type: optional(text(MAX.requestType)),
  cursor: optional(z.string().max(400, M.cursor)),
  report: optional(z.string().regex(REPORT_ID, M.report)),
  archive: optional(z.string().regex(MONTH, M.month)),
});

const cursorSchema = z.discriminatedUnion("kind", [
  z.object({ at: z.number().int().min(0), kind: z.literal("usage"), key: z.string().regex(/^\d{1,19}$/) }).strict(),
  z.object({ at: z.number().int().min(0), kind: z.literal("fallback"), key: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/) }).strict(),
]);

/** A cursor as the URL carries it: base64url of its JSON, opaque to the reader. */
export function encodeCursor(cursor: LogCursor): string {
  return btoa(JSON.stringify({ at: cursor.at, kind: cursor.kind, key: cursor.key }))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The cursor a URL carries, or null for anything that is not one this page wrote. */
function decodeCursor(value: string): LogCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return null;
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(atob(value.replaceAll("-", "+").replaceAll("_", "/"))));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The oldest day whose raw reports are all still in the ledger (older ones may be in R2 by now). */
export function oldestLiveDay(now: number, zone: string): string {
  return addDays(dayKey(now, zone), -(LEDGER.rawRetentionDays - 1));
}

/** The view a URL asks for, in the account's zone; or what is wrong with it. */
export function parseLogView(params: URLSearchParams, now: number, zone: string): ParsedLogView {
  const parsed = paramsSchema.safeParse(Object.fromEntries([...Object.keys(paramsSchema.shape)].map((key) => [key, params.get(key)])));
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? M.day };
  const p = parsed.data;
  const cursor = p.cursor === undefined ? null : decodeCursor(p.cursor);
  if (p.cursor !== undefined && cursor === null) return { ok: false, message: M.cursor };
  const filter: UsageFilter = {
    model: p.model,
    provider: p.provider,
    device: p.device === NO_DEVICE ? "" : p.device,
    status: p.status,
    requestType: p.type,
  };
  const common = { filter: dropUnset(filter), cursor, report: p.report ?? null };
  if (p.archive !== undefined) {
    if (p.archive > monthKey(now, UTC)) return { ok: false, message: "That month has not happened yet." };
    // An archived month is a UTC month (as R2 keeps it): its days, whatever the account's zone.
    return { ok: true, view: { ...common, from: `${p.archive}-01`, to: addDays(`${addMonths(p.archive, 1)}-01`, -1), archive: p.archive } };
  }
  const today = dayKey(now, zone);
  const to = p.to ?? today;
  const from = p.from ?? addDays(to, -(REQUEST_LOG.defaultDays - 1));
  if (from > to) return { ok: false, message: M.order };
  if (to > today) return { ok: false, message: M.future };
  const oldest = oldestLiveDay(now, zone);
  if (from < oldest) {
    return {
      ok: false,
      message: `Recent reports go back ${LEDGER.rawRetentionDays} days, to ${oldest}. Older reports are under Archived months.`,
    };
  }
  return { ok: true, view: { ...common, from, to, archive: null } };
}

function dropUnset(filter: UsageFilter): UsageFilter {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as UsageFilter;
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
