// The tidy usage exports (issue 49): one table a file, one header row first, one observation a row
// (a request, a day and model, a model), RFC 4180 with formula-safe cells (../csv.ts). Days and
// times are the account zone's, named in the header ("date_local (Asia/Tokyo)"); numbers are for
// machines: no currency sign, no grouping, cost in USD to the micro-dollar the ledger stores.
// Beside them the spec's sectioned export (usageCsv) stays as it is.
import type { ZonedAccount } from "../auth/session.server";
import { LEDGER, MS, USAGE } from "../constants";
import { csvRow } from "../csv";
import { isoInZone, UTC } from "../time-zone";
import type { UsageSource } from "./analytics.server";
import { addDays, addMonths, dayStart, monthKey } from "./dates";
import { deviceName, deviceNames } from "./device-names.server";
import { ledgerFor } from "./ledger/api";
import type { LogCursor, LogRow, SliceRow } from "./ledger/types";
import type { UsageView } from "./usage-range";

const CRLF = "\r\n";
const usd = (micros: number) => micros / 1e6;
const line = (values: Array<string | number>) => `${csvRow(values)}${CRLF}`;

const FIGURES = ["requests", "successes", "errors", "tokens", "tokens_input", "tokens_output", "cost_usd", "duration_ms_total", "timed_requests"];
const figures = (r: SliceRow) => [
  r.totalRequests,
  r.successCount,
  r.totalRequests - r.successCount,
  r.totalTokens,
  r.tokensInput,
  r.tokensOutput,
  usd(r.totalCostMicros),
  r.totalDurationMs,
  r.timedRequests,
];

/** Each model's figures over the range: one row a model (and provider), most costly first. */
export async function modelsCsv({ ledgers }: Pick<UsageSource, "ledgers">, account: ZonedAccount, view: UsageView, now = Date.now()): Promise<string> {
  const zone = account.profile.timeZone;
  const read = await ledgerFor(ledgers, account.id).read({ now, zone, slices: [{ from: view.from, to: view.to, groupBy: "model", filter: view.filter }] });
  let out = line([`from_local (${zone})`, `to_local (${zone})`, "model", "provider", ...FIGURES]);
  for (const r of read.slices?.[0] ?? []) out += line([view.from, view.to, r.key, r.provider ?? "", ...figures(r)]);
  return out;
}

/**
 * Each day's figures per model: the range's models first, then each model's days (two ledger
 * calls, both sums of slices); days without use are left out. Ordered by day, then model.
 */
export async function daysCsv({ ledgers }: Pick<UsageSource, "ledgers">, account: ZonedAccount, view: UsageView, now = Date.now()): Promise<string> {
  const zone = account.profile.timeZone;
  const ledger = ledgerFor(ledgers, account.id);
  const range = { from: view.from, to: view.to };
  const models = (await ledger.read({ now, zone, slices: [{ ...range, groupBy: "model", filter: view.filter }] })).slices?.[0] ?? [];
  const perModel = models.length
    ? ((
        await ledger.read({
          now,
          zone,
          slices: models.map((m) => ({ ...range, groupBy: "date" as const, filter: { ...view.filter, model: m.key, provider: m.provider ?? "" } })),
        })
      ).slices ?? [])
    : [];
  const rows = perModel.flatMap((days, i) => days.map((d) => ({ date: d.key, model: models[i]!.key, provider: models[i]!.provider ?? "", row: d })));
  rows.sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.model !== b.model ? (a.model < b.model ? -1 : 1) : a.provider < b.provider ? -1 : 1));
  let out = line([`date_local (${zone})`, "model", "provider", ...FIGURES]);
  for (const r of rows) out += line([r.date, r.model, r.provider, ...figures(r.row)]);
  return out;
}

