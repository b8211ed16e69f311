// The request log's figures (issue 49): one ledger read per view gives its page of reports, the
// histogram and totals of the same filter (the ledger's slices: the same sums the log's rows add
// up to over all its pages), the values the filters offer and the archived months; an archived
// month's page comes from its R2 object through the ledger. Device keys are named as the
// profile's sessions card names them (D1's sessions, the account's own only).
import { and, eq, inArray } from "drizzle-orm";
import { deviceLabel } from "../auth/user-agent";
import type { ZonedAccount } from "../auth/session.server";
import { REQUEST_LOG } from "../constants";
import { type Db, schema } from "../db.server";
import { dayKey, dayStart, hoursOf } from "./dates";
import { ledgerFor, type LedgerNamespace } from "./ledger/api";
import type { LogRow, ReportDetail, SliceQuery, SliceRow } from "./ledger/types";
import { daysOf, encodeCursor, hourly, logBounds, type LogView, NO_DEVICE } from "./request-log";
import { oldestLiveDay } from "./request-log-url.server";

type Sources = { db: Db; ledgers: LedgerNamespace };

/** A row as the page shows it: its device key by name (null: sent with none). */
export type LogTableRow = LogRow & { device: string | null };
export type LogReport = ReportDetail & { device: string | null };
type Totals = { requests: number; errors: number; tokens: number; cost: number };

export type RequestLogData = {
  view: LogView;
  timeZone: string;
  /** The days the date filters may name: the oldest whose reports are all still in the ledger, and today. */
  limits: { oldest: string; today: string };
  rows: LogTableRow[];
  /** The next (older) page's cursor, as the URL carries it. */
  next: string | null;
  /** The filtered range's sums and its calls per day or hour; none for an archived month (its days are UTC's, the slices the zone's). */
  totals: Totals | null;
  histogram: { hourly: boolean; points: Array<{ start: number; requests: number }> } | null;
  options: { models: string[]; providers: string[]; devices: Array<{ value: string; label: string }>; types: string[] };
  archivedMonths: Array<{ month: string; rows: number }>;
  /** The report whose details are open; null when asked for and not found (the page answers 404). */
  report: LogReport | null | undefined;
  /** An archived month the account has none of (404). */
  monthMissing: boolean;
};

// Device keys named on one page at most: its rows' (REQUEST_LOG.pageSize) and this many of the
// filter's choices, within D1's hundred bound parameters.
const MAX_DEVICE_CHOICES = 40;

export async function requestLog({ db, ledgers }: Sources, account: ZonedAccount, view: LogView, now = Date.now()): Promise<RequestLogData> {
  const zone = account.profile.timeZone;
  const ledger = ledgerFor(ledgers, account.id);
  const query = { ...logBounds(view, zone), filter: view.filter, after: view.cursor ?? undefined, limit: REQUEST_LOG.pageSize };
  // The filter's models are those of the range (their daily rows); its devices and request types
  // are every one the account has used (slice_values: a row each, not a range's slices summed).
  const choices: SliceQuery[] = [{ from: view.from, to: view.to, groupBy: "model" }];
  const archive = view.archive;
  const histogram: SliceQuery = { from: view.from, to: view.to, groupBy: hourly(view) ? "hour" : "date", filter: view.filter };
  const [read, archivedPage, archivedReport] = await Promise.all([
    ledger.read({
      now,
      zone,
      slices: archive === null ? [...choices, histogram] : choices,
      sliceValues: true,
      archivedMonths: true,
      ...(archive === null ? { log: query, ...(view.report === null ? {} : { report: view.report }) } : {}),
    }),
    archive === null ? null : ledger.archivedLog(archive, account.id, query),
    archive === null || view.report === null ? undefined : ledger.archivedReport(archive, account.id, view.report),
  ]);
  const page = archivedPage ?? read.log ?? { rows: [], next: null };
  const report = archive === null ? (view.report === null ? undefined : (read.report ?? null)) : archivedReport;
  const [models, counted] = read.slices ?? [];
  const asRows = (values: Array<{ value: string; requests: number }> = []) => values.map((v) => ({ key: v.value, totalRequests: v.requests }));
  const devices = asRows(read.sliceValues?.devices);
  const types = asRows(read.sliceValues?.requestTypes);
  const names = await deviceNames(db, account.id, [
    ...page.rows.map((r) => r.deviceId),
    report?.deviceId ?? null,
    view.filter.device ?? null,
    ...devices.slice(0, MAX_DEVICE_CHOICES).map((d) => d.key),
  ]);
  const named = <T extends LogRow>(r: T) => ({ ...r, device: r.deviceId === null ? null : (names.get(r.deviceId) ?? UNKNOWN_DEVICE) });
  const archivedMonths = read.archivedMonths ?? [];
  return {
    view,
    timeZone: zone,
    limits: { oldest: oldestLiveDay(now, zone), today: dayKey(now, zone) },
    rows: page.rows.map(named),
    next: page.next ? encodeCursor(page.next) : null,
    totals: counted ? totalsOf(counted) : null,
    histogram: counted ? { hourly: histogram.groupBy === "hour", points: points(view, zone, counted) } : null,
    options: filterChoices(view, models ?? [], devices, types, names),
    archivedMonths,
    report: report ? named(report) : report,
    monthMissing: archive !== null && !archivedMonths.some((m) => m.month === archive),
  };
}

