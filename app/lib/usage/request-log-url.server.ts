// Reading the request log's URL into a view (issue 49), on the server. The address bar is user
// input: anything it cannot mean is refused with a sentence saying what (the page answers 400 with
// it), and a cursor is only one the page wrote (base64url of its JSON, every field checked).
import { LEDGER, REQUEST_LOG } from "../constants";
import { UTC } from "../time-zone";
import { z } from "../zod";
import { addDays, addMonths, dayKey, monthKey } from "./dates";
import type { LogCursor, UsageFilter } from "./ledger/types";
import { MAX } from "./report";
import { type LogView, NO_DEVICE } from "./request-log";

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