const REQUEST_COLUMNS = (zone: string) => [
  "id",
  "kind",
  `time_local (${zone})`,
  "time_utc",
  "model",
  "provider",
  "device_id",
  "device_name",
  "request_type",
  "requests",
  "tokens",
  "tokens_input",
  "tokens_output",
  "cost_usd",
  "duration_ms",
  "status",
];

/**
 * Every report in the range, newest first, as a stream: the ledger's request log a page at a time
 * (its keyset cursor, never an offset), then the months of the range already archived to R2.
 * At most USAGE.requestsCsvMaxRows rows: a longer range is exported in parts (the page says so).
 */
export function requestsCsv({ db, ledgers }: UsageSource, account: ZonedAccount, view: UsageView, now = Date.now()): ReadableStream<Uint8Array> {
  const zone = account.profile.timeZone;
  const ledger = ledgerFor(ledgers, account.id);
  const fromMs = dayStart(view.from, zone);
  const toMs = dayStart(addDays(view.to, 1), zone);
  const sources = [{ month: null as string | null }, ...archivedMonths(fromMs, toMs, now).map((month) => ({ month }))];
  const names = new Map<string, string>();
  const seen = new Set<string>();
  const encoder = new TextEncoder();
  let source = 0;
  let after: LogCursor | undefined;
  let written = 0;
  let started = false;

  const page = (limit: number) => {
    const query = { fromMs, toMs, filter: view.filter, limit, ...(after ? { after } : {}) };
    const month = sources[source]!.month;
    return month === null
      ? ledger.read({ now, zone, log: query }).then((r) => r.log ?? { rows: [], next: null })
      : ledger.archivedLog(month, account.id, query);
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(line(REQUEST_COLUMNS(zone))));
        return;
      }
      const left = USAGE.requestsCsvMaxRows - written;
      if (source >= sources.length || left <= 0) return controller.close();
      const { rows, next } = await page(Math.min(USAGE.requestsCsvPageRows, left));
      // A month being archived can briefly be in both places: each report is written once.
      const fresh = rows.filter((r) => !seen.has(r.id));
      for (const r of fresh) seen.add(r.id);
      await nameDevices(names, fresh, (ids) => deviceNames(db, account.id, ids));
      written += fresh.length;
      if (next) after = next;
      else {
        source += 1;
        after = undefined;
      }
      controller.enqueue(encoder.encode(fresh.map((r) => requestLine(r, zone, names)).join("")));
    },
  });
}

async function nameDevices(names: Map<string, string>, rows: LogRow[], lookUp: (ids: string[]) => Promise<Map<string, string>>) {
  const missing = [...new Set(rows.map((r) => r.deviceId ?? ""))].filter((id) => !names.has(id));
  if (missing.length === 0) return;
  const found = await lookUp(missing);
  for (const id of missing) names.set(id, deviceName(found, id));
}

function requestLine(r: LogRow, zone: string, names: Map<string, string>): string {
  return line([
    r.id,
    r.kind,
    isoInZone(r.occurredAt, zone),
    new Date(r.occurredAt).toISOString(),
    r.modelName,
    r.modelProvider,
    r.deviceId ?? "",
    names.get(r.deviceId ?? "") ?? "",
    r.requestType,
    r.requests,
    r.tokens,
    r.tokensInput,
    r.tokensOutput,
    usd(r.costMicros),
    r.durationMs ?? "",
    r.success ? "success" : "error",
  ]);
}

/**
 * The UTC months of [fromMs, toMs) whose raw reports may have moved to R2 (those starting before
 * the retention window), newest first: the ledger keeps every later report itself.
 */
function archivedMonths(fromMs: number, toMs: number, now: number): string[] {
  const cutoff = now - LEDGER.rawRetentionDays * MS.DAY;
  const months: string[] = [];
  if (fromMs > cutoff) return months;
  for (let m = monthKey(Math.min(toMs - 1, cutoff), UTC); m >= monthKey(fromMs, UTC); m = addMonths(m, -1)) months.push(m);
  return months;
}