const UNKNOWN_DEVICE = "Unknown device";

/** The names of the account's device keys among these ids (others' ids are not looked up as theirs). */
async function deviceNames(db: Db, userId: string, ids: Array<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null && id !== ""))];
  if (wanted.length === 0) return new Map();
  const s = schema.sessions;
  const rows = await db
    .select({ id: s.id, name: s.deviceName, userAgent: s.userAgent, client: s.client })
    .from(s)
    .where(and(eq(s.userId, userId), inArray(s.id, wanted)));
  return new Map(rows.map((r) => [r.id, r.name ?? deviceLabel(r.userAgent, r.client)]));
}

function totalsOf(rows: SliceRow[]): Totals {
  const t = { requests: 0, errors: 0, tokens: 0, costMicros: 0 };
  for (const r of rows) {
    t.requests += r.totalRequests;
    t.errors += r.totalRequests - r.successCount;
    t.tokens += r.totalTokens;
    t.costMicros += r.totalCostMicros;
  }
  return { requests: t.requests, errors: t.errors, tokens: t.tokens, cost: t.costMicros / 1e6 };
}

/** Every day (or hour) of the range, those without calls at zero, each by its first instant. */
function points(view: LogView, zone: string, rows: SliceRow[]) {
  const byKey = new Map(rows.map((r) => [r.key, r.totalRequests]));
  const days = daysOf(view.from, view.to);
  if (hourly(view)) {
    return days.flatMap((d) => hoursOf(d, zone)).map(({ start }) => ({ start, requests: byKey.get(String(start)) ?? 0 }));
  }
  return days.map((d) => ({ start: dayStart(d, zone), requests: byKey.get(d) ?? 0 }));
}

/** What each filter offers: the values the range has, busiest first, and the one the URL names even when the range has none. */
type Choice = Pick<SliceRow, "key" | "totalRequests" | "provider">;

function filterChoices(view: LogView, models: Choice[], devices: Choice[], types: Choice[], names: Map<string, string>): RequestLogData["options"] {
  const byUse = (rows: Choice[]) => [...rows].sort((a, b) => b.totalRequests - a.totalRequests);
  const withCurrent = (values: string[], current: string | undefined) => [...new Set(current === undefined ? values : [current, ...values])];
  const f = view.filter;
  const deviceIds = withCurrent(
    byUse(devices)
      .slice(0, MAX_DEVICE_CHOICES)
      .map((d) => d.key),
    f.device,
  );
  return {
    models: withCurrent([...new Set(byUse(models).map((m) => m.key))], f.model),
    providers: withCurrent([...new Set(byUse(models).map((m) => m.provider ?? ""))].filter(Boolean), f.provider),
    devices: deviceIds.map((id) => (id === "" ? { value: NO_DEVICE, label: "No device key" } : { value: id, label: names.get(id) ?? UNKNOWN_DEVICE })),
    types: withCurrent(
      byUse(types).map((t) => t.key),
      f.requestType,
    ),
  };
}
