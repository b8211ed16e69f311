// Issue 49's data layer, inside a real ledger object: the slices (usage by model, provider, device,
// request type and status per quarter hour and local day) and the request log (keyset pages of raw
// reports). For 500 reports over 3 models, 2 providers, 2 devices and 5 failures, plus fallback
// reports, every filter's log rows, across all its pages, are exactly the reports sent that match,
// and the slices' totals for the same filter, grouped any way, equal the log's rows summed.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MS } from "~/lib/constants";
import { dayKey, dayStart } from "~/lib/usage/dates";
import { archivedLogPage } from "~/lib/usage/ledger/log";
import { LEDGER_MIGRATIONS, SLICES_VERSION } from "~/lib/usage/ledger/schema";
import { LedgerStore } from "~/lib/usage/ledger/store";
import type { LedgerSecure, LedgerUsage, LogCursor, LogRow, SliceGroup, UsageFilter } from "~/lib/usage/ledger/types";

const ZONE = "Asia/Kathmandu";
const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const MODELS = [
  { modelName: "gpt-4o", modelProvider: "openai" },
  { modelName: "gpt-4o-mini", modelProvider: "openai" },
  { modelName: "claude-sonnet-4", modelProvider: "anthropic" },
];
const DEVICES = ["device-a", "device-b"];
const TYPES = ["chat", "completion"];

function reportsSent(): LedgerUsage[] {
  return Array.from({ length: 500 }, (_, i) => {
    const model = MODELS[i % 3]!;
    // Ten reports share each instant, so pages must break ties by key.
    const at = NOW - Math.floor(i / 10) * 37 * MS.MINUTE;
    return {
      id: `r-${String(i).padStart(4, "0")}`,
      occurredAt: at,
      receivedAt: at,
      ...model,
      requestType: TYPES[i % 2]!,
      tokensUsed: 100 + i,
      tokensInput: 60 + i,
      tokensOutput: 40,
      costMicros: 1000 + i * 7,
      durationMs: 500 + i,
      success: i % 100 !== 13,
      errorMessage: i % 100 === 13 ? "rate limited" : null,
      metadata: JSON.stringify({ n: i }),
      conversationId: `c-${i % 20}`,
      appVersion: "1.4.0",
      appInstanceId: "inst-1",
      deviceId: i % 7 === 0 ? null : DEVICES[i % 2]!,
    };
  });
}

function fallbackSent(): LedgerSecure[] {
  return [0, 1].map((i) => ({
    reportHash: `hash-${i}`,
    modelName: MODELS[i]!.modelName,
    provider: MODELS[i]!.modelProvider,
    tokensUsed: 5000,
    costMicros: 40_000,
    requestCount: 12,
    successCount: 12 - i,
    errorCount: i,
    reportTimestamp: NOW - (i + 1) * 3 * MS.HOUR,
    appVersion: "1.4.0",
    appInstanceId: "inst-1",
    receivedAt: NOW,
  }));
}

/** The log rows a filter must give, from what was sent. */
function expected(usage: LedgerUsage[], secure: LedgerSecure[], f: UsageFilter, fromMs: number, toMs: number) {
  const rows: Array<{ id: string; requests: number; cost: number; tokens: number }> = [];
  for (const r of usage) {
    if (r.occurredAt < fromMs || r.occurredAt >= toMs) continue;
    if (f.model !== undefined && r.modelName !== f.model) continue;
    if (f.provider !== undefined && r.modelProvider !== f.provider) continue;
    if (f.device !== undefined && (r.deviceId ?? "") !== f.device) continue;
    if (f.requestType !== undefined && r.requestType !== f.requestType) continue;
    if (f.status !== undefined && r.success !== (f.status === "success")) continue;
    rows.push({ id: r.id, requests: 1, cost: r.costMicros, tokens: r.tokensUsed });
  }
  for (const s of secure) {
    if (s.reportTimestamp < fromMs || s.reportTimestamp >= toMs) continue;
    if (f.model !== undefined && s.modelName !== f.model) continue;
    if (f.provider !== undefined && s.provider !== f.provider) continue;
    if (f.device !== undefined && f.device !== "") continue;
    if (f.requestType !== undefined && f.requestType !== "fallback") continue;
    if (f.status !== undefined && (s.errorCount === 0) !== (f.status === "success")) continue;
    rows.push({ id: `fallback:${s.reportHash}`, requests: s.requestCount, cost: s.costMicros, tokens: s.tokensUsed });
  }
  return rows;
}

/** Every page of the log for a filter, following the cursor. */
function allPages(store: LedgerStore, filter: UsageFilter, fromMs: number, toMs: number, limit: number) {
  const rows: LogRow[] = [];
  let after: LogCursor | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = store.read({ now: NOW, log: { fromMs, toMs, filter, after, limit } }).log!;
    rows.push(...page.rows);
    if (!page.next) return rows;
    after = page.next;
  }
  throw new Error("the log never ended");
}

const FILTERS: UsageFilter[] = [
  {},
  ...MODELS.map((m) => ({ model: m.modelName })),
  { provider: "openai" },
  { provider: "anthropic" },
  ...DEVICES.map((device) => ({ device })),
  { device: "" },
  { status: "error" },
  { status: "success" },
  { requestType: "chat" },
  { requestType: "fallback" },
  { model: "gpt-4o", device: "device-b", status: "success" },
  { provider: "openai", status: "error" },
];

async function withStore(run: (store: LedgerStore, sql: SqlStorage) => void) {
  const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(`slices-${crypto.randomUUID()}`));
  await runInDurableObject(stub, (_instance, state) => run(new LedgerStore(state.storage.sql), state.storage.sql));
}

describe("slices and the request log", () => {
  it("gives, for every filter, exactly the matching reports across pages, and slices whose totals equal the log's", async () => {
    const usage = reportsSent();
    const secure = fallbackSent();
    await withStore((store) => {
      store.setZone(ZONE, NOW);
      expect(store.ingest(usage, secure, null, NOW).stored).toBe(502);
      const from = dayKey(NOW - 20 * MS.DAY, ZONE);
      const to = dayKey(NOW, ZONE);
      const [fromMs, toMs] = [dayStart(from, ZONE), NOW + MS.DAY];
      for (const filter of FILTERS) {
        const want = expected(usage, secure, filter, fromMs, toMs);
        const got = allPages(store, filter, fromMs, toMs, 23);
        expect(
          got.map((r) => r.id),
          JSON.stringify(filter),
        ).toEqual(
          // Newest first; no row twice, none missing.
          [...new Set(got.map((r) => r.id))],
        );
        expect(got.map((r) => r.id).sort(), JSON.stringify(filter)).toEqual(want.map((r) => r.id).sort());
        for (let i = 1; i < got.length; i++) expect(got[i - 1]!.occurredAt).toBeGreaterThanOrEqual(got[i]!.occurredAt);
        const sum = (rows: Array<{ requests: number; cost: number; tokens: number }>) =>
          rows.reduce((t, r) => ({ requests: t.requests + r.requests, cost: t.cost + r.cost, tokens: t.tokens + r.tokens }), {
            requests: 0,
            cost: 0,
            tokens: 0,
          });
        const logSum = sum(got.map((r) => ({ requests: r.requests, cost: r.costMicros, tokens: r.tokens })));
        expect(logSum).toEqual(sum(want));
        for (const groupBy of ["model", "provider", "device", "request_type", "status", "date", "hour"] as SliceGroup[]) {
          const range = groupBy === "hour" ? { from: dayKey(NOW - MS.DAY, ZONE), to } : { from, to };
          const slices = store.read({ now: NOW, slices: [{ ...range, groupBy, filter }] }).slices![0]!;
          const sliceSum = sum(slices.map((s) => ({ requests: s.totalRequests, cost: s.totalCostMicros, tokens: s.totalTokens })));
          const rangeMs = [dayStart(range.from, ZONE), NOW + MS.DAY] as const;
          expect(sliceSum, `${JSON.stringify(filter)} by ${groupBy}`).toEqual(sum(expected(usage, secure, filter, ...rangeMs)));
        }
      }
      // Failures: the five errors and the one fallback report with an error.
      expect(allPages(store, { status: "error" }, 0, toMs, 50).map((r) => r.id)).toEqual(["r-0013", "fallback:hash-1", "r-0113", "r-0213", "r-0313", "r-0413"]);
      // The filter's lists: every device and request type, with their requests, most used first.
      const values = store.read({ now: NOW, sliceValues: true }).sliceValues!;
      // Every request has a device or none: the 500 reports and the two fallback reports' 12 each.
      expect(values.devices.reduce((n, d) => n + d.requests, 0)).toBe(usage.length + 24);
      expect(values.devices.map((d) => d.value).sort()).toEqual(["", ...DEVICES].sort());
      expect(Object.fromEntries(values.requestTypes.map((t) => [t.value, t.requests]))).toEqual({ chat: 250, completion: 250, fallback: 24 });
      const byModel = store.read({ now: NOW, slices: [{ from, to, groupBy: "model" }] }).slices![0]!;
      expect(byModel.map((s) => `${s.key}/${s.provider}`).sort()).toEqual(MODELS.map((m) => `${m.modelName}/${m.modelProvider}`).sort());
    });
  });

  it("shows a report in full by its id, and nothing for an id it does not hold", async () => {
    await withStore((store) => {
      store.ingest(reportsSent().slice(0, 20), fallbackSent(), null, NOW);
      const detail = store.read({ now: NOW, report: "R-0013" }).report!;
      expect(detail).toMatchObject({
        id: "r-0013",
        success: false,
        errorMessage: "rate limited",
        metadata: { n: 13 },
        conversationId: "c-13",
        appVersion: "1.4.0",
      });
      expect(store.read({ now: NOW, report: "fallback:hash-1" }).report).toMatchObject({ kind: "fallback", requests: 12, errorCount: 1, durationMs: null });
      expect(store.read({ now: NOW, report: "r-9999" }).report).toBeNull();
    });
  });

  it("draws the slices of a ledger made before them from its raw reports and its quarters, in the ledger's zone", async () => {
    await withStore((_store, sql) => {
      const before = new LedgerStore(sql);
      before.setZone(ZONE, NOW);
      before.ingest(reportsSent(), fallbackSent(), null, NOW);
      // Back to the version before the slices, as a ledger made then is.
      for (const statement of LEDGER_MIGRATIONS.slice(SLICES_VERSION - 1).flat()) {
        const made = /^CREATE (TABLE|INDEX) (\w+)/.exec(statement);
        if (made) sql.exec(`DROP ${made[1]} IF EXISTS ${made[2]}`);
      }
      // And the member column a later version (ADR 0038) added to the raw reports.
      for (const table of ["reports", "secure_reports"]) sql.exec(`ALTER TABLE ${table} DROP COLUMN member_id`);
      sql.exec(`UPDATE meta SET value = ? WHERE key = 'schema_version'`, String(SLICES_VERSION - 1));
      // History whose raw reports went to R2: in `quarters` only, three of its forty requests failed.
      sql.exec(
        `INSERT INTO quarters (start, model_name, model_provider, total_requests, success_count, total_tokens, tokens_input, tokens_output, total_cost_micros,
          total_duration_ms, timed_requests, last_used_at) VALUES (?, 'gpt-4o', 'openai', 40, 37, 4000, 3000, 1000, 90000, 20000, 40, ?)`,
        NOW - 200 * MS.DAY,
        NOW - 200 * MS.DAY,
      );
      sql.exec(`DELETE FROM daily`);
      sql.exec(`DELETE FROM meta WHERE key = 'zone'`);
      new LedgerStore(sql).setZone(ZONE, NOW);
      const store = new LedgerStore(sql);
      expect(store.zone).toBe(ZONE);
      expect(sql.exec(`SELECT value FROM meta WHERE key = 'schema_version'`).one().value).toBe(String(LEDGER_MIGRATIONS.length));
      const fromAll = { from: "1970-01-02", to: dayKey(NOW, ZONE) };
      const daily = store.read({ now: NOW, modelTotalsFrom: "0000-00-00" }).modelTotals!;
      const sliced = store.read({ now: NOW, slices: [{ ...fromAll, groupBy: "model" }] }).slices![0]!;
      for (const m of daily) {
        const s = sliced.find((x) => x.key === m.modelName && x.provider === m.modelProvider)!;
        expect({ r: s.totalRequests, ok: s.successCount, c: s.totalCostMicros, t: s.totalTokens }).toEqual({
          r: m.totalRequests,
          ok: m.successCount,
          c: m.totalCostMicros,
          t: m.totalTokens,
        });
      }
      const byDate = store.read({ now: NOW, dateTotalsFrom: "0000-00-00", slices: [{ ...fromAll, groupBy: "date" }] });
      expect(byDate.slices![0]!.map((s) => [s.key, s.totalRequests])).toEqual(byDate.dateTotals!.map((d) => [d.date, d.totalRequests]));
      const errors = store.read({ now: NOW, slices: [{ ...fromAll, groupBy: "model", filter: { status: "error" } }] }).slices![0]!;
      // The five failed reports, the fallback report with a failure (its 12 requests are one error row
      // of the log), and the archived history's three failures.
      expect(errors.reduce((n, s) => n + s.totalRequests, 0)).toBe(5 + 12 + 3);
    });
  });

  it("redraws the slices' days when the zone changes, matching the daily rows", async () => {
    await withStore((store) => {
      store.ingest(reportsSent(), fallbackSent(), null, NOW);
      for (const zone of ["America/St_Johns", ZONE, "UTC"]) {
        store.setZone(zone, NOW);
        const read = store.read({ now: NOW, dateTotalsFrom: "0000-00-00", slices: [{ from: "1970-01-02", to: "2999-12-31", groupBy: "date" }] });
        expect(read.slices![0]!.map((s) => [s.key, s.totalRequests, s.totalCostMicros])).toEqual(
          read.dateTotals!.map((d) => [d.date, d.totalRequests, d.totalCostMicros]),
        );
      }
    });
  });

  it("pages an archived month's rows with the same filter, order and cursor", () => {
    const rows = [
      ...reportsSent().map((r) => ({
        kind: "usage",
        id: r.id,
        occurred_at: r.occurredAt,
        received_at: r.receivedAt,
        model_name: r.modelName,
        model_provider: r.modelProvider,
        request_type: r.requestType,
        tokens_used: r.tokensUsed,
        tokens_input: r.tokensInput,
        tokens_output: r.tokensOutput,
        cost_micros: r.costMicros,
        request_duration_ms: r.durationMs,
        success: r.success,
        error_message: r.errorMessage,
        metadata: JSON.parse(r.metadata!),
        device_id: r.deviceId,
      })),
      ...fallbackSent().map((s) => ({
        kind: "secure",
        report_hash: s.reportHash,
        model_name: s.modelName,
        provider: s.provider,
        tokens_used: s.tokensUsed,
        cost_micros: s.costMicros,
        request_count: s.requestCount,
        success_count: s.successCount,
        error_count: s.errorCount,
        report_timestamp: s.reportTimestamp,
      })),
    ];
    for (const filter of FILTERS) {
      const got: LogRow[] = [];
      let after: LogCursor | undefined;
      do {
        const page = archivedLogPage(rows, { fromMs: 0, toMs: NOW + 1, filter, after, limit: 37 });
        got.push(...page.rows);
        after = page.next ?? undefined;
      } while (after);
      expect(got.map((r) => r.id).sort(), JSON.stringify(filter)).toEqual(
        expected(reportsSent(), fallbackSent(), filter, 0, NOW + 1)
          .map((r) => r.id)
          .sort(),
      );
      expect(new Set(got.map((r) => r.id)).size).toBe(got.length);
    }
  });
});
